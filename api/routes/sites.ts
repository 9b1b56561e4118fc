import {
  changeShareLink,
  createShareLink,
  createSite,
  removeShareLink,
  removeSite,
  saveAdaptiveSchema,
  siteOf,
  templateConditions,
  updateSiteSettings,
  readSiteSpaces,
  setSitePublished,
  siteSpaceCustomizations,
} from '../../domain/sites/index.js';
import { loadSiteStructure } from '../../storage/siteStructure.js';
import { findAdaptiveSchema, findShareLink, isActiveShareKey, listShareLinks, listSites } from '../../storage/sites.js';
import { actorOf, organizationOf, type AppContext, contentDeps, callerOf, siteSpacesReaderOf, pathParam } from '../context.js';
import { notFound } from '../errors.js';
import { JsonCache } from '../jsonCache.js';
import { inOrganization, inSite } from '../policies/index.js';
import { siteActions } from '../policies/actions.js';
import { presentList } from '../presenters/list.js';
import { presentAdaptiveSchema, presentShareLink, presentSite, siteReaderOf } from '../presenters/site.js';
import { presentPublishedSite, presentStructure, siteView, siteViewKey } from '../presenters/siteStructure.js';
import { visibleStructure } from '../../domain/publishing/index.js';
import * as schemas from '../schemas/sites.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const siteRoutes = new RouteTable();
const routes = siteRoutes;
const { view, edit, admin } = siteActions;
const site = '/orgs/:organizationId/sites/:siteId';

routes.get('/orgs/:organizationId/sites', 'listSites', inOrganization(view), handle({ query: schemas.listSites }, list));
routes.post('/orgs/:organizationId/sites', 'createSite', inOrganization(edit), handle({ body: schemas.createSite }, create));
routes.get(site, 'getSiteById', inSite(view), handle({}, get));
routes.patch(site, 'updateSiteById', inSite(admin), handle({ body: schemas.updateSite }, update));
routes.delete(site, 'deleteSiteById', inSite(admin), handle({}, remove));
routes.post(`${site}/publish`, 'publishSite', inSite(admin), handle({}, publish));
routes.post(`${site}/unpublish`, 'unpublishSite', inSite(admin), handle({}, unpublish));
routes.get(`${site}/published`, 'getPublishedContentSite', inSite(view, { siteToken: true }), handle({ query: schemas.shareKeyQuery }, published));
routes.get(`${site}/structure`, 'getSiteStructure', inSite(view, { siteToken: true }), handle({ query: schemas.shareKeyQuery }, structure));
routes.get(`${site}/adaptive-schema`, 'getSiteAdaptiveSchema', inSite(view), handle({}, getAdaptiveSchema));
routes.put(`${site}/adaptive-schema`, 'updateSiteAdaptiveSchema', inSite(admin), handle({ body: schemas.updateAdaptiveSchema }, putAdaptiveSchema));
routes.get(`${site}/adaptive-schema/template-conditions`, 'listSiteAdaptiveTemplateConditions', inSite(view), handle({}, listTemplateConditions));
routes.get(`${site}/share-links`, 'listSiteShareLinks', inSite(admin), handle({ query: schemas.listShareLinks }, listLinks));
routes.post(`${site}/share-links`, 'createSiteShareLink', inSite(admin), handle({ body: schemas.createShareLink }, createLink));
routes.patch(`${site}/share-links/:shareLinkId`, 'updateSiteShareLinkById', inSite(admin), handle({ body: schemas.updateShareLink }, updateLink));
routes.delete(`${site}/share-links/:shareLinkId`, 'deleteSiteShareLinkById', inSite(admin), handle({}, removeLink));

/** The path's site, or 404. */
async function theSite(ctx: AppContext) {
  return siteOf(ctx.db, organizationOf(ctx).organization.id, pathParam(ctx, 'siteId'));
}

/** Oldest first; `type` may be given once or repeated. */
async function list(ctx: AppContext, { query }: { query: schemas.ListSitesQuery }) {
  const { organization } = organizationOf(ctx);
  const { space, title, published, type, ...page } = query;
  const types = type === undefined ? undefined : Array.isArray(type) ? type : [type];
  ctx.body = presentList(await listSites(ctx.db, organization.id, { space, title, published, type: types }, page), (item) => presentSite(item, ctx.urls, siteReaderOf(ctx)));
}

async function create(ctx: AppContext, { body }: { body: schemas.CreateSiteBody }) {
  const { organization } = organizationOf(ctx);
  const id = await createSite(
    ctx.db,
    { organizationId: organization.id, type: body.type ?? 'basic', title: body.title ?? 'Untitled site', visibility: body.visibility ?? 'public', spaceIds: body.spaces ?? [] },
    callerOf(ctx).id,
  );
  const created = await siteOf(ctx.db, organization.id, id);
  ctx.status = 201;
  ctx.set('Location', presentSite(created, ctx.urls, siteReaderOf(ctx)).urls.location);
  ctx.body = presentSite(created, ctx.urls, siteReaderOf(ctx));
}

async function get(ctx: AppContext) {
  ctx.body = presentSite(await theSite(ctx), ctx.urls, siteReaderOf(ctx));
}

