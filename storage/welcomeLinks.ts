import type { Queryable } from './db.js';
import { hashToken, newToken, now } from './ids.js';

/** A link an invited person without a password opens to set one and join: who, which organization, until when. */
export interface WelcomeLinkRecord {
  userId: string;
  organizationId: string;
  expiresAt: string;
}

/** Stores a link and returns the only plaintext copy of its secret. */
export async function createWelcomeLink(db: Queryable, input: { userId: string; organizationId: string; createdBy: string; lifetimeMs: number }): Promise<string> {
  const secret = newToken();
  await db.run('INSERT INTO welcome_links (link_hash, user_id, organization_id, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)', [
    hashToken(secret),
    input.userId,
    input.organizationId,
    input.createdBy,
    now(),
    new Date(Date.now() + input.lifetimeMs).toISOString(),
  ]);
  return secret;
}

/** The live link this secret opens. */
export async function findWelcomeLink(db: Queryable, secret: string): Promise<WelcomeLinkRecord | undefined> {
  if (secret.length > 256) return undefined;
  const row = await db.get<{ user_id: string; organization_id: string; expires_at: string }>('SELECT user_id, organization_id, expires_at FROM welcome_links WHERE link_hash = ?', [hashToken(secret)]);
  return row && Date.parse(row.expires_at) > Date.now() ? { userId: row.user_id, organizationId: row.organization_id, expiresAt: row.expires_at } : undefined;
}

/** Every link of the user ends (one was used, or they have a password now); false when this one was gone already. */
export async function useWelcomeLink(db: Queryable, secret: string, userId: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM welcome_links WHERE link_hash = ?', [hashToken(secret)]);
  await db.run('DELETE FROM welcome_links WHERE user_id = ?', [userId]);
  return changes > 0;
}
