import { createHash, randomBytes } from 'node:crypto';

const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function base62(bytes: Uint8Array, length: number): string {
  let id = '';
  for (const byte of bytes) {
    if (byte >= 248) continue; // keeps every character equally likely
    id += alphabet[byte % 62];
    if (id.length === length) break;
  }
  return id;
}

/** A new random id for a page or file Quire creates. */
export function newContentId(): string {
  let id = '';
  while (id.length < 20) id += base62(randomBytes(32), 20 - id.length);
  return id;
}

/**
 * The id of content that arrived through git without one: derived from what it is and where,
 * so every reader of the same commit gives it the same id.
 */
export function derivedContentId(kind: 'page' | 'file' | 'group' | 'reusable-content', key: string): string {
  let id = '';
  for (let round = 0; id.length < 20; round += 1) {
    id += base62(createHash('sha256').update(`${kind}:${round}:${key}`).digest(), 20 - id.length);
  }
  return id;
}
