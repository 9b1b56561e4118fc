import { looksLikeJwt } from '../../domain/publishing/index.js';

/**
 * What an `Authorization` header carries, read once and the same way everywhere: a user's token
 * (`Bearer <token>`), a site token (`Bearer <JWT>`, domain/publishing), HTTP Basic credentials
 * whose password (or, alone, user name) is a user's token (git), nothing, or something else.
 */
export type Credentials = { kind: 'none' } | { kind: 'user token'; token: string } | { kind: 'site token'; token: string } | { kind: 'basic'; token: string } | { kind: 'malformed' };

const bearer = /^Bearer\s+(\S+)\s*$/i;
const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i;

export function credentialsOf(header: string | undefined): Credentials {
  if (!header) return { kind: 'none' };
  const token = bearer.exec(header)?.[1];
  if (token) return looksLikeJwt(token) ? { kind: 'site token', token } : { kind: 'user token', token };
  const encoded = basic.exec(header)?.[1];
  if (!encoded) return { kind: 'malformed' };
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return { kind: 'basic', token: colon === -1 ? decoded : decoded.slice(colon + 1) || decoded.slice(0, colon) };
}
