import { findAgentInstructions } from '../../storage/agentInstructions.js';
import { findMember } from '../../storage/members.js';
import { listOrganizationsOfUser, listOrganizationsWithEmailDomain, type OrganizationRecord } from '../../storage/organizations.js';
import type { MemberRole } from '../../storage/members.js';
import { joinOrganization, recordMemberSeen, setAgentInstructions, updateOrganization } from '../../domain/organizations/index.js';
import { startOrganization } from '../../domain/onboarding/index.js';
import { actorOf, callerOf, jobDeps, organizationOf, type AppContext } from '../context.js';
import { badRequest, forbidden } from '../errors.js';
import { encodeJson } from '../jsonCache.js';
import { inOrganization, signedIn } from '../policies/index.js';
import { presentAgentInstructions } from '../presenters/agentInstructions.js';
import { presentList } from '../presenters/list.js';
import { presentOrganization } from '../presenters/organization.js';
import * as schemas from '../schemas/organizations.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const organizationRoutes = new RouteTable();
const routes = organizationRoutes;

routes.get('/orgs', 'listOrganizationsForAuthenticatedUser', signedIn, handle({ query: schemas.listQuery }, listOrganizations));
routes.post('/orgs', 'createOrganization', signedIn, handle({ query: schemas.createOrganizationQuery, body: schemas.createOrganization }, create));
routes.get('/orgs/:organizationId', 'getOrganizationById', inOrganization(null), handle({}, get));
routes.light('getOrganizationById');
routes.patch('/orgs/:organizationId', 'updateOrganizationById', inOrganization('admin'), handle({ body: schemas.updateOrganization }, update));
routes.post('/orgs/:organizationId/join', 'joinOrganization', signedIn, handle({}, join));
routes.post('/orgs/:organizationId/ping', 'updateOrganizationMemberLastSeenAt', inOrganization(null), handle({}, ping));
routes.get('/orgs/:organizationId/agent-instructions', 'getOrganizationAgentInstructions', inOrganization('read'), handle({}, getInstructions));
routes.put('/orgs/:organizationId/agent-instructions', 'updateOrganizationAgentInstructions', inOrganization('admin'), handle({ body: schemas.updateAgentInstructions }, putInstructions));
routes.get('/email-domains/:emailDomain/orgs', 'getOrganizationsForEmailDomain', signedIn, handle({}, byEmailDomain));

async function listOrganizations(ctx: AppContext, { query }: { query: schemas.ListQuery }) {
  const caller = callerOf(ctx);
  const page = await listOrganizationsOfUser(ctx.db, caller.id, query);
  ctx.body = presentList(page, ({ organization, role }) => presentOrganization(organization, role, ctx.urls));
}

async function create(ctx: AppContext, { query, body }: { query: schemas.CreateOrganizationQuery; body: schemas.CreateOrganizationBody }) {
  if (ctx.config.organizationCreation === 'operators') {
    throw forbidden('On this instance only operators create organizations (QUIRE_ORG_CREATION=operators): ask one to run `npm run admin -- org create`');
  }
  const { organization } = await startOrganization(jobDeps(ctx), {
    title: body.title,
    owner: callerOf(ctx),
    ...(body.emailDomains ? { emailDomains: body.emailDomains } : {}),
    withDefaultSite: query.withDefaultSite ?? false,
    ...(query.openapiUrl ? { openapiUrl: query.openapiUrl } : {}),
  });
  const presented = presentOrganization(organization, 'admin', ctx.urls);
  ctx.status = 201;
  ctx.set('Location', presented.urls.location);
  ctx.body = presented;
}

/** An organization's JSON by the caller's role, kept while its record is the read cache's (a write to it reads a new one). */
const encodedOrganizations = new WeakMap<OrganizationRecord, Map<MemberRole | null, Buffer>>();

