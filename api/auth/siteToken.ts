import { readSiteToken, type SiteToken } from '../../domain/publishing/index.js';
import { contentDeps, type AppContext } from '../context.js';
import { unauthorized } from '../errors.js';
import { credentialsOf } from './credentials.js';

/** The site token the request carries as its bearer (a JWT), checked; undefined for any other credential, 401 for one that isn't valid. */
export async function siteTokenOf(ctx: AppContext): Promise<SiteToken | undefined> {
  const credentials = credentialsOf(ctx.get('authorization'));
  if (credentials.kind !== 'site token') return undefined;
  const token = await readSiteToken(contentDeps(ctx), credentials.token);
  if (!token) {
    ctx.set('WWW-Authenticate', 'Bearer error="invalid_token"');
    throw unauthorized('The site token is not valid or has expired: resolve the URL again for a new one');
  }
  return token;
}
