import type { Database } from '../../storage/db.js';
import { addMembership } from '../../storage/members.js';
import { insertOrganization, updateOrganization, type OrganizationRecord } from '../../storage/organizations.js';

/** A new organization with its creator as its first admin (and the email domains whose people may join it, lower case). */
export function createOrganization(db: Database, input: { title: string; ownerId: string; emailDomains?: string[] }): Promise<OrganizationRecord> {
  return db.transaction(async (tx) => {
    const organization = await insertOrganization(tx, { title: input.title, createdBy: input.ownerId });
    await addMembership(tx, { organizationId: organization.id, userId: input.ownerId, role: 'admin' });
    if (!input.emailDomains?.length) return organization;
    return updateOrganization(tx, organization.id, { emailDomains: input.emailDomains });
  });
}
