import type { Queryable } from './db.js';
import { notFound } from './errors.js';
import { newId, now } from './ids.js';
import { memberColumns, toMember, type MemberRecord, type MemberRow } from './members.js';
import { containsPattern, mapPage, paginate, type Page, type PageRequest } from './pagination.js';
import { searchKey } from './users.js';

export type TeamRole = 'owner' | 'member';

export interface TeamRecord {
  id: string;
  organizationId: string;
  title: string;
  createdAt: string;
  members: number;
  /** Spaces the team is given a role on (inviteToSpace). */
  spaces: number;
}

interface TeamRow {
  id: string;
  organization_id: string;
  title: string;
  created_at: string;
  members: number;
  spaces: number;
}

const columns = `teams.id, teams.organization_id, teams.title, teams.created_at,
  (SELECT COUNT(*) FROM team_members WHERE team_members.team_id = teams.id) AS members,
  (SELECT COUNT(*) FROM team_content_grants JOIN spaces ON spaces.id = team_content_grants.target_id
    WHERE team_content_grants.team_id = teams.id AND team_content_grants.target_kind = 'space' AND spaces.deleted_at IS NULL) AS spaces`;

function toTeam(row: TeamRow): TeamRecord {
  return { id: row.id, organizationId: row.organization_id, title: row.title, createdAt: row.created_at, members: Number(row.members), spaces: Number(row.spaces) };
}

const titleFilter = (title: string): [string, string] => ["teams.title_key LIKE ? ESCAPE '\\'", containsPattern(searchKey(title))];

export async function insertTeam(db: Queryable, input: { organizationId: string; title: string }): Promise<TeamRecord> {
  const id = newId();
  await db.run('INSERT INTO teams (id, organization_id, title, title_key, created_at) VALUES (?, ?, ?, ?, ?)', [id, input.organizationId, input.title, searchKey(input.title), now()]);
  return getTeam(db, input.organizationId, id);
}

export async function findTeam(db: Queryable, organizationId: string, teamId: string): Promise<TeamRecord | undefined> {
  const row = await db.get<TeamRow>(`SELECT ${columns} FROM teams WHERE organization_id = ? AND id = ?`, [organizationId, teamId]);
  return row && toTeam(row);
}

export async function getTeam(db: Queryable, organizationId: string, teamId: string): Promise<TeamRecord> {
  const team = await findTeam(db, organizationId, teamId);
  if (!team) throw notFound(`Team ${teamId}`);
  return team;
}

export async function listTeams(db: Queryable, organizationId: string, filter: { title?: string; ownedBy?: string }, request: PageRequest): Promise<Page<TeamRecord>> {
  const where = ['teams.organization_id = ?'];
  const params: unknown[] = [organizationId];
  if (filter.title) {
    const [clause, pattern] = titleFilter(filter.title);
    where.push(clause);
    params.push(pattern);
  }
  if (filter.ownedBy) {
    where.push("teams.id IN (SELECT team_id FROM team_members WHERE user_id = ? AND role = 'owner')");
    params.push(filter.ownedBy);
  }
  const page = await paginate<TeamRow>(
    db,
    { select: columns, from: 'teams', where: where.join(' AND '), params, sort: ['teams.created_at', 'teams.id'], key: (row) => [row.created_at, row.id] },
    request,
  );
  return mapPage(page, toTeam);
}

export async function renameTeam(db: Queryable, organizationId: string, teamId: string, title: string): Promise<TeamRecord> {
  await db.run('UPDATE teams SET title = ?, title_key = ? WHERE organization_id = ? AND id = ?', [title, searchKey(title), organizationId, teamId]);
  return getTeam(db, organizationId, teamId);
}

export async function deleteTeam(db: Queryable, organizationId: string, teamId: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM teams WHERE organization_id = ? AND id = ?', [organizationId, teamId]);
  return changes > 0;
}

