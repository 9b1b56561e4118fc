import type { Queryable } from './db.js';
import { now } from './ids.js';

/**
 * The instance's secret key of that name: `candidate` (base64) is stored if none is yet, and
 * whichever node stored one first wins, so every node signs and checks with the same key.
 */
export async function storedInstanceKey(db: Queryable, name: string, candidate: string): Promise<string> {
  await db.run('INSERT INTO instance_keys (name, secret, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [name, candidate, now()]);
  const row = await db.get<{ secret: string }>('SELECT secret FROM instance_keys WHERE name = ?', [name]);
  return row!.secret;
}
