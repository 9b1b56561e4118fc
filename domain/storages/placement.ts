import type { Database } from '../../storage/db.js';
import { findSpace, findSpaceCached } from '../../storage/spaces.js';
import { findStorage, findStorageCached, leastFilledStorage, type StorageRecord } from '../../storage/storages.js';

/** The storage that keeps a space (deleted ones too), or undefined when there is no such space: through the read cache, or `fresh`. */
export async function storageOfSpace(db: Database, spaceId: string, options: { fresh?: boolean } = {}): Promise<string | undefined> {
  return (await (options.fresh ? findSpace : findSpaceCached)(db, spaceId, { includeDeleted: true }))?.storageId;
}

/** Where a storage is served: through the read cache, or `fresh` after the cached placement failed. */
export function placementOf(db: Database, storage: string, options: { fresh?: boolean } = {}): Promise<StorageRecord | undefined> {
  return options.fresh ? findStorage(db, storage) : findStorageCached(db, storage);
}

/** The served storage with the fewest spaces: where a node that keeps none places a new space. */
export const storageWithRoom = (db: Database): Promise<StorageRecord | undefined> => leastFilledStorage(db);
