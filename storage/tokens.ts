import type { Database, Queryable } from './db.js';
import { hashToken, newId, newToken, now } from './ids.js';
import { toUser, userColumns, type UserRecord } from './users.js';

export interface TokenRecord {
  id: string;
  userId: string;
  label: string | null;
  createdAt: string;
  /** null: never expires. */
  expiresAt: string | null;
  /** null: never used; otherwise to the minute (see findUserByToken). */
  lastUsedAt: string | null;
}

interface TokenRow {
  id: string;
  user_id: string;
  label: string | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

const toToken = (row: TokenRow): TokenRecord => ({
  id: row.id,
  userId: row.user_id,
  label: row.label,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
});

/** Stores a token for the user and returns its only plaintext copy. */
export async function createToken(db: Queryable, userId: string, options: { label?: string; token?: string; expiresAt?: Date } = {}): Promise<{ token: string; record: TokenRecord }> {
  const token = options.token ?? newToken();
  const record: TokenRecord = {
    id: newId(),
    userId,
    label: options.label ?? null,
    createdAt: now(),
    expiresAt: options.expiresAt?.toISOString() ?? null,
    lastUsedAt: null,
  };
  await db.run('INSERT INTO tokens (id, user_id, token_hash, label, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)', [
    record.id,
    userId,
    hashToken(token),
    record.label,
    record.createdAt,
    record.expiresAt,
  ]);
  return { token, record };
}

/** Longer strings are not tokens Quire issued: they are refused before any lookup. */
export const maxTokenLength = 256;

/** `last_used_at` is written at most this often per token: a write per request would clear the read cache each time. */
const lastUsedPrecisionMs = 60_000;
const lastRecorded = new Map<string, number>();

/**
 * The token's user, through the database's read cache (this runs on every authenticated request);
 * undefined for an unknown or expired token. Records the token's use, at most once a minute.
 */
export async function findUserByToken(db: Database, token: string): Promise<UserRecord | undefined> {
  if (token.length > maxTokenLength) return undefined;
  // Keyed by the token itself (memory only), so a cache hit costs no hashing.
  const found = await db.cached(`token:${token}`, ['tokens', 'users'], async () => {
    const row = await db.get<Parameters<typeof toUser>[0] & { token_id: string; expires_at: string | null }>(
      `SELECT ${userColumns}, tokens.id AS token_id, tokens.expires_at FROM tokens JOIN users ON users.id = tokens.user_id WHERE tokens.token_hash = ?`,
      [hashToken(token)],
    );
    return row && { user: toUser(row), tokenId: row.token_id, expiresAt: row.expires_at === null ? Infinity : Date.parse(row.expires_at) };
  });
  const time = Date.now();
  if (!found || found.expiresAt <= time) return undefined;
  if (time - (lastRecorded.get(found.tokenId) ?? 0) >= lastUsedPrecisionMs) {
    lastRecorded.set(found.tokenId, time);
    if (lastRecorded.size > 10_000) lastRecorded.clear();
    // Not awaited: the request doesn't wait on a bookkeeping write (nor fails with it).
    db.run('UPDATE tokens SET last_used_at = ? WHERE id = ?', [new Date(time).toISOString(), found.tokenId]).catch(() => lastRecorded.delete(found.tokenId));
  }
  return found.user;
}

export async function listTokens(db: Queryable, userId: string): Promise<TokenRecord[]> {
  const rows = await db.all<TokenRow>('SELECT id, user_id, label, created_at, expires_at, last_used_at FROM tokens WHERE user_id = ? ORDER BY created_at, id', [userId]);
  return rows.map(toToken);
}

export async function findToken(db: Queryable, tokenId: string): Promise<TokenRecord | undefined> {
  const row = await db.get<TokenRow>('SELECT id, user_id, label, created_at, expires_at, last_used_at FROM tokens WHERE id = ?', [tokenId]);
  return row && toToken(row);
}

export async function revokeToken(db: Queryable, tokenId: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM tokens WHERE id = ?', [tokenId]);
  return changes > 0;
}
