import type { CollectionRecord } from '../../storage/collections.js';
import type { MemberRole } from '../../storage/members.js';
import type { DefaultLevel } from '../../storage/spaces.js';

/**
 * A member's role on a space: organization admins administer everything; anyone else gets the
 * first default level that isn't `inherit`, looking at the space, then its collections from the
 * nearest up, then the member's organization role. A level of null means only invited people;
 * guests reach nothing by default. Undefined: no access.
 */
export function effectiveRole(organizationRole: MemberRole | null, levels: DefaultLevel[]): MemberRole | undefined {
  if (organizationRole === 'admin') return 'admin';
  if (organizationRole === null) return undefined;
  const level = levels.find((candidate) => candidate !== 'inherit');
  const resolved = level === undefined ? organizationRole : level;
  return resolved ?? undefined;
}

export function levelsOf(space: { defaultLevel: DefaultLevel }, chain: CollectionRecord[]): DefaultLevel[] {
  return [space.defaultLevel, ...chain.map((collection) => collection.defaultLevel)];
}
