import { findUserByToken } from '../../storage/tokens.js';
import type { AppContext } from '../context.js';
import { unauthorized } from '../errors.js';
import { credentialsOf } from './credentials.js';

/**
 * The caller of a git request: git sends HTTP Basic credentials, a Quire token as the password
 * (any user name; a token alone as the user name works too), and prompts for them on a 401 with
 * `WWW-Authenticate: Basic`. A Bearer header with a user's token works as on the API; a site
 * token is refused: it reads a site's published content over the API, never a repository (its
 * branches are change requests, its history unpublished drafts).
 */
export async function authenticateGit(ctx: AppContext): Promise<void> {
  const credentials = credentialsOf(ctx.get('authorization'));
  const refuse = (message: string) => {
    ctx.set('WWW-Authenticate', 'Basic realm="Quire"');
    return unauthorized(message);
  };
  if (credentials.kind === 'none') throw refuse('Authentication required: a Quire token as the password');
  if (credentials.kind === 'malformed') throw refuse('Git requests authenticate with HTTP Basic: a Quire token as the password');
  if (credentials.kind === 'site token') throw refuse('A site token reads published content over the API, not a git repository: authenticate with a Quire token');
  if (credentials.kind === 'user token') return; // checked by the space's policy, as on the API
  const caller = credentials.token ? await findUserByToken(ctx.db, credentials.token) : undefined;
  if (!caller) throw refuse('The token given as the password is not valid');
  ctx.state.caller = caller;
}
