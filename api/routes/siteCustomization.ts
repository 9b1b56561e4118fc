import type { Customization } from '../../domain/sites/index.js';
import { overrideSiteSpaceCustomization, removeSiteSpaceCustomization, replaceSiteCustomization, siteCustomization, siteOf, siteSpaceCustomization } from '../../domain/sites/index.js';
import { contentDeps, organizationOf, type AppContext, pathParam } from '../context.js';
import { siteActions } from '../policies/actions.js';
import { inSite } from '../policies/index.js';
import { presentSiteCustomization } from '../presenters/siteCustomization.js';
import * as schemas from '../schemas/siteCustomization.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const siteCustomizationRoutes = new RouteTable();
const routes = siteCustomizationRoutes;
const site = '/orgs/:organizationId/sites/:siteId';
const siteSpace = `${site}/site-spaces/:siteSpaceId/customization`;

routes.get(`${site}/customization`, 'getSiteCustomizationById', inSite(siteActions.view), handle({ query: schemas.customizationQuery }, get));
routes.put(`${site}/customization`, 'updateSiteCustomizationById', inSite(siteActions.edit), handle({ body: schemas.replaceCustomization }, replace));
routes.get(siteSpace, 'getSiteSpaceCustomizationById', inSite(siteActions.view), handle({ query: schemas.customizationQuery }, getOfSiteSpace));
routes.patch(siteSpace, 'overrideSiteSpaceCustomizationById', inSite(siteActions.edit), handle({ body: schemas.overrideCustomization }, override));
routes.delete(siteSpace, 'deleteSiteSpaceCustomizationById', inSite(siteActions.edit), handle({}, remove));

const theSite = (ctx: AppContext) => siteOf(ctx.db, organizationOf(ctx).organization.id, pathParam(ctx, 'siteId'));

async function get(ctx: AppContext) {
  ctx.body = presentSiteCustomization(await siteCustomization(contentDeps(ctx), await theSite(ctx)));
}

async function replace(ctx: AppContext, { body }: { body: unknown }) {
  ctx.body = presentSiteCustomization(await replaceSiteCustomization(contentDeps(ctx), await theSite(ctx), body as Customization));
}

async function getOfSiteSpace(ctx: AppContext, { params }: { params: { siteSpaceId: string } }) {
  ctx.body = presentSiteCustomization(await siteSpaceCustomization(contentDeps(ctx), await theSite(ctx), params.siteSpaceId));
}

async function override(ctx: AppContext, { params, body }: { params: { siteSpaceId: string }; body: unknown }) {
  ctx.body = presentSiteCustomization(await overrideSiteSpaceCustomization(contentDeps(ctx), await theSite(ctx), params.siteSpaceId, body as Customization));
}

/** 205 when the site space's overrides were removed, 204 when it had none (upstream's two answers). */
async function remove(ctx: AppContext, { params }: { params: { siteSpaceId: string } }) {
  ctx.status = (await removeSiteSpaceCustomization(contentDeps(ctx), await theSite(ctx), params.siteSpaceId)) ? 205 : 204;
}
