import { findCollection } from '../../storage/collections.js';
import { findGrant, grantContentRole } from '../../storage/contentGrants.js';
import type { Database } from '../../storage/db.js';
import { deleteInviteLink, findInviteLink, insertInviteLink, updateInviteLinkRole, type InviteLinkRecord, type InviteTarget } from '../../storage/inviteLinks.js';
import { ensureMembership, type MemberRole } from '../../storage/members.js';
import { findSpace } from '../../storage/spaces.js';
import { findOrganization, type OrganizationRecord } from '../../storage/organizations.js';
import { missing, notAllowed } from '../common/errors.js';
import { recordAudit, type Actor } from '../audit/index.js';

export function createInviteLink(db: Database, input: { organizationId: string; target: InviteTarget; role: MemberRole | null; createdBy: string }): Promise<InviteLinkRecord> {
  return insertInviteLink(db, input);
}

export function changeInviteLinkRole(db: Database, organizationId: string, inviteId: string, role: MemberRole | null): Promise<InviteLinkRecord> {
  return updateInviteLinkRole(db, organizationId, inviteId, role);
}

/** False when there was no such invite. */
export function removeInviteLink(db: Database, organizationId: string, inviteId: string): Promise<boolean> {
  return deleteInviteLink(db, organizationId, inviteId);
}

/**
 * Accepts an invite link. To the organization: the user joins with the link's role, unless
 * already a member. To a space or collection: the user gets the link's level there (a grant,
 * which never lowers a role), joining the organization as a guest if they weren't a member, so
 * that the link opens that space or collection and nothing else.
 */
export async function acceptInviteLink(db: Database, actor: Actor, invite: InviteLinkRecord, userId: string): Promise<void> {
  const { target, organizationId } = invite;
  const joined = (role: MemberRole | null) => ({ action: 'member.joined' as const, target: { type: 'user', id: userId }, payload: { role, through: 'invite link', invite: invite.id } });
  await db.transaction(async (tx) => {
    if (target.kind === 'organization') {
      if (await ensureMembership(tx, { organizationId, userId, role: invite.role })) await recordAudit(tx, actor, organizationId, joined(invite.role));
      return;
    }
    const found = target.kind === 'space' ? await findSpace(tx, target.id) : await findCollection(tx, target.id);
    if (!found || found.organizationId !== organizationId) throw missing(`The ${target.kind} of invite ${invite.id} no longer exists`);
    if (await ensureMembership(tx, { organizationId, userId, role: null })) await recordAudit(tx, actor, organizationId, joined(null));
    const grantee = { kind: 'user' as const, id: userId };
    const before = await findGrant(tx, target, grantee);
    await grantContentRole(tx, { organizationId, target, userId, role: invite.role ?? 'read' });
    // A grant never lowers a role: the event says the role the person holds now, if it changed.
    const after = await findGrant(tx, target, grantee);
    if (after !== before)
      await recordAudit(tx, actor, organizationId, { action: 'permission.granted', target: { type: target.kind, id: target.id }, payload: { user: userId, role: after, invite: invite.id } });
  });
}

/** An invite link someone opened, with its organization: a 404 for an unknown one, a 403 while the organization has links off. */
export async function openInviteLink(db: Database, organizationId: string, inviteId: string): Promise<{ organization: OrganizationRecord; invite: InviteLinkRecord }> {
  const organization = await findOrganization(db, organizationId);
  const invite = organization && (await findInviteLink(db, organization.id, inviteId));
  if (!organization || !invite) throw missing(`Invite ${inviteId} not found`);
  if (!organization.inviteLinks) throw notAllowed('This organization has turned invite links off');
  return { organization, invite };
}
