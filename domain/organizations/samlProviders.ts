import type { Database, Queryable } from '../../storage/db.js';
import { deleteSamlProvider, insertSamlProvider, updateSamlProvider, type SamlProviderFields, type SamlProviderRecord } from '../../storage/samlProviders.js';
import { findTeam } from '../../storage/teams.js';
import { invalidInput } from '../common/errors.js';
import { recordAudit, type Actor } from '../audit/index.js';

const providerTarget = (provider: { id: string; label: string }) => ({ type: 'saml-provider', id: provider.id, label: provider.label });

/** A provider's default team must be one of the organization's: checked in the write's transaction, so it can't go meanwhile. */
async function assertDefaultTeam(tx: Queryable, organizationId: string, teamId: string | null | undefined): Promise<void> {
  if (teamId !== undefined && teamId !== null && !(await findTeam(tx, organizationId, teamId))) {
    throw invalidInput(`"defaultTeam" ${teamId} is not a team of the organization`);
  }
}

/** The fields an event names: which settings changed, never their values (certificates, URLs of the identity provider). */
const changedFields = (fields: SamlProviderFields) => Object.keys(fields).filter((key) => fields[key as keyof SamlProviderFields] !== undefined);

export function createSamlProvider(db: Database, actor: Actor, organizationId: string, fields: SamlProviderFields & { label: string }): Promise<SamlProviderRecord> {
  return db.transaction(async (tx) => {
    await assertDefaultTeam(tx, organizationId, fields.defaultTeamId);
    const provider = await insertSamlProvider(tx, organizationId, fields);
    await recordAudit(tx, actor, organizationId, { action: 'saml_provider.created', target: providerTarget(provider) });
    return provider;
  });
}

export function changeSamlProvider(db: Database, actor: Actor, organizationId: string, providerId: string, fields: SamlProviderFields): Promise<SamlProviderRecord> {
  return db.transaction(async (tx) => {
    await assertDefaultTeam(tx, organizationId, fields.defaultTeamId);
    const provider = await updateSamlProvider(tx, organizationId, providerId, fields);
    await recordAudit(tx, actor, organizationId, { action: 'saml_provider.updated', target: providerTarget(provider), payload: { fields: changedFields(fields) } });
    return provider;
  });
}

/** False when there was no such provider. */
export function removeSamlProvider(db: Database, actor: Actor, organizationId: string, providerId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const removed = await deleteSamlProvider(tx, organizationId, providerId);
    if (removed) await recordAudit(tx, actor, organizationId, { action: 'saml_provider.deleted', target: { type: 'saml-provider', id: providerId } });
    return removed;
  });
}
