import type { Database, Queryable } from './db.js';
import { notFound } from './errors.js';
import { newId, now } from './ids.js';
import type { MemberRole } from './members.js';
import { mapPage, paginate, type Page, type PageRequest } from './pagination.js';
import { amongValues, sameAs } from './dialect.js';

/** A space's or collection's default level: a role, null (only people invited), or 'inherit'. */
export type DefaultLevel = MemberRole | null | 'inherit';
export type Visibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';
export type SpaceMergeRules = { type: 'inherit' } | { type: 'none' } | { type: 'rules'; rules: Array<Record<string, unknown>> };

export interface SpaceRecord {
  id: string;
  organizationId: string;
  collectionId: string | null;
  position: number;
  title: string;
  emoji: string | null;
  visibility: Visibility;
  editMode: 'live' | 'locked';
  defaultLevel: DefaultLevel;
  mergeRules: SpaceMergeRules;
  language: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  /** The storage whose node keeps the space's repository. */
  storageId: string;
}

interface SpaceRow {
  id: string;
  organization_id: string;
  collection_id: string | null;
  position: number;
  title: string;
  emoji: string | null;
  visibility: Visibility;
  edit_mode: 'live' | 'locked';
  default_level: string | null;
  merge_rules: string;
  language: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  storage_id: string;
}

function toSpace(row: SpaceRow): SpaceRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    collectionId: row.collection_id,
    position: row.position,
    title: row.title,
    emoji: row.emoji,
    visibility: row.visibility,
    editMode: row.edit_mode,
    defaultLevel: row.default_level as DefaultLevel,
    mergeRules: JSON.parse(row.merge_rules) as SpaceMergeRules,
    language: row.language,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
    storageId: row.storage_id,
  };
}

/** The position after every sibling (spaces and collections share one order per parent). */
export async function nextPosition(db: Queryable, organizationId: string, collectionId: string | null): Promise<number> {
  const [inCollection, underParent] = [sameAs('collection_id', collectionId), sameAs('parent_id', collectionId)];
  const row = await db.get<{ top: number | null }>(
    `SELECT MAX(position) AS top FROM (
       SELECT position FROM spaces WHERE organization_id = ? AND ${inCollection.sql}
       UNION ALL SELECT position FROM collections WHERE organization_id = ? AND ${underParent.sql}) AS siblings`,
    [organizationId, ...inCollection.params, organizationId, ...underParent.params],
  );
  return (row?.top ?? 0) + 1;
}

export interface NewSpace {
  id?: string;
  organizationId: string;
  collectionId: string | null;
  title: string;
  emoji: string | null;
  editMode?: 'live' | 'locked';
  visibility?: Visibility;
  defaultLevel?: DefaultLevel;
  mergeRules?: SpaceMergeRules;
  language?: string | null;
  createdBy: string;
  /** Where its repository was made: 'local' on an instance of one node. */
  storageId?: string;
}

