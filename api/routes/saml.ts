import { findSamlProvider, listAllSamlProviders, listSamlProviders, type SamlProviderFields, type SamlProviderRecord } from '../../storage/samlProviders.js';
import { findTeam, type TeamRecord } from '../../storage/teams.js';
import { changeSamlProvider, createSamlProvider, providerIsUsable, removeSamlProvider, samlProviderFieldsProblem } from '../../domain/organizations/index.js';
import { actorOf, organizationOf, type AppContext, pathParam } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { inOrganization, signedIn } from '../policies/index.js';
import { presentList } from '../presenters/list.js';
import { presentSamlProvider, presentSsoLogin } from '../presenters/samlProvider.js';
import type { PageQuery } from '../schemas/common.js';
import { listQuery } from '../schemas/common.js';
import * as schemas from '../schemas/saml.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const samlRoutes = new RouteTable();
const routes = samlRoutes;

routes.get('/orgs/:organizationId/saml', 'listSAMLProvidersInOrganizationById', inOrganization('admin'), handle({ query: listQuery }, list));
routes.post('/orgs/:organizationId/saml', 'createOrganizationSAMLProvider', inOrganization('admin'), handle({ body: schemas.createSamlProvider }, create));
routes.get('/orgs/:organizationId/saml/:samlProviderId', 'getOrganizationSAMLProviderById', inOrganization('admin'), handle({}, get));
routes.patch('/orgs/:organizationId/saml/:samlProviderId', 'updateOrganizationSAMLProvider', inOrganization('admin'), handle({ body: schemas.updateSamlProvider }, update));
routes.delete('/orgs/:organizationId/saml/:samlProviderId', 'deleteOrganizationSAMLProvider', inOrganization('admin'), handle({}, remove));
routes.get('/orgs/:organizationId/sso', 'listSSOProviderLoginsInOrganization', signedIn, handle({}, listLogins));

/** Body fields → stored fields (that a default team is the organization's, the domain checks as it writes). */
function fieldsOf(body: schemas.UpdateSamlProviderBody): SamlProviderFields {
  const problem = samlProviderFieldsProblem(body);
  if (problem) throw badRequest(`Invalid request body: ${problem}`);
  return {
    label: body.label,
    entityID: body.entityID,
    certificate: body.certificate,
    ssoURL: body.ssoURL,
    defaultTeamId: body.defaultTeam,
    defaultRole: body.defaultRole,
  };
}

async function present(ctx: AppContext, provider: SamlProviderRecord) {
  const { role } = organizationOf(ctx);
  const team: TeamRecord | undefined = provider.defaultTeamId ? await findTeam(ctx.db, provider.organizationId, provider.defaultTeamId) : undefined;
  return presentSamlProvider(provider, team, role, ctx.urls);
}

async function providerOfPath(ctx: AppContext) {
  const { organization } = organizationOf(ctx);
  const provider = await findSamlProvider(ctx.db, organization.id, pathParam(ctx, 'samlProviderId'));
  if (!provider) throw notFound(`SAML provider ${ctx.params.samlProviderId} not found in organization ${organization.id}`);
  return provider;
}

async function list(ctx: AppContext, { query }: { query: PageQuery }) {
  const { organization } = organizationOf(ctx);
  const page = await listSamlProviders(ctx.db, organization.id, query);
  const items = await Promise.all(page.items.map((provider) => present(ctx, provider)));
  ctx.body = presentList({ ...page, items }, (item) => item);
}

async function create(ctx: AppContext, { body }: { body: schemas.CreateSamlProviderBody }) {
  const { organization } = organizationOf(ctx);
  const provider = await createSamlProvider(ctx.db, actorOf(ctx), organization.id, { ...fieldsOf(body), label: body.label });
  ctx.status = 201;
  ctx.body = await present(ctx, provider);
}

async function get(ctx: AppContext) {
  ctx.body = await present(ctx, await providerOfPath(ctx));
}

async function update(ctx: AppContext, { body }: { body: schemas.UpdateSamlProviderBody }) {
  const { organization } = organizationOf(ctx);
  const provider = await providerOfPath(ctx);
  const updated = await changeSamlProvider(ctx.db, actorOf(ctx), organization.id, provider.id, fieldsOf(body));
  ctx.body = await present(ctx, updated);
}

async function remove(ctx: AppContext, { params }: { params: { samlProviderId: string } }) {
  const { organization } = organizationOf(ctx);
  ctx.status = (await removeSamlProvider(ctx.db, actorOf(ctx), organization.id, params.samlProviderId)) ? 205 : 204;
}

/**
 * How to sign in to an organization: shown to anyone signed in, member or not, since it is
 * what a login page needs. Only providers that are fully configured are offered; an unknown
 * organization has none, so the answer doesn't tell whether an id exists.
 */
async function listLogins(ctx: AppContext, { params }: { params: { organizationId: string } }) {
  const providers = await listAllSamlProviders(ctx.db, params.organizationId);
  ctx.body = { items: providers.filter((provider) => providerIsUsable(provider)).map((provider) => presentSsoLogin(provider, ctx.urls)) };
}
