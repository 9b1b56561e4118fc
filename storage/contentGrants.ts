import type { Database, Queryable, Transaction } from './db.js';
import { now } from './ids.js';
import { memberColumns, memberRoles, toMember, type MemberRecord, type MemberRole, type MemberRow } from './members.js';
import { mapPage, paginate, type Page, type PageRequest } from './pagination.js';
import { findTeam, type TeamRecord } from './teams.js';

/** A space or a collection: what an invite link can point at. */
export interface GrantTarget {
  kind: 'space' | 'collection';
  id: string;
}

/** What a grant can point at: a space, a collection, or a site (its permissions). */
export interface PermissionTarget {
  kind: 'space' | 'collection' | 'site';
  id: string;
}

/** Who a grant is given to: one person, or every member of a team. */
export type Grantee = { kind: 'user'; id: string } | { kind: 'team'; id: string };

/** The higher of two roles (undefined: none). */
export function higherRole(a: MemberRole | undefined, b: MemberRole | undefined): MemberRole | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return memberRoles.indexOf(a) <= memberRoles.indexOf(b) ? a : b;
}

/** Gives the user `role` on the target, unless a grant there already gives as much. */
export async function grantContentRole(db: Transaction, input: { organizationId: string; target: GrantTarget; userId: string; role: MemberRole }): Promise<void> {
  const existing = await db.get<{ role: MemberRole }>('SELECT role FROM content_grants WHERE user_id = ? AND target_kind = ? AND target_id = ?', [input.userId, input.target.kind, input.target.id]);
  const role = higherRole(existing?.role, input.role)!;
  await db.run(
    `INSERT INTO content_grants (organization_id, target_kind, target_id, user_id, role, granted_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, target_kind, target_id) DO UPDATE SET role = excluded.role`,
    [input.organizationId, input.target.kind, input.target.id, input.userId, role, now()],
  );
}

/** Removes every grant on these spaces and collections: they left the organization the grants were given in. */
export async function revokeGrantsOn(db: Transaction, targets: { spaceIds: string[]; collectionIds: string[] }): Promise<void> {
  for (const [kind, ids] of [
    ['space', targets.spaceIds],
    ['collection', targets.collectionIds],
  ] as const) {
    if (ids.length === 0) continue;
    await db.run('DELETE FROM content_grants WHERE target_kind = ? AND target_id IN (SELECT value FROM json_each(?))', [kind, JSON.stringify(ids)]);
    await db.run('DELETE FROM team_content_grants WHERE target_kind = ? AND target_id IN (SELECT value FROM json_each(?))', [kind, JSON.stringify(ids)]);
  }
}

/** A user's grants, `space:<id>` or `collection:<id>` → role. */
export type Grants = ReadonlyMap<string, MemberRole>;

/** A user's grants: their own and their teams', the highest on each target. */
export async function findContentGrants(db: Queryable, userId: string): Promise<Grants> {
  const rows = await db.all<{ target_kind: string; target_id: string; role: MemberRole }>(
    `SELECT target_kind, target_id, role FROM content_grants WHERE user_id = ?
     UNION ALL
     SELECT grants.target_kind, grants.target_id, grants.role FROM team_content_grants grants
       JOIN team_members ON team_members.team_id = grants.team_id
     WHERE team_members.user_id = ?`,
    [userId, userId],
  );
  const grants = new Map<string, MemberRole>();
  for (const row of rows) {
    const key = `${row.target_kind}:${row.target_id}`;
    grants.set(key, higherRole(grants.get(key), row.role)!);
  }
  return grants;
}

/** The tables findContentGrants reads. */
export const grantReads = ['content_grants', 'team_content_grants', 'team_members'] as const;

/** Sets the grantee's role on the target, whatever it was (an invite or a PATCH of permissions). */
export async function putGrant(db: Transaction, input: { organizationId: string; target: PermissionTarget; grantee: Grantee; role: MemberRole }): Promise<void> {
  const [table, column] = granteeTable(input.grantee);
  await db.run(
    `INSERT INTO ${table} (organization_id, target_kind, target_id, ${column}, role, granted_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (${column}, target_kind, target_id) DO UPDATE SET role = excluded.role`,
    [input.organizationId, input.target.kind, input.target.id, input.grantee.id, input.role, now()],
  );
}

/** Removes the grantee's grant on the target; false when there was none. */
export async function deleteGrant(db: Transaction, target: PermissionTarget, grantee: Grantee): Promise<boolean> {
  const [table, column] = granteeTable(grantee);
  const { changes } = await db.run(`DELETE FROM ${table} WHERE target_kind = ? AND target_id = ? AND ${column} = ?`, [target.kind, target.id, grantee.id]);
  return changes > 0;
}

/** The grantee's own grant on the target (not its teams'), if any. */
export async function findGrant(db: Queryable, target: PermissionTarget, grantee: Grantee): Promise<MemberRole | undefined> {
  const [table, column] = granteeTable(grantee);
  const row = await db.get<{ role: MemberRole }>(`SELECT role FROM ${table} WHERE target_kind = ? AND target_id = ? AND ${column} = ?`, [target.kind, target.id, grantee.id]);
  return row?.role;
}

