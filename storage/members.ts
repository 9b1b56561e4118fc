import type { Database, Queryable, Transaction } from './db.js';
import { notFound } from './errors.js';
import { now } from './ids.js';
import { containsPattern, paginate, mapPage, type Page, type PageRequest } from './pagination.js';
import { searchKey, toUser, userColumns, type UserRecord } from './users.js';

export const memberRoles = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type MemberRole = (typeof memberRoles)[number];

export interface MemberRecord {
  organizationId: string;
  user: UserRecord;
  /** null: a guest, who sees only what is shared with them. */
  role: MemberRole | null;
  disabled: boolean;
  sso: boolean;
  joinedAt: string;
  lastSeenAt: string | null;
  teams: number;
}

export type MemberRow = Parameters<typeof toUser>[0] & {
  organization_id: string;
  role: MemberRole | null;
  disabled: number;
  sso: number;
  joined_at: string;
  last_seen_at: string | null;
  teams: number;
};

// Teams counted per member: their teams are few, each checked by its key. A join let PostgreSQL read all the
// organization's teams for every member listed (16 ms a page of 50 among 2,000 teams).
export const memberColumns = `memberships.organization_id, memberships.role, memberships.disabled, memberships.sso,
  memberships.joined_at, memberships.last_seen_at, ${userColumns},
  (SELECT COUNT(*) FROM team_members WHERE team_members.user_id = memberships.user_id
    AND (SELECT teams.organization_id FROM teams WHERE teams.id = team_members.team_id) = memberships.organization_id) AS teams`;
const columns = memberColumns;
const from = 'memberships JOIN users ON users.id = memberships.user_id';

export function toMember(row: MemberRow): MemberRecord {
  return {
    organizationId: row.organization_id,
    user: toUser(row),
    role: row.role,
    disabled: row.disabled === 1,
    sso: row.sso === 1,
    joinedAt: row.joined_at,
    lastSeenAt: row.last_seen_at,
    teams: row.teams,
  };
}

export interface NewMembership {
  organizationId: string;
  userId: string;
  role: MemberRole | null;
  sso?: boolean;
}

export async function addMembership(db: Queryable, input: NewMembership): Promise<MemberRecord> {
  await ensureMembership(db, input);
  return getMember(db, input.organizationId, input.userId);
}

/**
 * Makes the user a member unless they already are (then nothing changes): one statement, so
 * concurrent joins of the same user can't collide. True when the user joined now.
 */
export async function ensureMembership(db: Queryable, input: NewMembership): Promise<boolean> {
  const { changes } = await db.run(
    `INSERT INTO memberships (organization_id, user_id, role, sso, joined_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (organization_id, user_id) DO NOTHING`,
    [input.organizationId, input.userId, input.role, input.sso ? 1 : 0, now()],
  );
  return changes > 0;
}

export async function findMember(db: Queryable, organizationId: string, userId: string): Promise<MemberRecord | undefined> {
  const row = await db.get<MemberRow>(`SELECT ${columns} FROM ${from} WHERE memberships.organization_id = ? AND memberships.user_id = ?`, [organizationId, userId]);
  return row && toMember(row);
}

export async function getMember(db: Queryable, organizationId: string, userId: string): Promise<MemberRecord> {
  const member = await findMember(db, organizationId, userId);
  if (!member) throw notFound(`Member ${userId}`);
  return member;
}

/** The tables findMembershipRole reads. */
export const membershipReads = ['memberships'] as const;

/**
 * The caller's role in one organization, or undefined when they are not a member, through the
 * database's read cache: the access check of every request reads it.
 */
export function findMembershipRole(db: Database, organizationId: string, userId: string): Promise<{ role: MemberRole | null; disabled: boolean } | undefined> {
  return db.cached(`membership:${organizationId}:${userId}`, membershipReads, async () => {
    const row = await db.get<{ role: MemberRole | null; disabled: number }>('SELECT role, disabled FROM memberships WHERE organization_id = ? AND user_id = ?', [organizationId, userId]);
    return row && { role: row.role, disabled: row.disabled === 1 };
  });
}

export interface MemberFilter {
  role?: MemberRole | 'guest';
  search?: string;
  sort?: 'joinedAt' | 'lastSeenAt';
}

export async function listMembers(db: Queryable, organizationId: string, filter: MemberFilter, request: PageRequest): Promise<Page<MemberRecord>> {
  const where = ['memberships.organization_id = ?'];
  const params: unknown[] = [organizationId];
  if (filter.role === 'guest') where.push('memberships.role IS NULL');
  else if (filter.role) {
    where.push('memberships.role = ?');
    params.push(filter.role);
  }
  if (filter.search) {
    where.push("users.search_key LIKE ? ESCAPE '\\'");
    params.push(containsPattern(searchKey(filter.search)));
  }
  const byLastSeen = filter.sort === 'lastSeenAt';
  if (byLastSeen) where.push('memberships.last_seen_at IS NOT NULL');
  const page = await paginate<MemberRow>(
    db,
    {
      select: columns,
      from,
      countFrom: filter.search ? from : 'memberships',
      where: where.join(' AND '),
      params,
      sort: [byLastSeen ? 'memberships.last_seen_at' : 'memberships.joined_at', 'memberships.user_id'],
      key: (row) => [byLastSeen ? (row.last_seen_at ?? '') : row.joined_at, row.id],
    },
    request,
  );
  return mapPage(page, toMember);
}

/** The organizations a user is a member of (enabled or not): where an event about the user themself is recorded. */
export async function listOrganizationIdsOfUser(db: Queryable, userId: string): Promise<string[]> {
  const rows = await db.all<{ organization_id: string }>('SELECT organization_id FROM memberships WHERE user_id = ? ORDER BY organization_id', [userId]);
  return rows.map((row) => row.organization_id);
}

