import type { Database, Queryable } from './db.js';
import { hashToken, newId, newToken, now } from './ids.js';
import { toUser, userColumns, type UserRecord } from './users.js';

export interface TokenRecord {
  id: string;
  userId: string;
  label: string | null;
  createdAt: string;
}

/** Stores a token for the user and returns its only plaintext copy. */
export async function createToken(
  db: Queryable,
  userId: string,
  options: { label?: string; token?: string } = {},
): Promise<{ token: string; record: TokenRecord }> {
  const token = options.token ?? newToken();
  const record: TokenRecord = { id: newId(), userId, label: options.label ?? null, createdAt: now() };
  await db.run('INSERT INTO tokens (id, user_id, token_hash, label, created_at) VALUES (?, ?, ?, ?, ?)', [
    record.id,
    userId,
    hashToken(token),
    record.label,
    record.createdAt,
  ]);
  return { token, record };
}

/** Longer strings are not tokens Quire issued: they are refused before any lookup. */
export const maxTokenLength = 256;

/** The token's user, through the database's read cache: this runs on every authenticated request. */
export function findUserByToken(db: Database, token: string): Promise<UserRecord | undefined> {
  if (token.length > maxTokenLength) return Promise.resolve(undefined);
  // Keyed by the token itself (memory only), so a cache hit costs no hashing.
  return db.cached(`token:${token}`, async () => {
    const tokenHash = hashToken(token);
    const row = await db.get<Parameters<typeof toUser>[0]>(
      `SELECT ${userColumns} FROM tokens JOIN users ON users.id = tokens.user_id WHERE tokens.token_hash = ?`,
      [tokenHash],
    );
    return row && toUser(row);
  });
}

export async function listTokens(db: Queryable, userId: string): Promise<TokenRecord[]> {
  const rows = await db.all<{ id: string; user_id: string; label: string | null; created_at: string }>(
    'SELECT id, user_id, label, created_at FROM tokens WHERE user_id = ? ORDER BY created_at, id',
    [userId],
  );
  return rows.map((row) => ({ id: row.id, userId: row.user_id, label: row.label, createdAt: row.created_at }));
}

export async function revokeToken(db: Queryable, tokenId: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM tokens WHERE id = ?', [tokenId]);
  return changes > 0;
}
