import { changeRequestOf, createChangeRequest, editChangeRequest, readChangeRequestView } from '../../domain/changeRequests/index.js';
import { builtInTemplate } from '../../domain/spaces/index.js';
import { listChangeRequests } from '../../storage/changeRequests.js';
import { organizationAccess } from '../../domain/organizations/index.js';
import { callerOf, contentDeps, organizationOf, spaceOf, type AppContext, grantsOf } from '../context.js';
import { spaceActions } from '../policies/actions.js';
import { inOrganization, inSpace } from '../policies/index.js';
import { changeRequestUrl, presentChangeRequestView } from '../presenters/changeRequest.js';
import { presentList } from '../presenters/list.js';
import * as schemas from '../schemas/changeRequests.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const changeRequestRoutes = new RouteTable();
const routes = changeRequestRoutes;
const { view, edit } = spaceActions;

routes.get('/spaces/:spaceId/change-requests', 'listChangeRequestsForSpace', inSpace(view), handle({ query: schemas.listChangeRequests }, listInSpace));
routes.post('/spaces/:spaceId/change-requests', 'createChangeRequest', inSpace(edit), handle({ body: schemas.createChangeRequest }, create));
routes.get('/spaces/:spaceId/change-requests/:changeRequestId', 'getChangeRequestById', inSpace(view), handle({}, get));
routes.patch('/spaces/:spaceId/change-requests/:changeRequestId', 'updateChangeRequestById', inSpace(edit), handle({ body: schemas.updateChangeRequest }, update));
routes.get('/orgs/:organizationId/change-requests', 'listChangeRequestsForOrganization', inOrganization(null), handle({ query: schemas.listChangeRequests }, listInOrganization));

/** Newest first. */
async function listInSpace(ctx: AppContext, { query }: { query: schemas.ListChangeRequestsQuery }) {
  const { space } = spaceOf(ctx);
  const { page, limit, status, ...filter } = query;
  const found = await listChangeRequests(ctx.db, { spaceIds: [space.id] }, { status, ...filter }, { page, limit, order: 'desc' });
  ctx.body = presentList(
    { ...found, items: await Promise.all(found.items.map((item) => readChangeRequestView(contentDeps(ctx), item).then((view) => presentChangeRequestView(view, ctx.urls)))) },
    (item) => item,
  );
}

/** Those of the spaces the caller can reach, newest first. */
async function listInOrganization(ctx: AppContext, { query }: { query: schemas.ListChangeRequestsQuery }) {
  const { organization, role } = organizationOf(ctx);
  const reachable = (await organizationAccess(ctx.db, organization.id, role, await grantsOf(ctx))).spaces;
  const { page, limit, status, ...filter } = query;
  const found = await listChangeRequests(ctx.db, { spaceIds: [...reachable.keys()] }, { status, ...filter }, { page, limit, order: 'desc' });
  ctx.body = presentList(
    { ...found, items: await Promise.all(found.items.map((item) => readChangeRequestView(contentDeps(ctx), item).then((view) => presentChangeRequestView(view, ctx.urls)))) },
    (item) => item,
  );
}

async function create(ctx: AppContext, { body }: { body: schemas.CreateChangeRequestBody }) {
  const { space } = spaceOf(ctx);
  const template = body.template ? builtInTemplate(body.template.id) : null;
  const changeRequest = await createChangeRequest(contentDeps(ctx), {
    space,
    subject: body.subject ?? '',
    template,
    creator: callerOf(ctx),
    conversationsIssuesCluster: body.conversationsIssuesCluster,
  });
  ctx.status = 201;
  ctx.set('Location', changeRequestUrl(ctx.urls, changeRequest));
  ctx.body = presentChangeRequestView(await readChangeRequestView(contentDeps(ctx), changeRequest), ctx.urls);
}

async function get(ctx: AppContext, { params }: { params: { changeRequestId: string } }) {
  const { space } = spaceOf(ctx);
  ctx.body = presentChangeRequestView(await readChangeRequestView(contentDeps(ctx), await changeRequestOf(contentDeps(ctx), space, params.changeRequestId)), ctx.urls);
}

async function update(ctx: AppContext, { params, body }: { params: { changeRequestId: string }; body: schemas.UpdateChangeRequestBody }) {
  const { space } = spaceOf(ctx);
  const changeRequest = await changeRequestOf(contentDeps(ctx), space, params.changeRequestId);
  ctx.body = presentChangeRequestView(await readChangeRequestView(contentDeps(ctx), await editChangeRequest(contentDeps(ctx), changeRequest, body, space.organizationId)), ctx.urls);
}