async function get(ctx: AppContext) {
  const { organization, role } = organizationOf(ctx);
  let byRole = encodedOrganizations.get(organization);
  if (!byRole) encodedOrganizations.set(organization, (byRole = new Map()));
  let encoded = byRole.get(role);
  if (!encoded) byRole.set(role, (encoded = encodeJson(presentOrganization(organization, role, ctx.urls))));
  ctx.type = 'application/json';
  ctx.body = encoded;
}

async function update(ctx: AppContext, { body }: { body: schemas.UpdateOrganizationRequest }) {
  const { organization, role } = organizationOf(ctx);
  // The schema lets `mergeRules` of type `rules` leave `rules` out, which the command refuses (400).
  const updated = await updateOrganization(ctx.db, organization, body as schemas.UpdateOrganizationBody);
  ctx.body = presentOrganization(updated, role, ctx.urls);
}

/** Joins when the caller's verified email domain is one the organization allows (upstream answers 400 otherwise). */
async function join(ctx: AppContext, { params }: { params: { organizationId: string } }) {
  const caller = callerOf(ctx);
  const organizationId = params.organizationId;
  // A member has nothing to join, whatever their email domain.
  if (await findMember(ctx.db, organizationId, caller.id)) {
    ctx.status = 204;
    return;
  }
  const domain = caller.email.split('@')[1] ?? '';
  const candidates = await listOrganizationsWithEmailDomain(ctx.db, domain);
  const organization = candidates.find((candidate) => candidate.id === organizationId);
  if (!organization) {
    // Reveal only that the caller can't join by domain, not whether the organization exists.
    throw badRequest(`Your email domain "${domain}" is not one that organization ${organizationId} accepts`);
  }
  if (!caller.emailVerified) throw badRequest(`Your email address ${caller.email} is not verified, so its domain can't be used to join`);
  await joinOrganization(ctx.db, actorOf(ctx), { organizationId: organization.id, userId: caller.id, role: organization.defaultRole });
  ctx.status = 204;
}

async function ping(ctx: AppContext) {
  const { organization } = organizationOf(ctx);
  await recordMemberSeen(ctx.db, organization.id, callerOf(ctx).id);
  ctx.body = {};
}

async function getInstructions(ctx: AppContext) {
  const { organization } = organizationOf(ctx);
  const instructions = (await findAgentInstructions(ctx.db, organization.id)) ?? {
    organizationId: organization.id,
    document: { object: 'document', data: {}, nodes: [] },
    updatedAt: organization.createdAt,
    updatedBy: organization.createdBy,
  };
  ctx.body = presentAgentInstructions(instructions, ctx.urls);
}

async function putInstructions(ctx: AppContext, { body: { instructions } }: { body: { instructions: Record<string, unknown> } }) {
  const { organization } = organizationOf(ctx);
  const stored = await setAgentInstructions(ctx.db, organization.id, { data: {}, ...instructions }, callerOf(ctx).id);
  ctx.body = presentAgentInstructions(stored, ctx.urls);
}

/** Organizations that accept an email domain: only for the caller's own domain, so it can't be used to enumerate. */
async function byEmailDomain(ctx: AppContext, { params }: { params: { emailDomain: string } }) {
  const caller = callerOf(ctx);
  const domain = params.emailDomain.toLowerCase();
  if (!new RegExp(schemas.emailDomainParam.pattern).test(domain)) throw badRequest(`"${params.emailDomain}" is not an email domain`);
  if (caller.email.split('@')[1] !== domain) throw forbidden(`You can look up organizations only for your own email domain`);
  if (!caller.emailVerified) throw forbidden(`Your email address ${caller.email} is not verified, so its domain can't be used`);
  const organizations = await listOrganizationsWithEmailDomain(ctx.db, domain);
  const roles = await Promise.all(organizations.map((organization) => findMember(ctx.db, organization.id, caller.id)));
  ctx.body = { organizations: organizations.map((organization, i) => presentOrganization(organization, roles[i] ? roles[i].role : undefined, ctx.urls)) };
}
