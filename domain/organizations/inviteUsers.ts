import type { Database } from '../../storage/db.js';
import { ensureMembership, findMember, putInvitation, type MemberRole } from '../../storage/members.js';
import type { OrganizationRecord } from '../../storage/organizations.js';
import { createUser, findUserByEmail, type UserRecord } from '../../storage/users.js';
import { recordAudit, type Actor } from '../audit/index.js';

export type Invitation = string | { email: string; role: MemberRole | null };

/**
 * Invites each email's user, creating the user when the instance doesn't know them (they get a
 * token from an operator: Quire sends no email). An invitation waits until its user accepts it
 * (`POST /v1/user/invitations/{organizationId}`), except for a user whose verified email domain
 * the organization lists: they could join by themselves, so they join now. Existing members are
 * left as they are and not counted. Returns the ids of the invited users.
 */
export function inviteUsers(
  db: Database,
  actor: Actor,
  organization: OrganizationRecord,
  input: { emails: Invitation[]; role?: MemberRole | null; sso?: boolean; invitedBy: string },
): Promise<{ users: string[]; invited: number }> {
  return db.transaction(async (tx) => {
    const users: string[] = [];
    let invited = 0;
    for (const entry of input.emails) {
      const email = (typeof entry === 'string' ? entry : entry.email).trim().toLowerCase();
      const role = typeof entry === 'string' ? (input.role === undefined ? organization.defaultRole : input.role) : entry.role;
      const user = (await findUserByEmail(tx, email)) ?? (await createUser(tx, { email }));
      users.push(user.id);
      if (await findMember(tx, organization.id, user.id)) continue;
      const membership = { organizationId: organization.id, userId: user.id, role, sso: input.sso };
      const joins = joinsByEmailDomain(user, organization);
      if (joins) await ensureMembership(tx, membership);
      else await putInvitation(tx, { ...membership, invitedBy: input.invitedBy });
      await recordAudit(tx, actor, organization.id, {
        action: joins ? 'member.joined' : 'member.invited',
        target: { type: 'user', id: user.id, label: email },
        payload: { role, ...(joins && { through: 'email domain' }) },
      });
      invited += 1;
    }
    return { users, invited };
  });
}

/** What `POST /orgs/{id}/join` would let the user do themselves. */
export function joinsByEmailDomain(user: UserRecord, organization: OrganizationRecord): boolean {
  return user.emailVerified && organization.emailDomains.includes(user.email.split('@')[1] ?? '');
}
