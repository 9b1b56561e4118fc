import type { Database, Queryable, Transaction } from '../../storage/db.js';
import { recordAudit, type Actor } from '../audit/index.js';
import { findMember } from '../../storage/members.js';
import { deleteTeam, ensureTeamMember, findTeam, getTeam, insertTeam, listTeamMemberIdsOf, putTeamMember, removeTeamMember, renameTeam, type TeamRecord, type TeamRole } from '../../storage/teams.js';
import { invalidInput, missing } from '../common/errors.js';

async function assertMembers(tx: Queryable, organizationId: string, userIds: string[]) {
  const unknown: string[] = [];
  for (const userId of userIds) if (!(await findMember(tx, organizationId, userId))) unknown.push(userId);
  if (unknown.length > 0) throw invalidInput(`Not members of the organization: ${unknown.join(', ')}`);
}

export function createTeam(db: Database, organizationId: string, input: { title: string; members?: string[] }): Promise<TeamRecord> {
  return db.transaction(async (tx) => {
    await assertMembers(tx, organizationId, input.members ?? []);
    const team = await insertTeam(tx, { organizationId, title: input.title });
    for (const userId of input.members ?? []) await ensureTeamMember(tx, team.id, userId);
    return getTeam(tx, organizationId, team.id);
  });
}

export interface TeamMembershipChanges {
  add?: string[];
  remove?: string[];
  memberships?: Record<string, { role: TeamRole }>;
}

/**
 * Applies additions, role changes and removals together, or none of them. `add` never changes the
 * role of someone already in the team; `memberships` sets roles. Who joined or left is audited:
 * a team's members reach what the team is given (docs/permissions.md).
 */
export function updateTeamMembers(db: Database, actor: Actor, organizationId: string, teamId: string, changes: TeamMembershipChanges): Promise<void> {
  return db.transaction(async (tx) => {
    const team = await getTeam(tx, organizationId, teamId);
    const roles = changes.memberships ?? {};
    await assertMembers(tx, organizationId, [...new Set([...(changes.add ?? []), ...Object.keys(roles)])]);
    const removed = new Set(changes.remove ?? []);
    for (const userId of [...(changes.add ?? []), ...Object.keys(roles)]) {
      if (removed.has(userId)) throw invalidInput(`${userId} is both added and removed`);
    }
    const before = new Set(await listTeamMemberIdsOf(tx, teamId));
    for (const userId of changes.add ?? []) await ensureTeamMember(tx, teamId, userId);
    for (const [userId, { role }] of Object.entries(roles)) await putTeamMember(tx, teamId, userId, role);
    for (const userId of removed) await removeTeamMember(tx, teamId, userId);
    await recordMembersChanged(tx, actor, team, before);
  });
}

/** The team's members joined and left since `before`, as one event; nothing when nobody did. */
async function recordMembersChanged(tx: Transaction, actor: Actor, team: TeamRecord, before: Set<string>): Promise<void> {
  const after = new Set(await listTeamMemberIdsOf(tx, team.id));
  const added = [...after].filter((id) => !before.has(id));
  const left = [...before].filter((id) => !after.has(id));
  if (added.length || left.length) {
    await recordAudit(tx, actor, team.organizationId, { action: 'team.members_changed', target: { type: 'team', id: team.id, label: team.title }, payload: { added, removed: left } });
  }
}

/** Adds one member; with a role, also sets their role if they were already in the team. */
export function addTeamMember(db: Database, actor: Actor, organizationId: string, teamId: string, userId: string, role?: TeamRole): Promise<void> {
  return updateTeamMembers(db, actor, organizationId, teamId, role ? { memberships: { [userId]: { role } } } : { add: [userId] });
}

export function renameTeamOf(db: Database, organizationId: string, teamId: string, title: string): Promise<TeamRecord> {
  return renameTeam(db, organizationId, teamId, title);
}

/** False when there was no such team. Its grants go with it, which is audited. */
export function removeTeam(db: Database, actor: Actor, organizationId: string, teamId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const team = await findTeam(tx, organizationId, teamId);
    if (!team || !(await deleteTeam(tx, organizationId, teamId))) return false;
    await recordAudit(tx, actor, organizationId, { action: 'team.deleted', target: { type: 'team', id: team.id, label: team.title }, payload: { members: team.members } });
    return true;
  });
}

/** False when the user wasn't in the team. */
export function removeFromTeam(db: Database, actor: Actor, organizationId: string, teamId: string, userId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const team = await findTeam(tx, organizationId, teamId);
    if (!team) return false;
    const before = new Set(await listTeamMemberIdsOf(tx, teamId));
    const removed = await removeTeamMember(tx, teamId, userId);
    await recordMembersChanged(tx, actor, team, before);
    return removed;
  });
}

/** The ids of a team's members; a 404 for a team the organization doesn't have. */
export async function listTeamMemberIds(db: Queryable, organizationId: string, teamId: string): Promise<string[]> {
  if (!(await findTeam(db, organizationId, teamId))) throw missing(`Team ${teamId} not found in this organization`);
  return listTeamMemberIdsOf(db, teamId);
}
