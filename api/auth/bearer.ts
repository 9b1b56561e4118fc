import type { UserRecord } from '../../storage/users.js';
import { findUserByToken } from '../../storage/tokens.js';
import type { AppContext } from '../context.js';
import { forbidden, unauthorized } from '../errors.js';
import { credentialsOf } from './credentials.js';

/** The caller of an API operation: the user whose token the `Bearer` header carries (401 without one, 403 for a site token). */
export async function authenticate(ctx: AppContext): Promise<UserRecord> {
  if (ctx.state.caller) return ctx.state.caller;
  const credentials = credentialsOf(ctx.get('authorization'));
  if (credentials.kind === 'site token') throw forbidden("A site token only reads the published content of its site: this operation needs a user's token");
  if (credentials.kind !== 'user token') {
    ctx.set('WWW-Authenticate', 'Bearer');
    throw unauthorized(credentials.kind === 'none' ? 'Authentication required: send an Authorization: Bearer <token> header' : 'The Authorization header must be "Bearer <token>"');
  }
  const caller = await findUserByToken(ctx.db, credentials.token);
  if (!caller) {
    ctx.set('WWW-Authenticate', 'Bearer error="invalid_token"');
    throw unauthorized('The bearer token is not valid');
  }
  ctx.state.caller = caller;
  return caller;
}

/** The user whose token the request carries, if it carries a valid one; never refuses. */
export async function userOfRequest(ctx: Pick<AppContext, 'db' | 'get'>): Promise<UserRecord | undefined> {
  const credentials = credentialsOf(ctx.get('authorization'));
  return credentials.kind === 'user token' ? findUserByToken(ctx.db, credentials.token) : undefined;
}
