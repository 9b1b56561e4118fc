import type { Database, Queryable, Transaction } from './db.js';
import { now } from './ids.js';
import { memberRoles, type MemberRole } from './members.js';

/** A space or a collection: what an invite link (and so a grant) can point at. */
export interface GrantTarget {
  kind: 'space' | 'collection';
  id: string;
}

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
    if (ids.length > 0) await db.run('DELETE FROM content_grants WHERE target_kind = ? AND target_id IN (SELECT value FROM json_each(?))', [kind, JSON.stringify(ids)]);
  }
}

/** A user's grants, `space:<id>` or `collection:<id>` → role. */
export type Grants = ReadonlyMap<string, MemberRole>;

export async function findContentGrants(db: Queryable, userId: string): Promise<Grants> {
  const rows = await db.all<{ target_kind: string; target_id: string; role: MemberRole }>('SELECT target_kind, target_id, role FROM content_grants WHERE user_id = ?', [userId]);
  return new Map(rows.map((row) => [`${row.target_kind}:${row.target_id}`, row.role]));
}

/** The tables findContentGrants reads. */
export const grantReads = ['content_grants'] as const;

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
