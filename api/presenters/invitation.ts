import type { InvitationRecord } from '../../storage/members.js';
import type { OrganizationRecord } from '../../storage/organizations.js';
import type { Urls } from '../urls.js';

/** A pending invitation, as its invitee sees it (a Quire shape: upstream has no invitations to accept). */
export function presentInvitation(invitation: InvitationRecord, organization: OrganizationRecord, urls: Urls) {
  return {
    object: 'invitation' as const,
    organization: { id: organization.id, title: organization.title, urls: { location: urls.organization(organization.id) } },
    role: invitation.role,
    sso: invitation.sso,
    createdAt: invitation.createdAt,
  };
}
