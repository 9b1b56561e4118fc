import { changeSiteRedirect, createSiteRedirect, redirectOfSource, removeSiteRedirect } from '../../domain/publishing/index.js';
import { siteOf } from '../../domain/sites/index.js';
import { isActiveShareKey } from '../../storage/sites.js';
import { listSiteRedirects, type RedirectDestination } from '../../storage/siteRedirects.js';
import { contentDeps, organizationOf, type AppContext, pathParam } from '../context.js';
import { notFound } from '../errors.js';
import { siteActions } from '../policies/actions.js';
import { inSite } from '../policies/index.js';
import { presentList } from '../presenters/list.js';
import { publishedSiteUrl } from '../presenters/site.js';
import { presentSiteRedirect } from '../presenters/siteRedirect.js';
import * as schemas from '../schemas/siteRedirects.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const siteRedirectRoutes = new RouteTable();
const routes = siteRedirectRoutes;
const site = '/orgs/:organizationId/sites/:siteId';
const redirect = `${site}/redirects/:siteRedirectId`;

routes.get(`${site}/redirects`, 'listSiteRedirects', inSite(siteActions.view), handle({ query: schemas.listRedirects }, list));
routes.post(`${site}/redirects`, 'createSiteRedirect', inSite(siteActions.edit), handle({ body: schemas.createRedirect }, create));
routes.patch(redirect, 'updateSiteRedirectById', inSite(siteActions.edit), handle({ body: schemas.updateRedirect }, update));
routes.delete(redirect, 'deleteSiteRedirectById', inSite(siteActions.edit), handle({}, remove));
routes.get(`${site}/redirect`, 'getSiteRedirectBySource', inSite(siteActions.view, { siteToken: true }), handle({ query: schemas.redirectBySource }, bySource));

const theSite = (ctx: AppContext) => siteOf(ctx.db, organizationOf(ctx).organization.id, pathParam(ctx, 'siteId'));

async function list(ctx: AppContext, { query }: { query: schemas.ListRedirectsQuery }) {
  const found = await theSite(ctx);
  ctx.body = presentList(await listSiteRedirects(ctx.db, found.id, query.search || undefined, query), presentSiteRedirect);
}

async function create(ctx: AppContext, { body }: { body: schemas.CreateRedirectBody }) {
  const created = await createSiteRedirect(contentDeps(ctx), await theSite(ctx), { source: body.source, destination: body.destination as RedirectDestination });
  ctx.status = 201;
  ctx.body = presentSiteRedirect(created);
}

async function update(ctx: AppContext, { params, body }: { params: { siteRedirectId: string }; body: schemas.UpdateRedirectBody }) {
  const changes = { ...(body.source !== undefined ? { source: body.source } : {}), ...(body.destination !== undefined ? { destination: body.destination as RedirectDestination } : {}) };
  ctx.body = presentSiteRedirect(await changeSiteRedirect(contentDeps(ctx), await theSite(ctx), params.siteRedirectId, changes));
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
  const target = new URL(`${publishedSiteUrl(ctx.urls, found.id)}${leads.segments.map(encodeURIComponent).join('/')}`);
  if (shareKey) target.searchParams.set('share', shareKey);
  ctx.body = { redirect: presentSiteRedirect(leads.redirect), target: target.toString() };
}
