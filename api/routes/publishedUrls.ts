import { mintSiteToken, resolvePublishedUrl } from '../../domain/publishing/index.js';
import { contentDeps, type AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { anyone } from '../policies/index.js';
import { presentPublishedContent } from '../presenters/publishedContent.js';
import * as schemas from '../schemas/publishedUrls.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const publishedUrlRoutes = new RouteTable();
const routes = publishedUrlRoutes;

// Anyone may ask which published content a URL shows: what it answers is what a visitor of that URL sees.
routes.get('/urls/published', 'getPublishedContentByUrl', anyone, handle({ query: schemas.resolveUrlQuery }, lookupByQuery));
routes.post('/urls/published', 'resolvePublishedContentByUrl', anyone, handle({ body: schemas.resolveUrl }, lookupByBody));

async function lookupByQuery(ctx: AppContext, { query }: { query: schemas.ResolveUrlQuery }) {
  if (query.visitorAuthToken !== undefined) throw badRequest('Visitor authentication tokens are not accepted yet: Quire serves public, unlisted and share-link sites');
  await answer(ctx, query.url, {});
}

async function lookupByBody(ctx: AppContext, { body }: { body: schemas.ResolveUrlBody }) {
  if (body.visitor?.jwtToken !== undefined) throw badRequest('"visitor.jwtToken" is not accepted yet: Quire serves public, unlisted and share-link sites');
  await answer(ctx, body.url, body.visitor?.unsignedClaims ? { unsigned: body.visitor.unsignedClaims } : {});
}

async function answer(ctx: AppContext, url: string, claims: Record<string, unknown>) {
  const found = await resolvePublishedUrl(contentDeps(ctx), { url, publicBase: ctx.urls.base, claims });
  ctx.body = 'redirect' in found ? { target: 'content', redirect: found.redirect } : presentPublishedContent(found, await mintSiteToken(contentDeps(ctx), found));
}
