import { changeSiteRedirect, createSiteRedirect, redirectOfSource, removeSiteRedirect, upsertSiteRedirects, type BulkRedirect, type RedirectInputDestination } from '../../domain/publishing/index.js';
import { siteOf } from '../../domain/sites/index.js';
import { isActiveShareKey } from '../../storage/sites.js';
import { listSiteRedirects } from '../../storage/siteRedirects.js';
import { contentDeps, organizationOf, type AppContext, pathParam } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { siteActions } from '../policies/actions.js';
import { inSite } from '../policies/index.js';
import { presentList } from '../presenters/list.js';
import { publishedSiteUrl } from '../presenters/site.js';
import { presentBulkOutcomes, presentSiteRedirect } from '../presenters/siteRedirect.js';
import * as schemas from '../schemas/siteRedirects.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const siteRedirectRoutes = new RouteTable();
const routes = siteRedirectRoutes;
const site = '/orgs/:organizationId/sites/:siteId';
const redirect = `${site}/redirects/:siteRedirectId`;

routes.get(`${site}/redirects`, 'listSiteRedirects', inSite(siteActions.view), handle({ query: schemas.listRedirects }, list));
routes.put(`${site}/redirects`, 'bulkUpsertSiteRedirects', inSite(siteActions.edit), handle({ body: schemas.bulkRedirects }, bulk));
routes.post(`${site}/redirects`, 'createSiteRedirect', inSite(siteActions.edit), handle({ body: schemas.createRedirect }, create));
routes.patch(redirect, 'updateSiteRedirectById', inSite(siteActions.edit), handle({ body: schemas.updateRedirect }, update));
routes.delete(redirect, 'deleteSiteRedirectById', inSite(siteActions.edit), handle({}, remove));
routes.get(`${site}/redirect`, 'getSiteRedirectBySource', inSite(siteActions.view, { siteToken: true }), handle({ query: schemas.redirectBySource }, bySource));

const theSite = (ctx: AppContext) => siteOf(ctx.db, organizationOf(ctx).organization.id, pathParam(ctx, 'siteId'));

async function list(ctx: AppContext, { query }: { query: schemas.ListRedirectsQuery }) {
  const found = await theSite(ctx);
  const { search, orderBy, draft, ...page } = query;
  // Quire keeps no draft redirects: the drafts are none.
  if (draft) return void (ctx.body = presentList({ items: [], count: 0 }, presentSiteRedirect));
  ctx.body = presentList(await listSiteRedirects(ctx.db, found.id, { search: search || undefined, orderBy }, page), presentSiteRedirect);
}

/** Quire keeps no draft redirects: one asked for is refused, whatever else the body says. */
function refuseDraft(draft: boolean | undefined) {
  if (draft) throw badRequest('"draft": Quire has no draft redirects: create the redirect live');
}

async function create(ctx: AppContext, { body }: { body: schemas.CreateRedirectBody }) {
  refuseDraft(body.draft);
  const { draft: _draft, ...input } = body;
  const created = await createSiteRedirect(contentDeps(ctx), await theSite(ctx), { ...input, destination: body.destination as RedirectInputDestination });
  ctx.status = 201;
  ctx.body = presentSiteRedirect(created);
}

async function update(ctx: AppContext, { params, body }: { params: { siteRedirectId: string }; body: schemas.UpdateRedirectBody }) {
  refuseDraft(body.draft);
  const { draft: _draft, destination, ...changes } = body;
  ctx.body = presentSiteRedirect(
    await changeSiteRedirect(contentDeps(ctx), await theSite(ctx), params.siteRedirectId, {
      ...changes,
      ...(destination !== undefined ? { destination: destination as RedirectInputDestination } : {}),
    }),
  );
}

/** Many redirects by source at once (domain upsertSiteRedirects): each one's result, errors included. */
async function bulk(ctx: AppContext, { body }: { body: schemas.BulkRedirectsBody }) {
  ctx.body = presentBulkOutcomes(await upsertSiteRedirects(contentDeps(ctx), await theSite(ctx), body.redirects as BulkRedirect[]));
}

async function remove(ctx: AppContext, { params }: { params: { siteRedirectId: string } }) {
  await removeSiteRedirect(ctx, await theSite(ctx), params.siteRedirectId);
  ctx.status = 204;
}

/** The redirect of a source path and the URL it leads to (with the share key given, when active; a site token's own). */
async function bySource(ctx: AppContext, { query }: { query: schemas.RedirectBySourceQuery }) {
  const found = await theSite(ctx);
  const leads = await redirectOfSource(contentDeps(ctx), found, query.source);
  if (!leads) throw notFound(`Site ${found.id} has no redirect from ${query.source}`);
  const shareKey = ctx.state.siteToken ? ctx.state.siteToken.shareKey : query.shareKey !== undefined && (await isActiveShareKey(ctx.db, found.id, query.shareKey)) ? query.shareKey : undefined;
  const target = new URL('url' in leads ? leads.url : `${publishedSiteUrl(ctx.urls, found.id)}${leads.segments.map(encodeURIComponent).join('/')}`);
  if (shareKey && !('url' in leads)) target.searchParams.set('share', shareKey);
  ctx.body = { redirect: presentSiteRedirect(leads.redirect), target: target.toString() };
}
