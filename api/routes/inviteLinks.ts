import { findCollection } from '../../storage/collections.js';
import type { GrantTarget } from '../../storage/contentGrants.js';
import type { Queryable } from '../../storage/db.js';
import { findInviteLink, listInviteLinks, type InviteTarget } from '../../storage/inviteLinks.js';
import { findSpace } from '../../storage/spaces.js';
import type { MemberRole } from '../../storage/members.js';
import { acceptInviteLink, changeInviteLinkRole, createInviteLink, openInviteLink, removeInviteLink } from '../../domain/organizations/index.js';
import { actorOf, callerOf, organizationOf, type AppContext, pathParam } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { inOrganization, signedIn } from '../policies/index.js';
import { presentInviteLink } from '../presenters/inviteLink.js';
import { presentList } from '../presenters/list.js';
import { listQuery, type PageQuery } from '../schemas/common.js';
import * as schemas from '../schemas/inviteLinks.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const inviteLinkRoutes = new RouteTable();
const routes = inviteLinkRoutes;

routes.get('/orgs/:organizationId/link-invites', 'listOrganizationInviteLinks', inOrganization('admin'), handle({ query: listQuery }, list));
routes.post('/orgs/:organizationId/link-invites', 'createOrganizationInvite', inOrganization('admin'), handle({ body: schemas.createInviteLink }, create));
routes.get('/orgs/:organizationId/link-invites/:inviteId', 'getOrganizationInviteLink', inOrganization('admin'), handle({}, get));
routes.patch('/orgs/:organizationId/link-invites/:inviteId', 'updateOrganizationInviteById', inOrganization('admin'), handle({ body: schemas.updateInviteLink }, update));
routes.delete('/orgs/:organizationId/link-invites/:inviteId', 'deleteOrganizationInviteById', inOrganization('admin'), handle({}, remove));
routes.post('/orgs/:organizationId/invites/:inviteId', 'joinOrganizationWithInvite', signedIn, handle({}, join));

async function inviteOfPath(ctx: AppContext) {
  const { organization } = organizationOf(ctx);
  const invite = await findInviteLink(ctx.db, organization.id, pathParam(ctx, 'inviteId'));
  if (!invite) throw notFound(`Invite link ${ctx.params.inviteId} not found in organization ${organization.id}`);
  return invite;
}

async function list(ctx: AppContext, { query }: { query: PageQuery }) {
  const { organization } = organizationOf(ctx);
  const page = await listInviteLinks(ctx.db, organization.id, query);
  ctx.body = presentList(page, (invite) => presentInviteLink(invite, organization));
}

async function create(ctx: AppContext, { body }: { body: schemas.CreateInviteLinkBody }) {
  const { organization } = organizationOf(ctx);
  let target: InviteTarget = { kind: 'organization' };
  let role: MemberRole | null;
  if (body.space !== undefined || body.collection !== undefined) {
    if (body.space !== undefined && body.collection !== undefined) throw badRequest('An invite goes to a space or to a collection, not both');
    if (body.role !== undefined) throw badRequest('An invite to a space or collection takes "level", not "role"');
    if (body.level === undefined) throw badRequest('"level" is required with "space" or "collection"');
    if (body.level === null) throw badRequest('"level" must be a role for an invite to a space or collection: it is what the link grants there');
    target = await contentTarget(ctx.db, organization.id, body.space !== undefined ? { kind: 'space', id: body.space } : { kind: 'collection', id: body.collection! });
    role = body.level;
  } else {
    if (body.level !== undefined) throw badRequest('"level" goes with "space" or "collection"; an organization invite takes "role"');
    if (body.role === undefined) throw badRequest('"role" is required');
    role = body.role;
  }
  const invite = await createInviteLink(ctx.db, { organizationId: organization.id, target, role, createdBy: callerOf(ctx).id });
  ctx.status = 201;
  ctx.body = presentInviteLink(invite, organization);
}

/** The space or collection an invite names, if it is a live one of the organization (400 otherwise). */
async function contentTarget(db: Queryable, organizationId: string, target: GrantTarget): Promise<GrantTarget> {
  const found = target.kind === 'space' ? await findSpace(db, target.id) : await findCollection(db, target.id);
  if (!found || found.organizationId !== organizationId) throw badRequest(`${target.kind === 'space' ? 'Space' : 'Collection'} ${target.id} not found in this organization`);
  return target;
}

async function get(ctx: AppContext) {
  const { organization } = organizationOf(ctx);
  ctx.body = presentInviteLink(await inviteOfPath(ctx), organization);
}

async function update(ctx: AppContext, { body }: { body: schemas.UpdateInviteLinkBody }) {
  const { organization } = organizationOf(ctx);
  const invite = await inviteOfPath(ctx);
  const key = invite.target.kind === 'organization' ? 'role' : 'level';
  const value = body[key];
  if (value === undefined) throw badRequest(`"${key}" is required for this invite`);
  if (key === 'level' && value === null) throw badRequest('"level" must be a role for an invite to a space or collection: it is what the link grants there');
  ctx.body = presentInviteLink(await changeInviteLinkRole(ctx.db, organization.id, invite.id, value), organization);
}

async function remove(ctx: AppContext, { params }: { params: { inviteId: string } }) {
  const { organization } = organizationOf(ctx);
  ctx.status = (await removeInviteLink(ctx.db, organization.id, params.inviteId)) ? 205 : 204;
}

/** Accepts an invite link (domain/organizations: acceptInviteLink), if the organization has them on. */
async function join(ctx: AppContext, { params }: { params: { organizationId: string; inviteId: string } }) {
  const caller = callerOf(ctx);
  const { invite } = await openInviteLink(ctx.db, params.organizationId, params.inviteId);
  await acceptInviteLink(ctx.db, actorOf(ctx), invite, caller.id);
  ctx.body = {};
}
