import type { Queryable } from './db.js';
import { notFound } from './errors.js';
import { newId, now } from './ids.js';
import { findMember, type MemberRecord } from './members.js';
import { mapPage, paginate, type Page, type PageRequest } from './pagination.js';

export type TeamRole = 'owner' | 'member';

export interface TeamRecord {
  id: string;
  organizationId: string;
  title: string;
  createdAt: string;
  members: number;
  /** Spaces shared with the team; there are none until spaces exist (content-engine issue). */
  spaces: number;
}

interface TeamRow {
  id: string;
  organization_id: string;
  title: string;
  created_at: string;
  members: number;
}

const columns = `teams.id, teams.organization_id, teams.title, teams.created_at,
  (SELECT COUNT(*) FROM team_members WHERE team_members.team_id = teams.id) AS members`;

function toTeam(row: TeamRow): TeamRecord {
  return { id: row.id, organizationId: row.organization_id, title: row.title, createdAt: row.created_at, members: row.members, spaces: 0 };
}

const titleFilter = (title: string): [string, string] => [
  "teams.title LIKE ? ESCAPE '\\'",
  `%${title.replace(/[\\%_]/g, (c) => '\\' + c)}%`,
];

export async function insertTeam(db: Queryable, input: { organizationId: string; title: string }): Promise<TeamRecord> {
  const id = newId();
  await db.run('INSERT INTO teams (id, organization_id, title, created_at) VALUES (?, ?, ?, ?)', [id, input.organizationId, input.title, now()]);
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

export async function listTeams(
  db: Queryable,
  organizationId: string,
  filter: { title?: string; ownedBy?: string },
  request: PageRequest,
): Promise<Page<TeamRecord>> {
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
  await db.run('UPDATE teams SET title = ? WHERE organization_id = ? AND id = ?', [title, organizationId, teamId]);
  return getTeam(db, organizationId, teamId);
}

export async function deleteTeam(db: Queryable, organizationId: string, teamId: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM teams WHERE organization_id = ? AND id = ?', [organizationId, teamId]);
  return changes > 0;
}

export async function findTeamRole(db: Queryable, teamId: string, userId: string): Promise<TeamRole | undefined> {
  const row = await db.get<{ role: TeamRole }>('SELECT role FROM team_members WHERE team_id = ? AND user_id = ?', [teamId, userId]);
  return row?.role;
}

/** Adds the user to the team, or changes their role there. */
export async function putTeamMember(db: Queryable, teamId: string, userId: string, role: TeamRole): Promise<void> {
  await db.run(
    `INSERT INTO team_members (team_id, user_id, role, added_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (team_id, user_id) DO UPDATE SET role = excluded.role`,
    [teamId, userId, role, now()],
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
  const page = await paginate<{ user_id: string; role: TeamRole; added_at: string }>(
    db,
    {
      select: 'user_id, role, added_at',
      from: 'team_members',
      where: 'team_id = ?',
      params: [teamId],
      sort: ['added_at', 'user_id'],
      key: (row) => [row.added_at, row.user_id],
    },
    request,
  );
  const items = await Promise.all(
    page.items.map(async (row) => {
      const member = await findMember(db, organizationId, row.user_id);
      if (!member) throw notFound(`Member ${row.user_id}`);
      return { role: row.role, member };
    }),
  );
  return { ...page, items };
}

export async function listTeamsOfMember(
  db: Queryable,
  organizationId: string,
  userId: string,
  filter: { title?: string },
  request: PageRequest,
): Promise<Page<{ team: TeamRecord; role: TeamRole }>> {
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
  const rows = await db.all<{ team_id: string; role: TeamRole }>(
    `SELECT team_id, role FROM team_members WHERE user_id = ? AND team_id IN (${teamIds.map(() => '?').join(', ')})`,
    [userId, ...teamIds],
  );
  return new Map(rows.map((row) => [row.team_id, row.role]));
}