export async function insertSpace(db: Queryable, input: NewSpace): Promise<SpaceRecord> {
  const id = input.id ?? newId();
  const at = now();
  await db.run(
    `INSERT INTO spaces (id, organization_id, collection_id, position, title, emoji, visibility, edit_mode, default_level,
       merge_rules, language, created_by, created_at, updated_at, storage_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      input.organizationId,
      input.collectionId,
      await nextPosition(db, input.organizationId, input.collectionId),
      input.title,
      input.emoji,
      input.visibility ?? 'private',
      input.editMode ?? 'live',
      input.defaultLevel === undefined ? 'inherit' : input.defaultLevel,
      JSON.stringify(input.mergeRules ?? { type: 'inherit' }),
      input.language ?? null,
      input.createdBy,
      at,
      at,
      input.storageId ?? 'local',
    ],
  );
  return getSpace(db, id, { includeDeleted: true });
}

export async function findSpace(db: Queryable, id: string, options: { includeDeleted?: boolean } = {}): Promise<SpaceRecord | undefined> {
  const row = await db.get<SpaceRow>(`SELECT * FROM spaces WHERE id = ?${options.includeDeleted ? '' : ' AND deleted_at IS NULL'}`, [id]);
  return row && toSpace(row);
}

/** The tables findSpace reads. */
export const spaceReads = ['spaces'] as const;

/** findSpace through the database's read cache, for the access check of every space request. */
export function findSpaceCached(db: Database, id: string, options: { includeDeleted?: boolean } = {}): Promise<SpaceRecord | undefined> {
  return db.cached(`space:${id}:${options.includeDeleted ? 'all' : 'live'}`, spaceReads, () => findSpace(db, id, options));
}

export async function getSpace(db: Queryable, id: string, options: { includeDeleted?: boolean } = {}): Promise<SpaceRecord> {
  const space = await findSpace(db, id, options);
  if (!space) throw notFound(`Space ${id}`);
  return space;
}

/**
 * Live spaces among `ids` (the ones a caller can reach) in an organization, oldest first, or in a
 * collection, in their order there.
 */
export async function listReachableSpaces(db: Queryable, within: { organizationId: string } | { collectionId: string }, filter: { ids: string[] }, request: PageRequest): Promise<Page<SpaceRecord>> {
  const [column, value, sort] = 'collectionId' in within ? (['collection_id', within.collectionId, 'position'] as const) : (['organization_id', within.organizationId, 'created_at'] as const);
  const reachable = amongValues(db.dialect, 'id', filter.ids);
  const page = await paginate<SpaceRow>(
    db,
    {
      select: '*',
      from: 'spaces',
      where: `${column} = ? AND deleted_at IS NULL AND ${reachable.sql}`,
      params: [value, ...reachable.params],
      identity: [column, value],
      sort: [sort, 'id'],
      key: (row) => [row[sort], row.id],
    },
    request,
  );
  return mapPage(page, toSpace);
}

/** Every live space of the organization, for computing who can reach what. */
export async function listAllSpacesOfOrganization(db: Queryable, organizationId: string): Promise<SpaceRecord[]> {
  const rows = await db.all<SpaceRow>('SELECT * FROM spaces WHERE organization_id = ? AND deleted_at IS NULL ORDER BY created_at, id', [organizationId]);
  return rows.map(toSpace);
}

export interface SpaceChanges {
  title?: string;
  emoji?: string | null;
  editMode?: 'live' | 'locked';
  defaultLevel?: DefaultLevel;
  mergeRules?: SpaceMergeRules;
  language?: string | null;
  visibility?: Visibility;
  collectionId?: string | null;
  position?: number;
  organizationId?: string;
}

const columnOf: Record<keyof SpaceChanges, (value: never) => [string, unknown]> = {
  title: (value: string) => ['title', value],
  emoji: (value: string | null) => ['emoji', value],
  editMode: (value: string) => ['edit_mode', value],
  defaultLevel: (value: DefaultLevel) => ['default_level', value],
  mergeRules: (value: SpaceMergeRules) => ['merge_rules', JSON.stringify(value)],
  language: (value: string | null) => ['language', value],
  visibility: (value: Visibility) => ['visibility', value],
  collectionId: (value: string | null) => ['collection_id', value],
  position: (value: number) => ['position', value],
  organizationId: (value: string) => ['organization_id', value],
};

export async function updateSpace(db: Queryable, id: string, changes: SpaceChanges): Promise<SpaceRecord> {
  const assignments = ['updated_at = ?'];
  const params: unknown[] = [now()];
  for (const [field, toColumn] of Object.entries(columnOf)) {
    const value = changes[field as keyof SpaceChanges];
    if (value === undefined) continue;
    const [column, stored] = toColumn(value as never);
    assignments.push(`${column} = ?`);
    params.push(stored);
  }
  await db.run(`UPDATE spaces SET ${assignments.join(', ')} WHERE id = ?`, [...params, id]);
  return getSpace(db, id, { includeDeleted: true });
}

/** The ids of the live spaces of a storage, by id, a page at a time after `afterId` (for sweeps over its repositories). */
export async function listLiveSpaceIds(db: Queryable, storageId: string, afterId: string, limit: number): Promise<string[]> {
  const rows = await db.all<{ id: string }>('SELECT id FROM spaces WHERE deleted_at IS NULL AND storage_id = ? AND id > ? ORDER BY id LIMIT ?', [storageId, afterId, limit]);
  return rows.map((row) => row.id);
}

/** Moves a space's placement to storage `to` if it is still on `from`: whether it moved. */
export async function placeSpaceOnStorage(db: Queryable, spaceId: string, from: string, to: string): Promise<boolean> {
  const changed = await db.run('UPDATE spaces SET storage_id = ? WHERE id = ? AND storage_id = ?', [to, spaceId, from]);
  return changed.changes === 1;
}