/** Every enabled member of the organization, by the time they joined: who a list of access is drawn from. */
export async function listEnabledMembers(db: Queryable, organizationId: string): Promise<MemberRecord[]> {
  const rows = await db.all<MemberRow>(`SELECT ${columns} FROM ${from} WHERE memberships.organization_id = ? AND memberships.disabled = 0 ORDER BY memberships.joined_at, memberships.user_id`, [
    organizationId,
  ]);
  return rows.map(toMember);
}

export async function updateMemberRole(db: Queryable, organizationId: string, userId: string, role: MemberRole | null): Promise<MemberRecord> {
  await db.run('UPDATE memberships SET role = ? WHERE organization_id = ? AND user_id = ?', [role, organizationId, userId]);
  return getMember(db, organizationId, userId);
}

export async function setMemberSso(db: Queryable, organizationId: string, userId: string, sso: boolean): Promise<MemberRecord> {
  await db.run('UPDATE memberships SET sso = ? WHERE organization_id = ? AND user_id = ?', [sso ? 1 : 0, organizationId, userId]);
  return getMember(db, organizationId, userId);
}

export async function touchMemberLastSeen(db: Queryable, organizationId: string, userId: string): Promise<void> {
  await db.run('UPDATE memberships SET last_seen_at = ? WHERE organization_id = ? AND user_id = ?', [now(), organizationId, userId]);
}

/** Removes the membership, the member's places in the organization's teams and their grants there; true if there was one. */
export async function removeMembership(db: Transaction, organizationId: string, userId: string): Promise<boolean> {
  await db.run('DELETE FROM team_members WHERE user_id = ? AND team_id IN (SELECT id FROM teams WHERE organization_id = ?)', [userId, organizationId]);
  await db.run('DELETE FROM content_grants WHERE organization_id = ? AND user_id = ?', [organizationId, userId]);
  const { changes } = await db.run('DELETE FROM memberships WHERE organization_id = ? AND user_id = ?', [organizationId, userId]);
  return changes > 0;
}

export async function countAdmins(db: Queryable, organizationId: string): Promise<number> {
  const row = await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM memberships WHERE organization_id = ? AND role = 'admin' AND disabled = 0", [organizationId]);
  return row?.n ?? 0;
}

export interface InvitationRecord {
  organizationId: string;
  userId: string;
  role: MemberRole | null;
  sso: boolean;
  invitedBy: string;
  createdAt: string;
}

interface InvitationRow {
  organization_id: string;
  user_id: string;
  role: MemberRole | null;
  sso: number;
  invited_by: string;
  created_at: string;
}

const toInvitation = (row: InvitationRow): InvitationRecord => ({
  organizationId: row.organization_id,
  userId: row.user_id,
  role: row.role,
  sso: row.sso === 1,
  invitedBy: row.invited_by,
  createdAt: row.created_at,
});

/** Invites the user (a later invitation replaces an earlier one's role); true when none was pending. */
export async function putInvitation(db: Transaction, input: NewMembership & { invitedBy: string }): Promise<boolean> {
  const existing = await db.get('SELECT 1 FROM invitations WHERE organization_id = ? AND user_id = ?', [input.organizationId, input.userId]);
  await db.run(
    `INSERT INTO invitations (organization_id, user_id, role, sso, invited_by, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (organization_id, user_id) DO UPDATE SET role = excluded.role, sso = excluded.sso, invited_by = excluded.invited_by`,
    [input.organizationId, input.userId, input.role, input.sso ? 1 : 0, input.invitedBy, now()],
  );
  return !existing;
}

export async function listInvitationsOfUser(db: Queryable, userId: string): Promise<InvitationRecord[]> {
  const rows = await db.all<InvitationRow>('SELECT * FROM invitations WHERE user_id = ? ORDER BY created_at, organization_id', [userId]);
  return rows.map(toInvitation);
}

/** Deletes the invitation and returns it; undefined when there was none. */
export async function takeInvitation(db: Transaction, organizationId: string, userId: string): Promise<InvitationRecord | undefined> {
  const row = await db.get<InvitationRow>('SELECT * FROM invitations WHERE organization_id = ? AND user_id = ?', [organizationId, userId]);
  if (row) await db.run('DELETE FROM invitations WHERE organization_id = ? AND user_id = ?', [organizationId, userId]);
  return row && toInvitation(row);
}

/** Whether two users are members of one same organization: who may see whose email (rule of issue 10). */
export async function shareAnOrganization(db: Queryable, userId: string, otherUserId: string): Promise<boolean> {
  const row = await db.get(
    `SELECT 1 FROM memberships mine JOIN memberships theirs ON theirs.organization_id = mine.organization_id
     WHERE mine.user_id = ? AND theirs.user_id = ? LIMIT 1`,
    [userId, otherUserId],
  );
  return row !== undefined;
}

/** Whether the user belongs to, or was given content in, any organization but this one. */
export async function belongsElsewhere(db: Queryable, userId: string, organizationId: string): Promise<boolean> {
  const row = await db.get<{ found: number }>(
    `SELECT 1 AS found FROM memberships WHERE user_id = ? AND organization_id <> ?
     UNION ALL SELECT 1 AS found FROM content_grants WHERE user_id = ? AND organization_id <> ? LIMIT 1`,
    [userId, organizationId, userId, organizationId],
  );
  return row !== undefined;
}

/** The invitations of an organization waiting for their invitees, oldest first. */
export async function listInvitationsOfOrganization(db: Queryable, organizationId: string): Promise<InvitationRecord[]> {
  const rows = await db.all<InvitationRow>('SELECT * FROM invitations WHERE organization_id = ? ORDER BY created_at, user_id LIMIT 500', [organizationId]);
  return rows.map(toInvitation);
}
