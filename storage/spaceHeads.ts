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

/** Spaces of a storage with no head recorded (made before heads were recorded), by id after `after`. */
export async function spacesWithoutHead(db: Queryable, storageId: string, after: string, limit: number): Promise<string[]> {
  const rows = await db.all<{ id: string }>(
    'SELECT id FROM spaces WHERE storage_id = ? AND id > ? AND NOT EXISTS (SELECT 1 FROM space_heads WHERE space_id = spaces.id) ORDER BY id LIMIT ?',
    [storageId, after, limit],
  );
  return rows.map((row) => row.id);
}
