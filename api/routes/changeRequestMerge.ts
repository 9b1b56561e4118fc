import { changeRequestOf, mergeChangeRequest, updateChangeRequestFromPrimary } from '../../domain/changeRequests/index.js';
import { actorOf, callerOf, contentDeps, spaceOf, type AppContext } from '../context.js';
import { spaceActions } from '../policies/actions.js';
import { inSpace } from '../policies/index.js';
import { presentMergeOutcome } from '../presenters/mergeResult.js';
import * as schemas from '../schemas/changeRequestMerge.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const changeRequestMergeRoutes = new RouteTable();
const routes = changeRequestMergeRoutes;
const base = '/spaces/:spaceId/change-requests/:changeRequestId';

routes.post(`${base}/merge`, 'mergeChangeRequest', inSpace(spaceActions.merge), handle({}, merge));
routes.post(`${base}/update`, 'updateChangeRequest', inSpace(spaceActions.edit), handle({ body: schemas.updateFromPrimary }, update));

/** 200 with `result: 'merge'`, or `result: 'conflicts'` and the conflicting pages (nothing moved). */
async function merge(ctx: AppContext, { params }: { params: { changeRequestId: string } }) {
  const { space } = spaceOf(ctx);
  const changeRequest = await changeRequestOf(contentDeps(ctx), space, params.changeRequestId);
  ctx.body = presentMergeOutcome(await mergeChangeRequest(contentDeps(ctx), { space, changeRequest, author: callerOf(ctx), actor: actorOf(ctx) }));
}

async function update(ctx: AppContext, { params, body }: { params: { changeRequestId: string }; body: schemas.UpdateFromPrimaryBody }) {
  const { space } = spaceOf(ctx);
  const changeRequest = await changeRequestOf(contentDeps(ctx), space, params.changeRequestId);
  ctx.body = presentMergeOutcome(await updateChangeRequestFromPrimary(contentDeps(ctx), { space, changeRequest, author: callerOf(ctx), resolve: body?.resolve }));
}
