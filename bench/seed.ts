import { databaseLocation, openDatabase } from '../storage/db.js';
import { addMembership } from '../storage/members.js';
import { insertOrganization } from '../storage/organizations.js';
import { createToken } from '../storage/tokens.js';
import { createUser } from '../storage/users.js';

/** An organization with `memberCount` members (the first an admin) and the admin's token. */
export async function seedOrganization(dataDir: string, memberCount: number, databaseUrl?: string) {
  const db = await openDatabase(databaseLocation(dataDir, databaseUrl));
  const result = await db.transaction(async (tx) => {
    const admin = await createUser(tx, { email: 'bench-admin@example.com', emailVerified: true });
    const organization = await insertOrganization(tx, { title: 'Benchmark Org', createdBy: admin.id });
    await addMembership(tx, { organizationId: organization.id, userId: admin.id, role: 'admin' });
    for (let i = 1; i < memberCount; i += 1) {
      const user = await createUser(tx, { email: `member${i}@example.com` });
      await addMembership(tx, { organizationId: organization.id, userId: user.id, role: i % 7 === 0 ? 'edit' : 'read' });
    }
    return { organizationId: organization.id, token: (await createToken(tx, admin.id)).token };
  });
  await db.close();
  return result;
}
