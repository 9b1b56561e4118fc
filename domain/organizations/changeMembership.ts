import type { Database, Queryable } from '../../storage/db.js';
import {
  addMembership,
  countAdmins,
  ensureMembership,
  findMember,
  removeMembership,
  setMemberSso,
  takeInvitation,
  touchMemberLastSeen,
  updateMemberRole,
  type MemberRecord,
  type MemberRole,
  type NewMembership,
} from '../../storage/members.js';
import { invalidInput, missing } from '../common/errors.js';
import { recordAudit, type Actor } from '../audit/index.js';

const memberTarget = (userId: string) => ({ type: 'user', id: userId });

/** An organization always keeps one admin: the last one can be neither demoted nor removed. */
async function assertNotLastAdmin(tx: Queryable, organizationId: string, member: MemberRecord, action: string) {
  if (member.role === 'admin' && !member.disabled && (await countAdmins(tx, organizationId)) <= 1) {
    throw invalidInput(`Cannot ${action} the last admin of the organization; make another member admin first`);
  }
}

export function changeMemberRole(db: Database, actor: Actor, organizationId: string, userId: string, role: MemberRole | null): Promise<MemberRecord> {
  return db.transaction(async (tx) => {
    const member = await findMember(tx, organizationId, userId);
    if (!member) throw missing(`Member ${userId} not found in organization ${organizationId}`);
    if (role !== 'admin') await assertNotLastAdmin(tx, organizationId, member, 'demote');
    const updated = await updateMemberRole(tx, organizationId, userId, role);
    if (member.role !== role) await recordAudit(tx, actor, organizationId, { action: 'member.role_changed', target: memberTarget(userId), payload: { from: member.role, to: role } });
    return updated;
  });
}

/** Removes the member and their team places; false when they were not a member. */
export function removeMember(db: Database, actor: Actor, organizationId: string, userId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const member = await findMember(tx, organizationId, userId);
    if (!member) return false;
    await assertNotLastAdmin(tx, organizationId, member, 'remove');
    const removed = await removeMembership(tx, organizationId, userId);
    if (removed) await recordAudit(tx, actor, organizationId, { action: 'member.removed', target: memberTarget(userId), payload: { role: member.role } });
    return removed;
  });
}

/** The invitee joins with the invitation's role; a 404 when no invitation waits (or they are a member already). */
export function acceptInvitation(db: Database, actor: Actor, organizationId: string, userId: string): Promise<MemberRecord> {
  return db.transaction(async (tx) => {
    const invitation = await takeInvitation(tx, organizationId, userId);
    if (!invitation) throw missing(`No invitation to organization ${organizationId} is waiting for you`);
    const existing = await findMember(tx, organizationId, userId);
    if (existing) return existing;
    const member = await addMembership(tx, { organizationId, userId, role: invitation.role, sso: invitation.sso });
    await recordAudit(tx, actor, organizationId, { action: 'member.joined', target: memberTarget(userId), payload: { role: invitation.role, through: 'invitation' } });
    return member;
  });
}

/** Declines (deletes) the invitation; false when there was none. */
export function declineInvitation(db: Database, organizationId: string, userId: string): Promise<boolean> {
  return db.transaction(async (tx) => (await takeInvitation(tx, organizationId, userId)) !== undefined);
}

/** The user joins the organization with `role`, unless already a member (their role then stays). */
export function joinOrganization(db: Database, actor: Actor, input: NewMembership): Promise<boolean> {
  return db.transaction(async (tx) => {
    const joined = await ensureMembership(tx, input);
    if (joined) await recordAudit(tx, actor, input.organizationId, { action: 'member.joined', target: memberTarget(input.userId), payload: { role: input.role, through: 'email domain' } });
    return joined;
  });
}

/** A member now signs in through SSO; a user who isn't a member is not found. */
export function markMemberSso(db: Database, actor: Actor, organizationId: string, userId: string): Promise<MemberRecord> {
  return db.transaction(async (tx) => {
    const member = await findMember(tx, organizationId, userId);
    if (!member) throw missing(`Member ${userId} not found in organization ${organizationId}`);
    const updated = await setMemberSso(tx, organizationId, userId, true);
    if (!member.sso) await recordAudit(tx, actor, organizationId, { action: 'member.sso_required', target: memberTarget(userId) });
    return updated;
  });
}

/** The member was active just now (their `lastSeenAt`). */
export function recordMemberSeen(db: Database, organizationId: string, userId: string): Promise<void> {
  return touchMemberLastSeen(db, organizationId, userId);
}
