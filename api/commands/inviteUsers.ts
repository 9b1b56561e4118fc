import type { Database } from '../../storage/db.js';
import { ensureMembership, type MemberRole } from '../../storage/members.js';
import type { OrganizationRecord } from '../../storage/organizations.js';
import { createUser, findUserByEmail } from '../../storage/users.js';

export type Invitation = string | { email: string; role: MemberRole | null };

/**
 * Adds each email's user to the organization, creating the user when the instance doesn't know
 * them (they get a token from an operator: Quire sends no email). Existing members are left as
 * they are. Returns the ids of the invited users.
 */
export function inviteUsers(
  db: Database,
  organization: OrganizationRecord,
  input: { emails: Invitation[]; role?: MemberRole | null; sso?: boolean },
): Promise<{ users: string[]; invited: number }> {
  return db.transaction(async (tx) => {
    const users: string[] = [];
    let invited = 0;
    for (const entry of input.emails) {
      const email = (typeof entry === 'string' ? entry : entry.email).trim().toLowerCase();
      const role = typeof entry === 'string' ? (input.role === undefined ? organization.defaultRole : input.role) : entry.role;
      const user = (await findUserByEmail(tx, email)) ?? (await createUser(tx, { email }));
      users.push(user.id);
      if (await ensureMembership(tx, { organizationId: organization.id, userId: user.id, role, sso: input.sso })) invited += 1;
    }
    return { users, invited };
  });
}
