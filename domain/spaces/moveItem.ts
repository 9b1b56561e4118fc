import { isWithin, updateCollection, type CollectionRecord } from '../../storage/collections.js';
import type { Database } from '../../storage/db.js';
import { updateSpace, type SpaceRecord } from '../../storage/spaces.js';
import { alreadyThere, invalidInput } from '../common/errors.js';
import { resolvePosition, type Position } from '../common/positions.js';
import { assertCollectionIn } from './spaces.js';

export type MovableItem = { kind: 'space'; item: SpaceRecord } | { kind: 'collection'; item: CollectionRecord };

/** Where to: a parent collection (null: the organization's top level; absent: where it is), and a place among its children. */
export interface MoveTarget {
  parent?: string | null;
  position?: Position;
}

const parentOf = (movable: MovableItem) => (movable.kind === 'space' ? movable.item.collectionId : movable.item.parentId);

/**
 * Moves a space or a collection among the children of a collection or of the organization's top
 * level. Checked inside the transaction that writes, so concurrent moves can't build a cycle or
 * lose a parent. Answers what was moved, as it now is.
 */
export function moveItem(db: Database, movable: { kind: 'space'; item: SpaceRecord }, target: MoveTarget): Promise<SpaceRecord>;
export function moveItem(db: Database, movable: { kind: 'collection'; item: CollectionRecord }, target: MoveTarget): Promise<CollectionRecord>;
export async function moveItem(db: Database, movable: MovableItem, target: MoveTarget): Promise<SpaceRecord | CollectionRecord> {
  const { kind, item } = movable;
  const from = parentOf(movable);
  const parent = target.parent === undefined ? from : target.parent;
  return db.transaction(async (tx) => {
    await assertCollectionIn(tx, item.organizationId, parent, 'parent');
    if (kind === 'collection' && parent && (await isWithin(tx, parent, item.id))) {
      throw invalidInput('Invalid position: a collection can’t move into itself or one of its own collections');
    }
    const position = await resolvePosition(tx, item.organizationId, parent, { kind, id: item.id, parentId: from }, target.position);
    if (position === null) throw alreadyThere(`The ${kind} is already there: the move would change nothing`);
    if (kind === 'space') return updateSpace(tx, item.id, { collectionId: parent, position });
    return updateCollection(tx, item.id, { parentId: parent, position });
  });
}
