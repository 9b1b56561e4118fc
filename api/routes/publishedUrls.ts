import { mintSiteToken, resolvePublishedUrl, type PublishedVisitor } from '../../domain/publishing/index.js';
import { contentDeps, type AppContext } from '../context.js';
import { anyone, callerReadsSpace } from '../policies/index.js';
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
  await answer(ctx, query.url, { jwt: query.visitorAuthToken, redirectOnError: query.redirectOnError });
}

async function lookupByBody(ctx: AppContext, { body }: { body: schemas.ResolveUrlBody }) {
  await answer(ctx, body.url, { jwt: body.visitor?.jwtToken, unsignedClaims: body.visitor?.unsignedClaims, redirectOnError: body.redirectOnError });
}

async function answer(ctx: AppContext, url: string, visitor: PublishedVisitor) {
  const found = await resolvePublishedUrl(contentDeps(ctx), { url, publicBase: ctx.urls.base, visitor, mayPreview: (spaceId) => callerReadsSpace(ctx, spaceId) });
  ctx.body = 'redirect' in found ? { target: found.target, redirect: found.redirect } : presentPublishedContent(found, await mintSiteToken(contentDeps(ctx), found));
}
