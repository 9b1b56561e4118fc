import type { Database } from '../../storage/db.js';
import { addMembership } from '../../storage/members.js';
import { insertOrganization } from '../../storage/organizations.js';
import { createToken } from '../../storage/tokens.js';
import { countUsers, createUser } from '../../storage/users.js';

/**
 * On an empty instance, creates the first user (admin of a first organization) whose token is
 * the one given; does nothing once any user exists.
 */
export function bootstrapInstance(db: Database, input: { token: string; email: string; organizationTitle: string }): Promise<boolean> {
  return db.transaction(async (tx) => {
    if ((await countUsers(tx)) > 0) return false;
    const user = await createUser(tx, { email: input.email, displayName: 'Administrator', emailVerified: true });
    const organization = await insertOrganization(tx, { title: input.organizationTitle, createdBy: user.id });
    await addMembership(tx, { organizationId: organization.id, userId: user.id, role: 'admin' });
    await createToken(tx, user.id, { label: 'bootstrap', token: input.token });
    return true;
  });
}