const granteeTable = (grantee: Grantee): [string, string] => (grantee.kind === 'user' ? ['content_grants', 'user_id'] : ['team_content_grants', 'team_id']);

/** The people given a role on the target, oldest grant first; members of the organization only. */
export async function listUserGrants(db: Queryable, organizationId: string, target: PermissionTarget, request: PageRequest): Promise<Page<{ member: MemberRecord; role: MemberRole }>> {
  const page = await paginate<MemberRow & { grant_role: MemberRole; granted_at: string }>(
    db,
    {
      select: `${memberColumns}, content_grants.role AS grant_role, content_grants.granted_at`,
      from: `content_grants
        JOIN memberships ON memberships.user_id = content_grants.user_id AND memberships.organization_id = content_grants.organization_id
        JOIN users ON users.id = content_grants.user_id`,
      where: 'content_grants.target_kind = ? AND content_grants.target_id = ? AND content_grants.organization_id = ?',
      params: [target.kind, target.id, organizationId],
      sort: ['content_grants.granted_at', 'content_grants.user_id'],
      key: (row) => [row.granted_at, row.id],
    },
    request,
  );
  return mapPage(page, (row) => ({ member: toMember(row), role: row.grant_role }));
}

/** The teams given a role on the target, oldest grant first. */
export async function listTeamGrants(db: Queryable, organizationId: string, target: PermissionTarget, request: PageRequest): Promise<Page<{ team: TeamRecord; role: MemberRole }>> {
  const page = await paginate<{ team_id: string; role: MemberRole; granted_at: string }>(
    db,
    {
      select: 'team_id, role, granted_at',
      from: 'team_content_grants',
      where: 'target_kind = ? AND target_id = ? AND organization_id = ?',
      params: [target.kind, target.id, organizationId],
      sort: ['granted_at', 'team_id'],
      key: (row) => [row.granted_at, row.team_id],
    },
    request,
  );
  const items = [];
  for (const row of page.items) {
    const team = await findTeam(db, organizationId, row.team_id);
    if (team) items.push({ team, role: row.role });
  }
  return { ...page, items };
}

/** A grant as it reaches a person: its role, and the team it came through (none: their own). */
export interface ReachingGrant {
  role: MemberRole;
  team?: string;
}

/**
 * Every grant on these targets, by person: their own and through their teams, the highest on
 * each target (`<kind>:<id>`; their own on a tie). What a list of who reaches a target is built from.
 */
export async function grantsOnTargets(db: Queryable, targets: PermissionTarget[]): Promise<Map<string, Map<string, ReachingGrant>>> {
  const byUser = new Map<string, Map<string, ReachingGrant>>();
  if (targets.length === 0) return byUser;
  const keys = JSON.stringify(targets.map((target) => `${target.kind}:${target.id}`));
  const rows = await db.all<{ user_id: string; target_kind: string; target_id: string; role: MemberRole; team_id: string | null }>(
    `SELECT user_id, target_kind, target_id, role, NULL AS team_id FROM content_grants WHERE target_kind || ':' || target_id IN (SELECT value FROM json_each(?))
     UNION ALL
     SELECT team_members.user_id, grants.target_kind, grants.target_id, grants.role, grants.team_id FROM team_content_grants grants
       JOIN team_members ON team_members.team_id = grants.team_id
     WHERE grants.target_kind || ':' || grants.target_id IN (SELECT value FROM json_each(?))`,
    [keys, keys],
  );
  for (const row of rows) {
    const grants = byUser.get(row.user_id) ?? new Map<string, ReachingGrant>();
    const key = `${row.target_kind}:${row.target_id}`;
    const held = grants.get(key);
    const wins = !held || (higherRole(held.role, row.role) === row.role && (row.role !== held.role || (row.team_id === null && held.team !== undefined)));
    if (wins) grants.set(key, { role: row.role, ...(row.team_id !== null && { team: row.team_id }) });
    byUser.set(row.user_id, grants);
  }
  return byUser;
}

/** findContentGrants through the database's read cache: the access check of a space reads it. */
export async function findContentGrantsCached(db: Database, userId: string): Promise<Grants> {
  return (await db.cached(`grants:${userId}`, grantReads, () => findContentGrants(db, userId))) ?? new Map();
}

/**
 * The role grants give on a space (`spaceId`) or a collection, given the collections above it,
 * nearest first: a grant on a collection reaches everything inside it.
 */
export function grantedRole(grants: Grants, spaceId: string | undefined, chain: ReadonlyArray<{ id: string }>): MemberRole | undefined {
  let role = spaceId ? grants.get(`space:${spaceId}`) : undefined;
  for (const collection of chain) role = higherRole(role, grants.get(`collection:${collection.id}`));
  return role;
}
