import { changePublishingAuth, mintSitePreview, publishingAuthOf, regeneratePublishingKey } from '../../domain/publishing/index.js';
import { siteOf } from '../../domain/sites/index.js';
import { contentDeps, organizationOf, type AppContext, pathParam } from '../context.js';
import { badRequest } from '../errors.js';
import { publishedSiteUrl } from '../presenters/site.js';
import { siteActions } from '../policies/actions.js';
import { inSite } from '../policies/index.js';
import { presentSitePublishingAuth } from '../presenters/sitePublishingAuth.js';
import * as schemas from '../schemas/sitePublishing.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const sitePublishingRoutes = new RouteTable();
const routes = sitePublishingRoutes;
const auth = '/orgs/:organizationId/sites/:siteId/publishing/auth';

// The key signs visitors in: only the site's admins see or change it.
routes.get(auth, 'getSitePublishingAuthById', inSite(siteActions.admin), handle({}, get));
routes.patch(auth, 'updateSitePublishingAuthById', inSite(siteActions.admin), handle({ body: schemas.updatePublishingAuth }, update));
routes.post(`${auth}/regenerate`, 'regenerateSitePublishingAuthById', inSite(siteActions.admin), handle({}, regenerate));
// A preview URL shows the site's spaces to whoever holds it for an hour: the role that edits the site hands them out.
routes.get('/orgs/:organizationId/sites/:siteId/publishing/preview', 'getSitePublishingPreviewById', inSite(siteActions.edit), handle({ query: schemas.previewQuery }, preview));

const theSite = (ctx: AppContext) => siteOf(ctx.db, organizationOf(ctx).organization.id, pathParam(ctx, 'siteId'));

async function get(ctx: AppContext) {
  ctx.body = presentSitePublishingAuth(await publishingAuthOf(contentDeps(ctx), await theSite(ctx)));
}

async function update(ctx: AppContext, { body }: { body: schemas.UpdatePublishingAuthBody }) {
  ctx.body = presentSitePublishingAuth(await changePublishingAuth(contentDeps(ctx), await theSite(ctx), { backend: body.backend, fallbackUrl: body.fallbackURL }));
}

async function regenerate(ctx: AppContext) {
  ctx.body = presentSitePublishingAuth(await regeneratePublishingKey(contentDeps(ctx), await theSite(ctx)));
}

/**
 * A URL that shows the site as it will be published, for an hour (`?preview=`): the site space
 * named (else the default one) at the site's address here, or `target` as given (a URL of the
 * site on a host of its own). Claims to preview with are not taken yet (upstream encodes them in Rison).
 */
async function preview(ctx: AppContext, { query }: { query: schemas.PreviewQuery }) {
  if (query.claims !== undefined) throw badRequest('"claims" is not supported yet: a preview shows the site to an anonymous visitor');
  if (query.target !== undefined && !URL.canParse(query.target)) throw badRequest(`"target" is not a URL: ${query.target}`);
  const found = await theSite(ctx);
  const { key, segments } = await mintSitePreview(contentDeps(ctx), found, query.siteSpace);
  const url = query.target !== undefined ? new URL(query.target) : new URL(segments.map((segment) => `${encodeURIComponent(segment)}/`).join(''), publishedSiteUrl(ctx.urls, found.id));
  url.searchParams.set('preview', key);
  ctx.body = { url: url.toString() };
}
