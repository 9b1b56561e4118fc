import { removeSpaceRepository } from '../../engine/spaceRepositories.js';
import type { Database } from '../../storage/db.js';
import { purgeDeletedSpaceRows, type PurgeOutcome } from '../../storage/spaceDeletion.js';

export interface PurgeDeletedSpaceInput {
  spaceId: string;
  /** The deletion this purge belongs to: a space restored (and perhaps deleted again) since is kept. */
  deletedAt: string;
}

/**
 * Removes a deleted space for good: rows and search index in one transaction, then its
 * repository. Idempotent: a retry after a crash between the two finds the rows gone and
 * removes what is left of the repository.
 */
export function purgeDeletedSpace(deps: { db: Database; dataDir: string }) {
  return async ({ spaceId, deletedAt }: PurgeDeletedSpaceInput): Promise<PurgeOutcome> => {
    const outcome = await purgeDeletedSpaceRows(deps.db, spaceId, deletedAt);
    if (outcome !== 'restored') await removeSpaceRepository(deps.dataDir, spaceId);
    return outcome;
  };
}
