import { collectionChain, type CollectionRecord } from '../../storage/collections.js';
import { grantsOnTargets, grantedRole, higherRole, type Grants, type PermissionTarget, type ReachingGrant } from '../../storage/contentGrants.js';
import type { Queryable } from '../../storage/db.js';
import { listEnabledMembers, type MemberRecord, type MemberRole } from '../../storage/members.js';
import { paginateArray, type Page, type PageRequest } from '../../storage/pagination.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import { searchKey } from '../../storage/users.js';
import { effectiveRole, levelsOf } from '../organizations/index.js';

/** One member and the role they have on a space, collection or site. */
export interface Reach {
  member: MemberRecord;
  /** null: none (a site's list shows every member). */
  role: MemberRole | null;
  /** Where the role comes from: the organization (its role, default levels), or a grant (the member's own, or a team's). */
  origin: { kind: 'organization' } | { kind: 'grant'; team?: string };
}

export interface ReachFilter {
  /** `guest`: the members with no role there (only in a list of everyone). */
  role?: MemberRole | 'guest';
  /** Part of the display name or email, any case. */
  search?: string;
  /** Members of this team only. */
  teamMembers?: ReadonlySet<string>;
  sort?: 'joinedAt' | 'lastSeenAt' | 'name';
  order?: 'asc' | 'desc';
}

/** Every enabled member who reaches the space, with their effective role there (docs/permissions.md). */
export async function whoReachesSpace(db: Queryable, space: SpaceRecord, filter: ReachFilter, request: PageRequest): Promise<Page<Reach>> {
  const chain = await collectionChain(db, space.collectionId);
  const levels = levelsOf(space, chain);
  return reachOf(db, space.organizationId, [{ kind: 'space', id: space.id }, ...chainTargets(chain)], filter, request, (role, grants) => ({
    fromOrganization: effectiveRole(role, levels),
    granted: grantedRole(grants, space.id, chain),
  }));
}

/** The same for a collection: its default level and its parents', and grants on it and above it. */
export async function whoReachesCollection(db: Queryable, collection: CollectionRecord, filter: ReachFilter, request: PageRequest): Promise<Page<Reach>> {
  const chain = await collectionChain(db, collection.id);
  const levels = chain.map((entry) => entry.defaultLevel);
  return reachOf(db, collection.organizationId, chainTargets(chain), filter, request, (role, grants) => ({
    fromOrganization: effectiveRole(role, levels),
    granted: grantedRole(grants, undefined, chain),
  }));
}

/**
 * Every enabled member and their role on a site: the organization role, raised by a grant on the
 * site; members with none (guests not invited to it) are listed too, with no role.
 */
export function whoReachesSite(db: Queryable, site: { id: string; organizationId: string }, filter: ReachFilter, request: PageRequest): Promise<Page<Reach>> {
  return reachOf(db, site.organizationId, [{ kind: 'site', id: site.id }], { ...filter, everyone: true }, request, (role, grants) => ({
    fromOrganization: role ?? undefined,
    granted: grants.get(`site:${site.id}`),
  }));
}

const chainTargets = (chain: CollectionRecord[]): PermissionTarget[] => chain.map((collection) => ({ kind: 'collection', id: collection.id }));

type Resolve = (organizationRole: MemberRole | null, grants: Grants) => { fromOrganization: MemberRole | undefined; granted: MemberRole | undefined };

async function reachOf(db: Queryable, organizationId: string, targets: PermissionTarget[], filter: ReachFilter & { everyone?: true }, request: PageRequest, resolve: Resolve): Promise<Page<Reach>> {
  const [members, grantsByUser] = await Promise.all([listEnabledMembers(db, organizationId), grantsOnTargets(db, targets)]);
  const needle = filter.search ? searchKey(filter.search) : undefined;
  const reaches: Reach[] = [];
  for (const member of members) {
    if (filter.teamMembers && !filter.teamMembers.has(member.user.id)) continue;
    if (needle && !searchKey(`${member.user.displayName} ${member.user.email}`).includes(needle)) continue;
    const reaching = grantsByUser.get(member.user.id) ?? new Map<string, ReachingGrant>();
    const { fromOrganization, granted } = resolve(member.role, new Map([...reaching].map(([key, grant]) => [key, grant.role])));
    const role = higherRole(fromOrganization, granted) ?? null;
    if ((!role && !filter.everyone) || (filter.role && (role ?? 'guest') !== filter.role)) continue;
    const raisedByGrant = granted !== undefined && role === granted && role !== fromOrganization;
    reaches.push({ member, role, origin: raisedByGrant ? { kind: 'grant', ...optionalTeam(teamOf(reaching, granted)) } : { kind: 'organization' } });
  }
  const sort = filter.sort ?? 'joinedAt';
  const key = (reach: Reach): [string, string] => [
    sort === 'name' ? searchKey(reach.member.user.displayName) : sort === 'lastSeenAt' ? (reach.member.lastSeenAt ?? '') : reach.member.joinedAt,
    reach.member.user.id,
  ];
  return paginateArray(reaches, key, JSON.stringify([organizationId, targets[0], filter.role, filter.search, sort]), { ...request, order: filter.order ?? request.order });
}

const optionalTeam = (team: string | undefined) => (team === undefined ? {} : { team });

/** The team whose grant gave the role, when no grant of the person's own did. */
function teamOf(reaching: Map<string, ReachingGrant>, role: MemberRole): string | undefined {
  const grants = [...reaching.values()].filter((grant) => grant.role === role);
  return grants.some((grant) => grant.team === undefined) ? undefined : grants[0]?.team;
}
