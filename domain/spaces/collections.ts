import { deleteCollection, insertCollection, updateCollection, type CollectionChanges, type CollectionRecord } from '../../storage/collections.js';
import type { Database } from '../../storage/db.js';

/** A new collection of the organization, in `parentId` (null: at its top level), last among its siblings. */
export function createCollection(db: Database, input: { organizationId: string; parentId: string | null; title: string }): Promise<CollectionRecord> {
  return db.transaction((tx) => insertCollection(tx, input));
}

export function changeCollection(db: Database, collectionId: string, changes: CollectionChanges): Promise<CollectionRecord> {
  return updateCollection(db, collectionId, changes);
}

/** Deletes a collection; what it held moves up to its parent. False when it was gone already. */
export function removeCollection(db: Database, collectionId: string): Promise<boolean> {
  return db.transaction((tx) => deleteCollection(tx, collectionId));
}
