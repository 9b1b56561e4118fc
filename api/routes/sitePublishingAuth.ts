import { changePublishingAuth, publishingAuthOf, regeneratePublishingKey } from '../../domain/publishing/index.js';
import { siteOf } from '../../domain/sites/index.js';
import { contentDeps, organizationOf, type AppContext } from '../context.js';
import { siteActions } from '../policies/actions.js';
import { inOrganization } from '../policies/index.js';
import { presentSitePublishingAuth } from '../presenters/sitePublishingAuth.js';
import * as schemas from '../schemas/sitePublishingAuth.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const sitePublishingAuthRoutes = new RouteTable();
const routes = sitePublishingAuthRoutes;
const auth = '/orgs/:organizationId/sites/:siteId/publishing/auth';

// The key signs visitors in: only the site's admins see or change it.
routes.get(auth, 'getSitePublishingAuthById', inOrganization(siteActions.admin), handle({}, get));
routes.patch(auth, 'updateSitePublishingAuthById', inOrganization(siteActions.admin), handle({ body: schemas.updatePublishingAuth }, update));
routes.post(`${auth}/regenerate`, 'regenerateSitePublishingAuthById', inOrganization(siteActions.admin), handle({}, regenerate));

const theSite = (ctx: AppContext) => siteOf(ctx.db, organizationOf(ctx).organization.id, ctx.params.siteId ?? '');

async function get(ctx: AppContext) {
  ctx.body = presentSitePublishingAuth(await publishingAuthOf(contentDeps(ctx), await theSite(ctx)));
}

async function update(ctx: AppContext, { body }: { body: schemas.UpdatePublishingAuthBody }) {
  ctx.body = presentSitePublishingAuth(await changePublishingAuth(contentDeps(ctx), await theSite(ctx), { backend: body.backend, fallbackUrl: body.fallbackURL }));
}

async function regenerate(ctx: AppContext) {
  ctx.body = presentSitePublishingAuth(await regeneratePublishingKey(contentDeps(ctx), await theSite(ctx)));
}
