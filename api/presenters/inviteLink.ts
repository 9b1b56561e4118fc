import type { InviteLinkRecord } from '../../storage/inviteLinks.js';
import type { OrganizationRecord } from '../../storage/organizations.js';
import { atLeast } from '../policies/roles.js';

/** `redundant`: the link grants no more than every member of the organization already has. */
export function presentInviteLink(invite: InviteLinkRecord, organization: OrganizationRecord) {
  const redundant = organization.defaultRole !== null && atLeast(organization.defaultRole, invite.role);
  return { object: 'invite' as const, id: invite.id, role: invite.role, redundant };
}
