import { organizationOfSubdomain } from '../../domain/organizations/index.js';
import { readCustomHostname, removeCustomHostname, revalidateCustomHostname, siteOfHostname } from '../../domain/sites/index.js';
import { contentDeps, type AppContext } from '../context.js';
import { siteActions } from '../policies/actions.js';
import { onCustomHostname, signedIn } from '../policies/index.js';
import { presentCustomHostname, presentSubdomain } from '../presenters/customHostname.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

// A site's own hostname and whether DNS sends it to this Quire (docs/sites.md, "Custom
// hostnames"); who holds an organization subdomain.
export const customHostnameRoutes = new RouteTable();
const routes = customHostnameRoutes;

routes.get('/custom-hostnames/:hostname', 'getCustomHostname', onCustomHostname(siteActions.view), handle({}, get));
routes.patch('/custom-hostnames/:hostname', 'dnsRevalidateCustomHostname', onCustomHostname(siteActions.admin), handle({}, revalidate));
routes.delete('/custom-hostnames/:hostname', 'removeCustomHostname', onCustomHostname(siteActions.admin), handle({}, remove));
routes.get('/subdomains/:subdomain', 'getSubdomain', signedIn, handle({}, subdomain));

/** Where the hostname should point: this server's own public host. */
const quireHost = (ctx: AppContext) => new URL(ctx.urls.base).hostname.replace(/^\[|\]$/g, '');

async function get(ctx: AppContext, { params }: { params: { hostname: string } }) {
  const site = await siteOfHostname(ctx.db, params.hostname);
  ctx.body = presentCustomHostname(await readCustomHostname(ctx.db, site, quireHost(ctx)), ctx.urls);
}

async function revalidate(ctx: AppContext, { params }: { params: { hostname: string } }) {
  await revalidateCustomHostname(ctx.db, await siteOfHostname(ctx.db, params.hostname), quireHost(ctx));
  ctx.status = 204;
}

async function remove(ctx: AppContext, { params }: { params: { hostname: string } }) {
  await removeCustomHostname(contentDeps(ctx), await siteOfHostname(ctx.db, params.hostname));
  ctx.status = 204;
}

async function subdomain(ctx: AppContext, { params }: { params: { subdomain: string } }) {
  ctx.body = presentSubdomain(await organizationOfSubdomain(ctx.db, params.subdomain));
}
