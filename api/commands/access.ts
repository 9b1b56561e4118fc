import { listAllCollectionsOfOrganization, type CollectionRecord } from '../../storage/collections.js';
import type { Database } from '../../storage/db.js';
import type { MemberRole } from '../../storage/members.js';
import { listAllSpacesOfOrganization, type SpaceRecord } from '../../storage/spaces.js';
import { effectiveRole, levelsOf } from '../policies/spaceRoles.js';

export interface OrganizationAccess {
  spaces: Map<string, { space: SpaceRecord; role: MemberRole }>;
  collections: Map<string, { collection: CollectionRecord; role: MemberRole }>;
}

/** Every space and collection of the organization a member reaches, with their role on each. */
export async function organizationAccess(db: Database, organizationId: string, organizationRole: MemberRole | null): Promise<OrganizationAccess> {
  const [spaces, collections] = await Promise.all([listAllSpacesOfOrganization(db, organizationId), listAllCollectionsOfOrganization(db, organizationId)]);
  const byId = new Map(collections.map((collection) => [collection.id, collection]));
  const chainOf = (id: string | null): CollectionRecord[] => {
    const chain: CollectionRecord[] = [];
    for (let current = id ? byId.get(id) : undefined; current && chain.length < 64; current = current.parentId ? byId.get(current.parentId) : undefined) chain.push(current);
    return chain;
  };
  const access: OrganizationAccess = { spaces: new Map(), collections: new Map() };
  for (const space of spaces) {
    const role = effectiveRole(organizationRole, levelsOf(space, chainOf(space.collectionId)));
    if (role) access.spaces.set(space.id, { space, role });
  }
  for (const collection of collections) {
    const role = effectiveRole(organizationRole, chainOf(collection.id).map((c) => c.defaultLevel));
    if (role) access.collections.set(collection.id, { collection, role });
  }
  return access;
}
