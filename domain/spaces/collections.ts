import { deleteCollection, findCollection, insertCollection, updateCollection, type CollectionChanges, type CollectionRecord } from '../../storage/collections.js';
import type { Database } from '../../storage/db.js';
import { recordAudit, type Actor } from '../audit/index.js';

/** A new collection of the organization, in `parentId` (null: at its top level), last among its siblings. */
export function createCollection(db: Database, input: { organizationId: string; parentId: string | null; title: string }): Promise<CollectionRecord> {
  return db.transaction((tx) => insertCollection(tx, input));
}

/** A collection's title or settings; a new default level changes who reaches everything in it, and is audited with it. */
export function changeCollection(db: Database, actor: Actor, collection: CollectionRecord, changes: CollectionChanges): Promise<CollectionRecord> {
  return db.transaction(async (tx) => {
    const before = (await findCollection(tx, collection.id)) ?? collection;
    const updated = await updateCollection(tx, collection.id, changes);
    if (changes.defaultLevel !== undefined && changes.defaultLevel !== before.defaultLevel) {
      await recordAudit(tx, actor, collection.organizationId, {
        action: 'collection.access_changed',
        target: { type: 'collection', id: collection.id, label: updated.title },
        payload: { from: before.defaultLevel, to: changes.defaultLevel },
      });
    }
    return updated;
  });
}

/** Deletes a collection; what it held moves up to its parent. False when it was gone already. */
export function removeCollection(db: Database, collectionId: string): Promise<boolean> {
  return db.transaction((tx) => deleteCollection(tx, collectionId));
}
