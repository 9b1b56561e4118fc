import { findCollection, transferCollectionTree, type CollectionRecord } from '../../storage/collections.js';
import type { Database } from '../../storage/db.js';
import { findSpace, updateSpace, type SpaceRecord } from '../../storage/spaces.js';
import { alreadyThere, missing, preconditionFailed } from '../common/errors.js';
import type { MovableItem } from './moveItem.js';
import { resolvePosition } from '../common/positions.js';

/**
 * Moves a space, or a top-level collection with everything in it, to the top level of another
 * organization, last among its items. Who may do it is the route's policy (admin of both).
 */
export function transferItem(db: Database, movable: { kind: 'space'; item: SpaceRecord }, organizationId: string): Promise<SpaceRecord>;
export function transferItem(db: Database, movable: { kind: 'collection'; item: CollectionRecord }, organizationId: string): Promise<CollectionRecord>;
export async function transferItem(db: Database, movable: MovableItem, organizationId: string): Promise<SpaceRecord | CollectionRecord> {
  const { kind, item } = movable;
  if (organizationId === item.organizationId) throw alreadyThere(`The ${kind} is already in that organization`);
  if (kind === 'collection' && item.parentId) throw preconditionFailed('A collection inside another can’t be transferred: move it to the top level first');
  return db.transaction(async (tx) => {
    const current = kind === 'space' ? await findSpace(tx, item.id) : await findCollection(tx, item.id);
    if (!current) throw missing(`${kind === 'space' ? 'Space' : 'Collection'} ${item.id} not found`);
    const position = (await resolvePosition(tx, organizationId, null, { kind, id: item.id, parentId: null }, undefined)) ?? 1;
    if (kind === 'space') return updateSpace(tx, item.id, { organizationId, collectionId: null, position });
    return transferCollectionTree(tx, item.id, organizationId, position);
  });
}
