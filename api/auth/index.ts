import type { Database } from '../../storage/db.js';
import { findUserByToken } from '../../storage/tokens.js';
import { credentialsOf } from './credentials.js';

/**
 * Who the caller is, apart from what they may do (api/policies): one module per way in, the
 * Authorization header read by one parser (credentials.ts).
 */
export { authenticate, userOfRequest } from './bearer.js';
export { authenticateGit } from './gitBasic.js';
export { siteTokenOf } from './siteToken.js';
export { credentialsOf, type Credentials } from './credentials.js';

/**
 * Whom a request counts against for the rate limit: the user a valid token names (Bearer on the
 * API, Basic on git), else the address it comes from. A token that doesn't authenticate is no
 * identity: made-up tokens share their sender's address, and hold no entry of their own. A site
 * token isn't one either: anyone may mint them.
 */
export async function rateLimitKey(db: Database, authorization: string | undefined, address: string | undefined): Promise<string> {
  const credentials = credentialsOf(authorization);
  const user = credentials.kind === 'user token' || credentials.kind === 'basic' ? await findUserByToken(db, credentials.token) : undefined;
  return user ? `user:${user.id}` : `address:${address}`;
}
