import { changeRequestOf, requestReviews, submitReview, withdrawReviewRequest, readReviewsView, readRequestedReviewersView, readContributorsView } from '../../domain/changeRequests/index.js';
import { findReview, listContributors, listRequestedReviewers, listReviews } from '../../storage/changeRequestReviews.js';
import { callerOf, contentDeps, spaceOf, type AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { spaceActions } from '../policies/actions.js';
import { inSpace } from '../policies/index.js';
import { changeRequestUrl } from '../presenters/changeRequest.js';
import { presentContributors, presentRequestedReviewers, presentReviews } from '../presenters/changeRequestReview.js';
import { presentList } from '../presenters/list.js';
import * as schemas from '../schemas/changeRequestReviews.js';
import { handle, type PathParams } from '../validate.js';
import { RouteTable } from './table.js';

export const changeRequestReviewRoutes = new RouteTable();
const routes = changeRequestReviewRoutes;
const { view, review, edit } = spaceActions;
const base = '/spaces/:spaceId/change-requests/:changeRequestId';

routes.get(`${base}/reviews`, 'getReviewsByChangeRequestId', inSpace(view), handle({ query: schemas.listReviews }, list));
routes.post(`${base}/reviews`, 'submitChangeRequestReview', inSpace(review), handle({ body: schemas.submitReview }, submit));
routes.get(`${base}/reviews/:reviewId`, 'getChangeRequestReviewById', inSpace(view), handle({ query: schemas.reviewQuery }, get));
routes.get(`${base}/requested-reviewers`, 'getRequestedReviewersByChangeRequestId', inSpace(view), handle({ query: schemas.listQuery }, listRequested));
routes.post(`${base}/requested-reviewers`, 'requestReviewersForChangeRequest', inSpace(edit), handle({ body: schemas.requestReviewers }, request));
routes.delete(`${base}/requested-reviewers/:userId`, 'removeRequestedReviewerFromChangeRequest', inSpace(edit), handle({}, withdraw));
routes.get(`${base}/contributors`, 'getContributorsByChangeRequestId', inSpace(view), handle({ query: schemas.listQuery }, contributors));

/** What every route of this file has in its path. */
type Params = PathParams<typeof base>;

const changeRequestOfPath = (ctx: AppContext, params: Params) => changeRequestOf(contentDeps(ctx), spaceOf(ctx).space, params.changeRequestId);

/** Oldest first; `outdated` filters. */
async function list(ctx: AppContext, { params, query }: { params: Params; query: schemas.ListReviewsQuery }) {
  const changeRequest = await changeRequestOfPath(ctx, params);
  const { format, outdated, ...page } = query;
  const found = await listReviews(ctx.db, changeRequest.id, { outdated }, page);
  ctx.body = presentList({ ...found, items: presentReviews(ctx, await readReviewsView(ctx.db, changeRequest, found.items), format) }, (item) => item);
}

async function submit(ctx: AppContext, { params, body }: { params: Params; body: schemas.SubmitReviewBody }) {
  const changeRequest = await changeRequestOfPath(ctx, params);
  const created = await submitReview(contentDeps(ctx), { changeRequest, reviewer: callerOf(ctx), status: body.status, comment: body.comment });
  ctx.status = 201;
  ctx.set('Location', `${changeRequestUrl(ctx.urls, changeRequest)}/reviews/${created.id}`);
  ctx.body = presentReviews(ctx, await readReviewsView(ctx.db, changeRequest, [created]))[0];
}

async function get(ctx: AppContext, { params, query }: { params: Params & { reviewId: string }; query: schemas.ReviewQuery }) {
  const changeRequest = await changeRequestOfPath(ctx, params);
  const found = await findReview(ctx.db, changeRequest.id, params.reviewId);
  if (!found) throw notFound(`Review ${params.reviewId} not found in change request ${changeRequest.number}`);
  ctx.body = presentReviews(ctx, await readReviewsView(ctx.db, changeRequest, [found]), query.format)[0];
}

async function listRequested(ctx: AppContext, { params, query }: { params: Params; query: schemas.ListQuery }) {
  const changeRequest = await changeRequestOfPath(ctx, params);
  const found = await listRequestedReviewers(ctx.db, changeRequest.id, query);
  ctx.body = presentList({ ...found, items: presentRequestedReviewers(ctx, await readRequestedReviewersView(ctx.db, found.items)) }, (item) => item);
}

async function request(ctx: AppContext, { params, body }: { params: Params; body: schemas.RequestReviewersBody }) {
  const { space } = spaceOf(ctx);
  const changeRequest = await changeRequestOfPath(ctx, params);
  const requested = await requestReviews(contentDeps(ctx), { space, changeRequest, requester: callerOf(ctx), ...body });
  ctx.body = { users: presentRequestedReviewers(ctx, await readRequestedReviewersView(ctx.db, requested)) };
}

/** 205 when a request was withdrawn, 204 when there was none, as upstream. */
async function withdraw(ctx: AppContext, { params }: { params: Params & { userId: string } }) {
  const changeRequest = await changeRequestOfPath(ctx, params);
  ctx.status = (await withdrawReviewRequest(contentDeps(ctx), changeRequest, params.userId)) ? 205 : 204;
}

/** Who wrote to the change request, most recent first. */
async function contributors(ctx: AppContext, { params, query }: { params: Params; query: schemas.ListQuery }) {
  const changeRequest = await changeRequestOfPath(ctx, params);
  const found = await listContributors(ctx.db, changeRequest.id, query);
  ctx.body = presentList({ ...found, items: presentContributors(ctx, await readContributorsView(ctx.db, found.items)) }, (item) => item);
}
