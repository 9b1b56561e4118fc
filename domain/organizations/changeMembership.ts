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

/** An organization always keeps one admin: the last one can be neither demoted nor removed. */
async function assertNotLastAdmin(tx: Queryable, organizationId: string, member: MemberRecord, action: string) {
  if (member.role === 'admin' && !member.disabled && (await countAdmins(tx, organizationId)) <= 1) {
    throw invalidInput(`Cannot ${action} the last admin of the organization; make another member admin first`);
  }
}

export function changeMemberRole(db: Database, organizationId: string, userId: string, role: MemberRole | null): Promise<MemberRecord> {
  return db.transaction(async (tx) => {
    const member = await findMember(tx, organizationId, userId);
    if (!member) throw missing(`Member ${userId} not found in organization ${organizationId}`);
    if (role !== 'admin') await assertNotLastAdmin(tx, organizationId, member, 'demote');
    return updateMemberRole(tx, organizationId, userId, role);
  });
}

/** Removes the member and their team places; false when they were not a member. */
export function removeMember(db: Database, organizationId: string, userId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const member = await findMember(tx, organizationId, userId);
    if (!member) return false;
    await assertNotLastAdmin(tx, organizationId, member, 'remove');
    return removeMembership(tx, organizationId, userId);
  });
}

/** The invitee joins with the invitation's role; a 404 when no invitation waits (or they are a member already). */
export function acceptInvitation(db: Database, organizationId: string, userId: string): Promise<MemberRecord> {
  return db.transaction(async (tx) => {
    const invitation = await takeInvitation(tx, organizationId, userId);
    if (!invitation) throw missing(`No invitation to organization ${organizationId} is waiting for you`);
    return (await findMember(tx, organizationId, userId)) ?? addMembership(tx, { organizationId, userId, role: invitation.role, sso: invitation.sso });
  });
}

/** Declines (deletes) the invitation; false when there was none. */
export function declineInvitation(db: Database, organizationId: string, userId: string): Promise<boolean> {
  return db.transaction(async (tx) => (await takeInvitation(tx, organizationId, userId)) !== undefined);
}

/** The user joins the organization with `role`, unless already a member (their role then stays). */
export function joinOrganization(db: Database, input: NewMembership): Promise<boolean> {
  return ensureMembership(db, input);
}

/** A member now signs in through SSO; a user who isn't a member is not found. */
export function markMemberSso(db: Database, organizationId: string, userId: string): Promise<MemberRecord> {
  return db.transaction(async (tx) => {
    if (!(await findMember(tx, organizationId, userId))) throw missing(`Member ${userId} not found in organization ${organizationId}`);
    return setMemberSso(tx, organizationId, userId, true);
  });
}

/** The member was active just now (their `lastSeenAt`). */
export function recordMemberSeen(db: Database, organizationId: string, userId: string): Promise<void> {
  return touchMemberLastSeen(db, organizationId, userId);
}
