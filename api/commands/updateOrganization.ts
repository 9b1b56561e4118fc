import type { Database } from '../../storage/db.js';
import { findMember } from '../../storage/members.js';
import { findOrganizationByHostname, updateOrganization as storeChanges, type OrganizationRecord } from '../../storage/organizations.js';
import { badRequest, conflict } from '../errors.js';
import type { UpdateOrganizationBody } from '../schemas/organizations.js';

/** Checks what the schema can't (references, uniqueness) and applies the patch in one transaction. */
export function updateOrganization(db: Database, organization: OrganizationRecord, patch: UpdateOrganizationBody): Promise<OrganizationRecord> {
  return db.transaction(async (tx) => {
    if (patch.defaultContent) {
      // Docs sites arrive with the sites issue; until then no site id can be valid.
      throw badRequest(`Invalid default content: site ${patch.defaultContent.site} does not exist in this organization`);
    }
    if (patch.hostname) {
      const holder = await findOrganizationByHostname(tx, patch.hostname);
      if (holder && holder.id !== organization.id) throw conflict(`Hostname "${patch.hostname}" is already used by another organization`);
    }
    if (patch.mergeRules?.type === 'none' && 'rules' in patch.mergeRules) {
      throw badRequest('Invalid mergeRules: "rules" goes only with type "rules"');
    }
    if (patch.mergeRules?.type === 'rules') {
      if (!patch.mergeRules.rules) throw badRequest('Invalid mergeRules: type "rules" needs a "rules" list');
      const rules = patch.mergeRules.rules;
      for (const rule of rules) {
        const users = rule.users as string[] | undefined;
        const needsUsers = ['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass'].includes(rule.rule as string);
        if (needsUsers && (!users || users.length === 0)) throw badRequest(`Invalid mergeRules: rule "${rule.rule}" needs a non-empty "users" list`);
        if (rule.rule === 'custom' && typeof rule.expression !== 'string') throw badRequest('Invalid mergeRules: rule "custom" needs an "expression"');
        for (const userId of users ?? []) {
          if (!(await findMember(tx, organization.id, userId))) throw badRequest(`Invalid mergeRules: ${userId} is not a member of the organization`);
        }
      }
      patch = { ...patch, mergeRules: { type: 'rules', rules } };
    }
    const emailDomains = patch.emailDomains && [...new Set(patch.emailDomains.map((domain) => domain.toLowerCase()))];
    return storeChanges(tx, organization.id, { ...patch, ...(emailDomains ? { emailDomains } : {}) });
  });
}
