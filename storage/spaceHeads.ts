import type { Queryable } from './db.js';
import { now } from './ids.js';

/** Records the commit the space's primary branch points at (nothing once the space is purged). */
export async function recordSpaceHead(db: Queryable, spaceId: string, revision: string): Promise<void> {
  await db.run(
    `INSERT INTO space_heads (space_id, revision, recorded_at) SELECT id, ?, ? FROM spaces WHERE id = ?
     ON CONFLICT (space_id) DO UPDATE SET revision = excluded.revision, recorded_at = excluded.recorded_at`,
    [revision, now(), spaceId],
  );
}

/** The recorded heads of these spaces (a space with none recorded yet is absent). */
export async function recordedSpaceHeads(db: Queryable, spaceIds: readonly string[]): Promise<Map<string, string>> {
  if (spaceIds.length === 0) return new Map();
  const rows = await db.all<{ space_id: string; revision: string }>('SELECT space_id, revision FROM space_heads WHERE space_id IN (SELECT value FROM json_each(?))', [JSON.stringify(spaceIds)]);
  return new Map(rows.map((row) => [row.space_id, row.revision]));
}

/** A space of a storage with its recorded head and the revision its search index is at (null: none). */
export interface SpaceHeadState {
  spaceId: string;
  recorded: string | null;
  indexed: string | null;
}

/** The live and deleted spaces of a storage, by id after `after`, with their recorded and indexed revisions. */
export async function spaceHeadStates(db: Queryable, storageId: string, after: string, limit: number): Promise<SpaceHeadState[]> {
  const rows = await db.all<{ id: string; recorded: string | null; indexed: string | null }>(
    `SELECT spaces.id AS id, space_heads.revision AS recorded, search_spaces.revision AS indexed FROM spaces
     LEFT JOIN space_heads ON space_heads.space_id = spaces.id AND space_heads.space_id > ?
     LEFT JOIN search_spaces ON search_spaces.space_id = spaces.id AND search_spaces.space_id > ?
     WHERE spaces.storage_id = ? AND spaces.id > ? ORDER BY spaces.id LIMIT ?`,
    // `after` on the joined tables too (implied, but not to PostgreSQL's merge join, which otherwise
    // reads them from their start on every page: a full sweep grew with the square of the spaces).
    [after, after, storageId, after, limit],
  );
  return rows.map((row) => ({ spaceId: row.id, recorded: row.recorded, indexed: row.indexed }));
}
