import type { Database, Queryable, Transaction } from './db.js';
import { notFound } from './errors.js';
import { newId, now } from './ids.js';
import { mapPage, paginate, type Page, type PageRequest } from './pagination.js';
import { nextPosition, type DefaultLevel } from './spaces.js';
import { amongValues, sameAs } from './dialect.js';

export interface CollectionRecord {
  id: string;
  organizationId: string;
  parentId: string | null;
  position: number;
  title: string;
  description: string | null;
  defaultLevel: DefaultLevel;
  createdAt: string;
  updatedAt: string;
}

interface CollectionRow {
  id: string;
  organization_id: string;
  parent_id: string | null;
  position: number;
  title: string;
  description: string | null;
  default_level: string | null;
  created_at: string;
  updated_at: string;
}

function toCollection(row: CollectionRow): CollectionRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    parentId: row.parent_id,
    position: row.position,
    title: row.title,
    description: row.description,
    defaultLevel: row.default_level as DefaultLevel,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function insertCollection(db: Queryable, input: { organizationId: string; parentId: string | null; title: string; description?: string | null }): Promise<CollectionRecord> {
  const id = newId();
  const at = now();
  await db.run(
    `INSERT INTO collections (id, organization_id, parent_id, position, title, description, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [id, input.organizationId, input.parentId, await nextPosition(db, input.organizationId, input.parentId), input.title, input.description ?? null, at, at],
  );
  return getCollection(db, id);
}

export async function findCollection(db: Queryable, id: string): Promise<CollectionRecord | undefined> {
  const row = await db.get<CollectionRow>('SELECT * FROM collections WHERE id = ?', [id]);
  return row && toCollection(row);
}

export async function getCollection(db: Queryable, id: string): Promise<CollectionRecord> {
  const collection = await findCollection(db, id);
  if (!collection) throw notFound(`Collection ${id}`);
  return collection;
}

/** Collections among `ids` (the ones a caller can reach): top-level ones, or with `nested` all of them. */
export async function listCollectionsOfOrganization(db: Queryable, organizationId: string, filter: { nested: boolean; ids: string[] }, request: PageRequest): Promise<Page<CollectionRecord>> {
  const reachable = amongValues(db.dialect, 'id', filter.ids);
  const page = await paginate<CollectionRow>(
    db,
    {
      select: '*',
      from: 'collections',
      where: `organization_id = ? AND ${reachable.sql}${filter.nested ? '' : ' AND parent_id IS NULL'}`,
      params: [organizationId, ...reachable.params],
      identity: [organizationId, filter.nested],
      sort: ['created_at', 'id'],
      key: (row) => [row.created_at, row.id],
    },
    request,
  );
  return mapPage(page, toCollection);
}

export async function listAllCollectionsOfOrganization(db: Queryable, organizationId: string): Promise<CollectionRecord[]> {
  const rows = await db.all<CollectionRow>('SELECT * FROM collections WHERE organization_id = ?', [organizationId]);
  return rows.map(toCollection);
}

/** The collection and the collections above it, nearest first. */
export async function collectionChain(db: Queryable, id: string | null): Promise<CollectionRecord[]> {
  if (!id) return [];
  const rows = await db.all<CollectionRow>(
    `WITH RECURSIVE chain(id, depth) AS (SELECT id, 0 FROM collections WHERE id = ? UNION ALL SELECT c.parent_id, chain.depth + 1 FROM collections c JOIN chain ON c.id = chain.id WHERE c.parent_id IS NOT NULL AND chain.depth < 64)
     SELECT collections.* FROM chain JOIN collections ON collections.id = chain.id ORDER BY chain.depth`,
    [id],
  );
  return rows.map(toCollection);
}

/** The tables collectionChain reads. */
export const collectionReads = ['collections'] as const;

/** collectionChain through the database's read cache (an empty chain is cached too). */
export async function collectionChainCached(db: Database, id: string | null): Promise<CollectionRecord[]> {
  if (!id) return [];
  return (await db.cached(`collection-chain:${id}`, collectionReads, () => collectionChain(db, id))) ?? [];
}

export interface CollectionChanges {
  title?: string;
  description?: string | null;
  defaultLevel?: DefaultLevel;
  parentId?: string | null;
  position?: number;
  organizationId?: string;
}

const columnOf: Record<keyof CollectionChanges, string> = {
  title: 'title',
  description: 'description',
  defaultLevel: 'default_level',
  parentId: 'parent_id',
  position: 'position',
  organizationId: 'organization_id',
};

export async function updateCollection(db: Queryable, id: string, changes: CollectionChanges): Promise<CollectionRecord> {
  const entries = Object.entries(changes).filter(([field, value]) => value !== undefined && field in columnOf) as Array<[keyof CollectionChanges, unknown]>;
  await db.run(`UPDATE collections SET ${['updated_at = ?', ...entries.map(([field]) => `${columnOf[field]} = ?`)].join(', ')} WHERE id = ?`, [now(), ...entries.map(([, value]) => value), id]);
  return getCollection(db, id);
}

/**
 * Deletes the collection; what it held (spaces, collections) moves up to its parent, after the
 * parent's own items. False when there was no such collection.
 */
export async function deleteCollection(db: Transaction, id: string): Promise<boolean> {
  const collection = await findCollection(db, id);
  if (!collection) return false;
  // Shift the children so the lowest lands just after the parent's last item, keeping their order.
  const lowest = await db.get<{ low: number | null }>(
    'SELECT MIN(position) AS low FROM (SELECT position FROM spaces WHERE collection_id = ? UNION ALL SELECT position FROM collections WHERE parent_id = ?) AS children',
    [id, id],
  );
  const shift = (await nextPosition(db, collection.organizationId, collection.parentId)) - (lowest?.low ?? 1);
  await db.run('UPDATE spaces SET collection_id = ?, position = position + ? WHERE collection_id = ?', [collection.parentId, shift, id]);
  await db.run('UPDATE collections SET parent_id = ?, position = position + ? WHERE parent_id = ?', [collection.parentId, shift, id]);
  await db.run('DELETE FROM collections WHERE id = ?', [id]);
  return true;
}

export async function listChildPositions(db: Queryable, organizationId: string, parentId: string | null): Promise<Array<{ kind: 'space' | 'collection'; id: string; position: number }>> {
  const [inCollection, underParent] = [sameAs('collection_id', parentId), sameAs('parent_id', parentId)];
  return db.all(
    `SELECT 'space' AS kind, id, position FROM spaces WHERE organization_id = ? AND ${inCollection.sql} AND deleted_at IS NULL
     UNION ALL SELECT 'collection' AS kind, id, position FROM collections WHERE organization_id = ? AND ${underParent.sql}
     ORDER BY position, kind, id`,
    [organizationId, ...inCollection.params, organizationId, ...underParent.params],
  );
}

/** A collection's id and those of the collections below it at any depth (one parameter: the collection). */
const descendants = `WITH RECURSIVE tree(id) AS (SELECT id FROM collections WHERE id = ? UNION ALL SELECT c.id FROM collections c JOIN tree ON c.parent_id = tree.id) SELECT id FROM tree`;

/** The collection, the collections inside it at any depth and the spaces in any of them (the bin's included). */
export async function listCollectionTreeItems(db: Queryable, id: string): Promise<{ collectionIds: string[]; spaceIds: string[] }> {
  const collectionIds = (await db.all<{ id: string }>(descendants, [id])).map((row) => row.id);
  const spaceIds = (await db.all<{ id: string }>(`SELECT id FROM spaces WHERE collection_id IN (${descendants})`, [id])).map((row) => row.id);
  return { collectionIds, spaceIds };
}

/** Moves a collection with everything below it (collections and spaces) to another organization. */
export async function transferCollectionTree(db: Transaction, id: string, organizationId: string, position: number): Promise<CollectionRecord> {
  await db.run(`UPDATE spaces SET organization_id = ?, updated_at = ? WHERE collection_id IN (${descendants})`, [organizationId, now(), id]);
  await db.run(`UPDATE collections SET organization_id = ?, updated_at = ? WHERE id IN (${descendants})`, [organizationId, now(), id]);
  return updateCollection(db, id, { parentId: null, position });
}

/** Whether `ancestorId` is `id` or one of the collections above it. */
export async function isWithin(db: Queryable, id: string, ancestorId: string): Promise<boolean> {
  return (await collectionChain(db, id)).some((collection) => collection.id === ancestorId);
}

/** Spreads the children of a parent back to positions 1, 2, 3…, in their current order. */
export async function renumberChildren(db: Transaction, organizationId: string, parentId: string | null): Promise<void> {
  const children = await listChildPositions(db, organizationId, parentId);
  for (const [index, child] of children.entries()) {
    await db.run(`UPDATE ${child.kind === 'space' ? 'spaces' : 'collections'} SET position = ? WHERE id = ?`, [index + 1, child.id]);
  }
}
