import type { CollectionRecord } from '../../storage/collections.js';
import type { MemberRole } from '../../storage/members.js';
import type { DefaultLevel } from '../../storage/spaces.js';
import { collectionActions, organizationActions, spaceActions } from './actions.js';
import { atLeast, type RoleOrGuest } from './roles.js';

/**
 * A member's role on a space: organization admins administer everything; anyone else gets the
 * first default level that isn't `inherit`, looking at the space, then its collections from the
 * nearest up, then the member's organization role. A level of null means only invited people;
 * guests reach nothing by default. Undefined: no access.
 */
export function effectiveRole(organizationRole: RoleOrGuest, levels: DefaultLevel[]): MemberRole | undefined {
  if (organizationRole === 'admin') return 'admin';
  if (organizationRole === null) return undefined;
  const level = levels.find((candidate) => candidate !== 'inherit');
  const resolved = level === undefined ? organizationRole : level;
  return resolved ?? undefined;
}

export function levelsOf(space: { defaultLevel: DefaultLevel }, chain: CollectionRecord[]): DefaultLevel[] {
  return [space.defaultLevel, ...chain.map((collection) => collection.defaultLevel)];
}

/** The Space `permissions` of a caller with this role: what the routes' policies (spaceActions) let them do. */
export function spacePermissions(role: MemberRole | undefined) {
  const has = (needed: MemberRole) => role !== undefined && atLeast(role, needed);
  return {
    view: has(spaceActions.view),
    access: has(spaceActions.view),
    admin: has(spaceActions.admin),
    viewInviteLinks: has(spaceActions.admin),
    edit: has(spaceActions.edit),
    triggerGitSync: has(spaceActions.edit),
    comment: has(spaceActions.comment),
    merge: has(spaceActions.merge),
    review: has(spaceActions.review),
    installIntegration: has(spaceActions.admin),
  };
}

/** The Collection `permissions`; `create`: the create role inside it, as adding a space there requires. */
export function collectionPermissions(role: MemberRole | undefined, organizationRole: RoleOrGuest) {
  const has = (needed: MemberRole) => role !== undefined && atLeast(role, needed);
  return {
    view: has(collectionActions.view),
    admin: has(collectionActions.admin),
    viewInviteLinks: has(collectionActions.admin),
    create: has(organizationActions.create) && atLeast(organizationRole, organizationActions.create),
  };
}