async function update(ctx: AppContext, { body }: { body: schemas.UpdateSiteBody }) {
  const before = await theSite(ctx);
  await updateSiteSettings(contentDeps(ctx), actorOf(ctx), before, body);
  ctx.body = presentSite(await theSite(ctx), ctx.urls, siteReaderOf(ctx));
}

/** 205 when the site was deleted, 204 when there was none (as upstream). */
async function remove(ctx: AppContext, { params }: { params: { siteId: string } }) {
  const { organization } = organizationOf(ctx);
  ctx.status = (await removeSite(ctx.db, organization.id, params.siteId)) ? 205 : 204;
}

async function publish(ctx: AppContext) {
  await setSitePublished(contentDeps(ctx), actorOf(ctx), await theSite(ctx), true);
  ctx.body = presentSite(await theSite(ctx), ctx.urls, siteReaderOf(ctx));
}

async function unpublish(ctx: AppContext) {
  await setSitePublished(contentDeps(ctx), actorOf(ctx), await theSite(ctx), false);
  ctx.body = presentSite(await theSite(ctx), ctx.urls, siteReaderOf(ctx));
}

/** The key counts only when it is an active key of this site's own links. */
async function validShareKey(ctx: AppContext, siteId: string, shareKey: string | undefined): Promise<string | undefined> {
  return shareKey !== undefined && (await isActiveShareKey(ctx.db, siteId, shareKey)) ? shareKey : undefined;
}

// A published profile is kept under the hash of everything it is made of (siteViewKey), within the cache budget.
const publishedProfiles = new JsonCache('published profiles');

/**
 * The site as the caller sees it: a member, all of it (with the share key given, if active); a
 * site token, what its visitor's claims let through, with the token's share key.
 */
async function publishedView(ctx: AppContext, shareKeyGiven: string | undefined) {
  const found = await theSite(ctx);
  const token = ctx.state.siteToken;
  const [loaded, shareKey] = await Promise.all([loadSiteStructure(ctx.db, found.id), token ? token.shareKey : validShareKey(ctx, found.id, shareKeyGiven)]);
  const structure = token ? visibleStructure(loaded, token.claims ?? {}) : loaded;
  const [spaces, customizations] = await Promise.all([
    readSiteSpaces(contentDeps(ctx), found, structure, await siteSpacesReaderOf(ctx)),
    siteSpaceCustomizations(
      contentDeps(ctx),
      found,
      structure.siteSpaces.map((siteSpace) => siteSpace.id),
    ),
  ]);
  return siteView(ctx, found, spaces, shareKey, customizations);
}

async function published(ctx: AppContext, { query }: { query: schemas.ShareKeyQuery }) {
  const view = await publishedView(ctx, query.shareKey);
  ctx.type = 'application/json';
  ctx.body = publishedProfiles.get(`${view.site.id}:${siteViewKey(view)}`, () => presentPublishedSite(view));
}

async function structure(ctx: AppContext, { query }: { query: schemas.ShareKeyQuery }) {
  ctx.body = presentStructure(await publishedView(ctx, query.shareKey));
}

async function getAdaptiveSchema(ctx: AppContext) {
  const found = await theSite(ctx);
  const schema = await findAdaptiveSchema(ctx.db, found.id);
  if (!schema) throw notFound(`Site ${found.id} has no adaptive schema`);
  ctx.body = presentAdaptiveSchema(schema);
}

async function putAdaptiveSchema(ctx: AppContext, { body }: { body: schemas.UpdateAdaptiveSchemaBody }) {
  const found = await theSite(ctx);
  ctx.body = presentAdaptiveSchema(await saveAdaptiveSchema(ctx.db, found.id, body.jsonSchema));
}

/** One suggestion per claim of the schema; none without a schema. */
async function listTemplateConditions(ctx: AppContext) {
  const schema = await findAdaptiveSchema(ctx.db, (await theSite(ctx)).id);
  ctx.body = { items: schema ? templateConditions(schema.jsonSchema) : [] };
}

async function listLinks(ctx: AppContext, { query }: { query: schemas.ListShareLinksQuery }) {
  const found = await theSite(ctx);
  ctx.body = presentList(await listShareLinks(ctx.db, found.id, query), (link) => presentShareLink(found, link, ctx.urls));
}

async function createLink(ctx: AppContext, { body }: { body: schemas.CreateShareLinkBody }) {
  const found = await theSite(ctx);
  const link = await createShareLink(ctx.db, found.id, body.name);
  ctx.status = 201;
  ctx.set('Location', ctx.urls.api(`/orgs/${found.organizationId}/sites/${found.id}/share-links/${link.id}`));
  ctx.body = presentShareLink(found, link, ctx.urls);
}

async function updateLink(ctx: AppContext, { params, body }: { params: { shareLinkId: string }; body: schemas.UpdateShareLinkBody }) {
  const found = await theSite(ctx);
  const shareLinkId = params.shareLinkId;
  if (!(await findShareLink(ctx.db, found.id, shareLinkId))) throw notFound(`Share link ${shareLinkId} not found`);
  ctx.body = presentShareLink(found, await changeShareLink(ctx.db, found.id, shareLinkId, body), ctx.urls);
}

/** 204 whether or not the link existed (API.md). */
async function removeLink(ctx: AppContext, { params }: { params: { shareLinkId: string } }) {
  const found = await theSite(ctx);
  await removeShareLink(ctx.db, found.id, params.shareLinkId);
  ctx.status = 204;
}
