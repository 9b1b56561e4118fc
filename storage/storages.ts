import type { Database, Queryable } from './db.js';
import { now } from './ids.js';

export interface StorageRecord {
  id: string;
  /** Where the node that owns the storage answers; null while none does. */
  nodeUrl: string | null;
  claimedAt: string | null;
}

interface StorageRow {
  id: string;
  node_url: string | null;
  claimed_at: string | null;
}

const toStorage = (row: StorageRow): StorageRecord => ({ id: row.id, nodeUrl: row.node_url, claimedAt: row.claimed_at });

/** Records that the node at `nodeUrl` now serves the storage (its ownership lock taken first). */
export async function claimStorage(db: Queryable, id: string, nodeUrl: string): Promise<void> {
  const at = now();
  await db.run('INSERT INTO storages (id, node_url, claimed_at) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET node_url = excluded.node_url, claimed_at = excluded.claimed_at', [id, nodeUrl, at]);
}

/** The storage is served by no node, unless another has claimed it since. */
export async function releaseStorage(db: Queryable, id: string, nodeUrl: string): Promise<void> {
  await db.run('UPDATE storages SET node_url = NULL WHERE id = ? AND node_url = ?', [id, nodeUrl]);
}

export async function findStorage(db: Queryable, id: string): Promise<StorageRecord | undefined> {
  const row = await db.get<StorageRow>('SELECT id, node_url, claimed_at FROM storages WHERE id = ?', [id]);
  return row && toStorage(row);
}

/** findStorage through the read cache: on the path of every request routed to another node. */
export const findStorageCached = (db: Database, id: string) => db.cached(`storage:${id}`, ['storages'], () => findStorage(db, id));

/** The served storage with the fewest spaces: where a node that serves none places a new space. */
export async function leastFilledStorage(db: Queryable): Promise<StorageRecord | undefined> {
  const row = await db.get<StorageRow>(
    `SELECT id, node_url, claimed_at FROM storages WHERE node_url IS NOT NULL
     ORDER BY (SELECT COUNT(*) FROM spaces WHERE spaces.storage_id = storages.id), id LIMIT 1`,
  );
  return row && toStorage(row);
}
