import { createHash, randomBytes } from 'node:crypto';

const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A random, URL-safe id of 20 base62 characters (~119 bits): not guessable, not sequential. */
export function newId(): string {
  const bytes = randomBytes(32);
  let id = '';
  for (const byte of bytes) {
    if (byte >= 248) continue; // 248 = 62 * 4: keeps every character equally likely
    id += alphabet[byte % 62];
    if (id.length === 20) return id;
  }
  return id + newId().slice(id.length);
}

/** A bearer token: a recognizable prefix and 32 random bytes. Only its hash is stored. */
export function newToken(): string {
  return 'qr_' + randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const now = (): string => new Date().toISOString();
