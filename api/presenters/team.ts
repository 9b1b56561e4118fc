import type { TeamRecord, TeamRole } from '../../storage/teams.js';
import { teamPermissions, type RoleOrGuest } from '../policies/roles.js';

export function presentTeam(team: TeamRecord, viewer: { role: RoleOrGuest; teamRole?: TeamRole }) {
  return {
    object: 'team' as const,
    id: team.id,
    title: team.title,
    members: team.members,
    spaces: team.spaces,
    createdAt: team.createdAt,
    permissions: teamPermissions(viewer.role, viewer.teamRole === 'owner'),
  };
}
