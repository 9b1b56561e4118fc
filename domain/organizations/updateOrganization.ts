import { putAgentInstructions, type AgentInstructionsRecord } from '../../storage/agentInstructions.js';
import type { Database } from '../../storage/db.js';
import { findMember } from '../../storage/members.js';
import { findOrganizationByHostname, updateOrganization as storeChanges, type OrganizationChanges, type OrganizationRecord } from '../../storage/organizations.js';
import { alreadyThere, invalidInput } from '../common/errors.js';

/** What an organization update may change: the fields storage writes. */
export type OrganizationPatch = OrganizationChanges;

/** Checks what the schema can't (references, uniqueness) and applies the patch in one transaction. */
export function updateOrganization(db: Database, organization: OrganizationRecord, patch: OrganizationPatch): Promise<OrganizationRecord> {
  return db.transaction(async (tx) => {
    if (patch.defaultContent) {
      // Docs sites arrive with the sites issue; until then no site id can be valid.
      throw invalidInput(`Invalid default content: site ${patch.defaultContent.site} does not exist in this organization`);
    }
    if (patch.hostname) {
      const holder = await findOrganizationByHostname(tx, patch.hostname);
      if (holder && holder.id !== organization.id) throw alreadyThere(`Hostname "${patch.hostname}" is already used by another organization`);
    }
    if (patch.mergeRules?.type === 'none' && 'rules' in patch.mergeRules) {
      throw invalidInput('Invalid mergeRules: "rules" goes only with type "rules"');
    }
    if (patch.mergeRules?.type === 'rules') {
      if (!patch.mergeRules.rules) throw invalidInput('Invalid mergeRules: type "rules" needs a "rules" list');
      const rules = patch.mergeRules.rules;
      for (const rule of rules) {
        const users = rule.users as string[] | undefined;
        const needsUsers = ['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass'].includes(rule.rule as string);
        if (needsUsers && (!users || users.length === 0)) throw invalidInput(`Invalid mergeRules: rule "${rule.rule}" needs a non-empty "users" list`);
        if (rule.rule === 'custom' && typeof rule.expression !== 'string') throw invalidInput('Invalid mergeRules: rule "custom" needs an "expression"');
        for (const userId of users ?? []) {
          if (!(await findMember(tx, organization.id, userId))) throw invalidInput(`Invalid mergeRules: ${userId} is not a member of the organization`);
        }
      }
      patch = { ...patch, mergeRules: { type: 'rules', rules } };
    }
    const emailDomains = patch.emailDomains && normalizeEmailDomains(patch.emailDomains);
    return storeChanges(tx, organization.id, { ...patch, ...(emailDomains ? { emailDomains } : {}) });
  });
}

/** The organization's instructions for AI agents, replaced whole. */
export function setAgentInstructions(db: Database, organizationId: string, document: Record<string, unknown>, updatedBy: string): Promise<AgentInstructionsRecord> {
  return putAgentInstructions(db, organizationId, document, updatedBy);
}

/** Email domains as kept: lower case, each once. */
export const normalizeEmailDomains = (domains: string[]) => [...new Set(domains.map((domain) => domain.toLowerCase()))];