/** The user's role in a team of the organization, or undefined when they are not in it. */
export async function findTeamRole(db: Queryable, organizationId: string, teamId: string, userId: string): Promise<TeamRole | undefined> {
  const row = await db.get<{ role: TeamRole }>(
    `SELECT team_members.role FROM team_members JOIN teams ON teams.id = team_members.team_id
     WHERE teams.organization_id = ? AND team_members.team_id = ? AND team_members.user_id = ?`,
    [organizationId, teamId, userId],
  );
  return row?.role;
}

/** Adds the user to the team with this role, or changes their role there. */
export async function putTeamMember(db: Queryable, teamId: string, userId: string, role: TeamRole): Promise<void> {
  await db.run(
    `INSERT INTO team_members (team_id, user_id, role, added_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (team_id, user_id) DO UPDATE SET role = excluded.role`,
    [teamId, userId, role, now()],
  );
}

/** Adds the user to the team as a member; someone already in it keeps their role. */
export async function ensureTeamMember(db: Queryable, teamId: string, userId: string): Promise<void> {
  await db.run(
    `INSERT INTO team_members (team_id, user_id, role, added_at) VALUES (?, ?, 'member', ?)
     ON CONFLICT (team_id, user_id) DO NOTHING`,
    [teamId, userId, now()],
  );
}

export async function removeTeamMember(db: Queryable, teamId: string, userId: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM team_members WHERE team_id = ? AND user_id = ?', [teamId, userId]);
  return changes > 0;
}

export interface TeamMembership {
  role: TeamRole;
  member: MemberRecord;
}

export async function listTeamMembers(db: Queryable, organizationId: string, teamId: string, request: PageRequest): Promise<Page<TeamMembership>> {
  const page = await paginate<MemberRow & { team_role: TeamRole; added_at: string }>(
    db,
    {
      select: `${memberColumns}, team_members.role AS team_role, team_members.added_at`,
      from: `team_members
        JOIN memberships ON memberships.user_id = team_members.user_id
        JOIN users ON users.id = team_members.user_id`,
      where: 'team_members.team_id = ? AND memberships.organization_id = ?',
      params: [teamId, organizationId],
      sort: ['team_members.added_at', 'team_members.user_id'],
      key: (row) => [row.added_at, row.id],
    },
    request,
  );
  return mapPage(page, (row) => ({ role: row.team_role, member: toMember(row) }));
}

export async function listTeamsOfMember(db: Queryable, organizationId: string, userId: string, filter: { title?: string }, request: PageRequest): Promise<Page<{ team: TeamRecord; role: TeamRole }>> {
  const where = ['teams.organization_id = ?', 'team_members.user_id = ?'];
  const params: unknown[] = [organizationId, userId];
  if (filter.title) {
    const [clause, pattern] = titleFilter(filter.title);
    where.push(clause);
    params.push(pattern);
  }
  const page = await paginate<TeamRow & { role: TeamRole }>(
    db,
    {
      select: `${columns}, team_members.role`,
      from: 'team_members JOIN teams ON teams.id = team_members.team_id',
      where: where.join(' AND '),
      params,
      sort: ['teams.created_at', 'teams.id'],
      key: (row) => [row.created_at, row.id],
    },
    request,
  );
  return mapPage(page, (row) => ({ team: toTeam(row), role: row.role }));
}

/** The user's role in each of the given teams they belong to. */
export async function teamRolesOf(db: Queryable, userId: string, teamIds: string[]): Promise<Map<string, TeamRole>> {
  if (teamIds.length === 0) return new Map();
  const rows = await db.all<{ team_id: string; role: TeamRole }>(`SELECT team_id, role FROM team_members WHERE user_id = ? AND team_id IN (${teamIds.map(() => '?').join(', ')})`, [
    userId,
    ...teamIds,
  ]);
  return new Map(rows.map((row) => [row.team_id, row.role]));
}

/** The ids of a team's members. */
export async function listTeamMemberIdsOf(db: Queryable, teamId: string): Promise<string[]> {
  const rows = await db.all<{ user_id: string }>('SELECT user_id FROM team_members WHERE team_id = ?', [teamId]);
  return rows.map((row) => row.user_id);
}
