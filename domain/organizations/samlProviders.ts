import type { Database, Queryable } from '../../storage/db.js';
import { deleteSamlProvider, insertSamlProvider, updateSamlProvider, type SamlProviderFields, type SamlProviderRecord } from '../../storage/samlProviders.js';
import { findTeam } from '../../storage/teams.js';
import { invalidInput } from '../common/errors.js';

/** A provider's default team must be one of the organization's: checked in the write's transaction, so it can't go meanwhile. */
async function assertDefaultTeam(tx: Queryable, organizationId: string, teamId: string | null | undefined): Promise<void> {
  if (teamId !== undefined && teamId !== null && !(await findTeam(tx, organizationId, teamId))) {
    throw invalidInput(`"defaultTeam" ${teamId} is not a team of the organization`);
  }
}

export function createSamlProvider(db: Database, organizationId: string, fields: SamlProviderFields & { label: string }): Promise<SamlProviderRecord> {
  return db.transaction(async (tx) => {
    await assertDefaultTeam(tx, organizationId, fields.defaultTeamId);
    return insertSamlProvider(tx, organizationId, fields);
  });
}

export function changeSamlProvider(db: Database, organizationId: string, providerId: string, fields: SamlProviderFields): Promise<SamlProviderRecord> {
  return db.transaction(async (tx) => {
    await assertDefaultTeam(tx, organizationId, fields.defaultTeamId);
    return updateSamlProvider(tx, organizationId, providerId, fields);
  });
}

/** False when there was no such provider. */
export function removeSamlProvider(db: Database, organizationId: string, providerId: string): Promise<boolean> {
  return deleteSamlProvider(db, organizationId, providerId);
}
