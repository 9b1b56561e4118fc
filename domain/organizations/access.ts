import { collectionChain, listAllCollectionsOfOrganization, type CollectionRecord } from '../../storage/collections.js';
import type { Database } from '../../storage/db.js';
import type { MemberRole } from '../../storage/members.js';
import { listAllSpacesOfOrganization, type SpaceRecord } from '../../storage/spaces.js';
import { effectiveRole, levelsOf } from './spaceRoles.js';
import { findContentGrants, grantedRole, higherRole, type Grants } from '../../storage/contentGrants.js';

export interface OrganizationAccess {
  spaces: Map<string, { space: SpaceRecord; role: MemberRole }>;
  collections: Map<string, { collection: CollectionRecord; role: MemberRole }>;
}

interface OrganizationContent {
  spaces: SpaceRecord[];
  collections: CollectionRecord[];
  chainOf(id: string | null): CollectionRecord[];
}

async function loadContent(db: Database, organizationId: string): Promise<OrganizationContent> {
  const [spaces, collections] = await Promise.all([listAllSpacesOfOrganization(db, organizationId), listAllCollectionsOfOrganization(db, organizationId)]);
  const byId = new Map(collections.map((collection) => [collection.id, collection]));
  return {
    spaces,
    collections,
    chainOf: (id) => {
      const chain: CollectionRecord[] = [];
      for (let current = id ? byId.get(id) : undefined; current && chain.length < 64; current = current.parentId ? byId.get(current.parentId) : undefined) chain.push(current);
      return chain;
    },
  };
}

function accessIn(content: OrganizationContent, organizationRole: MemberRole | null, grants: Grants = noGrants): OrganizationAccess {
  const access: OrganizationAccess = { spaces: new Map(), collections: new Map() };
  for (const space of content.spaces) {
    const chain = content.chainOf(space.collectionId);
    const role = higherRole(effectiveRole(organizationRole, levelsOf(space, chain)), grantedRole(grants, space.id, chain));
    if (role) access.spaces.set(space.id, { space, role });
  }
  for (const collection of content.collections) {
    const chain = content.chainOf(collection.id);
    const role = higherRole(
      effectiveRole(
        organizationRole,
        chain.map((c) => c.defaultLevel),
      ),
      grantedRole(grants, undefined, chain),
    );
    if (role) access.collections.set(collection.id, { collection, role });
  }
  return access;
}

const noGrants: Grants = new Map();

/**
 * Every space and collection of the organization a member reaches, with their role on each;
 * `grants`: the member's own (storage/contentGrants, findContentGrantsCached), from invite links.
 */
export async function organizationAccess(db: Database, organizationId: string, organizationRole: MemberRole | null, grants: Grants = noGrants): Promise<OrganizationAccess> {
  return accessIn(await loadContent(db, organizationId), organizationRole, grants);
}

/**
 * How many spaces each member reaches: their organization role's reach, computed once per role
 * from one reading of the organization, unless grants (their own or their teams') add to it
 * (storage/contentGrants): those members are counted with their grants.
 */
export async function spaceCounts(db: Database, organizationId: string): Promise<(member: { role: MemberRole | null; userId: string }) => Promise<number>> {
  const content = await loadContent(db, organizationId);
  const byRole = new Map<MemberRole | null, number>();
  return async ({ role, userId }) => {
    const grants = await findContentGrants(db, userId);
    if ([...grants.keys()].some((key) => key.startsWith('space:') || key.startsWith('collection:'))) return accessIn(content, role, grants).spaces.size;
    let count = byRole.get(role);
    if (count === undefined) {
      count = accessIn(content, role).spaces.size;
      byRole.set(role, count);
    }
    return count;
  };
}

/** The spaces each of these members reaches (spaceCounts), by user id. */
export async function spaceCountsOfMembers(count: Awaited<ReturnType<typeof spaceCounts>>, members: Array<{ role: MemberRole | null; user: { id: string } }>): Promise<Map<string, number>> {
  return new Map(await Promise.all(members.map(async (member) => [member.user.id, await count({ role: member.role, userId: member.user.id })] as const)));
}

/**
 * What a member may do in a place where spaces and collections go: a collection (their effective
 * role there), or the organization's top level (their organization role; guests nothing).
 */
export async function roleWhere(db: Database, organizationRole: MemberRole | null, collectionId: string | null, grants: Grants = noGrants): Promise<MemberRole | undefined> {
  if (!collectionId) return organizationRole ?? undefined;
  const chain = await collectionChain(db, collectionId);
  return higherRole(
    effectiveRole(
      organizationRole,
      chain.map((collection) => collection.defaultLevel),
    ),
    grantedRole(grants, undefined, chain),
  );
}

/** The caller's effective role on a space, from its default level and its collections'. */
export async function roleOnSpace(db: Database, organizationRole: MemberRole | null, space: SpaceRecord, grants: Grants = noGrants): Promise<MemberRole | undefined> {
  const chain = await collectionChain(db, space.collectionId);
  return higherRole(effectiveRole(organizationRole, levelsOf(space, chain)), grantedRole(grants, space.id, chain));
}
