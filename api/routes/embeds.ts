import { embedOfUrl } from '../../domain/embeds/index.js';
import type { AppContext } from '../context.js';
import { spaceActions } from '../policies/actions.js';
import { inSpace, signedIn } from '../policies/index.js';
import * as schemas from '../schemas/embeds.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const embedRoutes = new RouteTable();
const routes = embedRoutes;

// Resolving an embed fetches a stranger's URL: upstream lets anyone ask, Quire only its users
// (and, in a space, the site tokens that read it), so the server is no anonymous fetcher.
routes.get('/urls/embed', 'getEmbedByUrl', signedIn, handle({ query: schemas.embedQuery }, embed));
routes.get('/spaces/:spaceId/embed', 'getEmbedByUrlInSpace', inSpace(spaceActions.view), handle({ query: schemas.embedQuery }, embed));

async function embed(ctx: AppContext, { query }: { query: schemas.EmbedQuery }) {
  ctx.body = await embedOfUrl(query.url);
}
