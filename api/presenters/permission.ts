import type { Reach } from '../../domain/permissions/index.js';
import type { MemberRecord, MemberRole } from '../../storage/members.js';
import type { TeamRecord, TeamRole } from '../../storage/teams.js';
import type { RoleOrGuest } from '../policies/roles.js';
import type { Urls } from '../urls.js';
import { presentTeam } from './team.js';
import { presentUser } from './user.js';

/** `UserContentPermission` (and `UserSitePermissionOverride`): a person and their role. */
export function presentUserPermission(member: MemberRecord, role: MemberRole, urls: Urls) {
  return { permission: role, user: presentUser(member.user, urls) };
}

/** A team and its role (`TeamSitePermissionOverride` on a site); `viewer`: the caller, for the team's `permissions`. */
export function presentTeamPermission(team: TeamRecord, role: MemberRole, viewer: { role: RoleOrGuest; teamRole?: TeamRole }) {
  return { permission: role, team: presentTeam(team, viewer) };
}

/** `UserSitePermission`: a member's role on a site and where it comes from. */
export function presentSitePermission(reach: Reach, site: { id: string; organizationId: string }, urls: Urls) {
  const origin =
    reach.origin.kind === 'grant'
      ? { type: 'site' as const, site: site.id, reason: reach.origin.team ? ('team' as const) : ('member' as const), ...(reach.origin.team && { team: reach.origin.team }) }
      : { type: 'organization' as const, organization: site.organizationId };
  return {
    permission: reach.role,
    user: presentUser(reach.member.user, urls),
    origin,
    disabled: reach.member.disabled,
    ...(reach.member.lastSeenAt && { lastSeenAt: reach.member.lastSeenAt }),
  };
}
