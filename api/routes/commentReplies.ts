import { changeRequestCommentPlace, commentOf, type CommentPlace, postReply, removeReply, replyOf, spaceCommentPlace, updateReply, readRepliesView } from '../../domain/comments/index.js';
import { listReplies } from '../../storage/commentReplies.js';
import { callerOf, contentDeps, spaceOf, type AppContext, pathParam } from '../context.js';
import { commentActions } from '../policies/actions.js';
import { inSpace } from '../policies/index.js';
import { presentOneReply, presentReplies } from '../presenters/discussion.js';
import { commentRights } from '../presenters/comment.js';
import { presentList } from '../presenters/list.js';
import * as schemas from '../schemas/comments.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const commentReplyRoutes = new RouteTable();
const routes = commentReplyRoutes;
const { view, post } = commentActions;

/** How a route finds the place its comments live in: the space of the path, or a change request of it. */
type PlaceOf = (ctx: AppContext) => Promise<CommentPlace>;
const inTheSpace: PlaceOf = async (ctx) => spaceCommentPlace(spaceOf(ctx).space.id);
const inTheChangeRequest: PlaceOf = (ctx) => changeRequestCommentPlace(ctx.db, spaceOf(ctx).space.id, pathParam(ctx, 'changeRequestId'));
const replies = '/spaces/:spaceId/comments/:commentId/replies';

routes.get(replies, 'listCommentRepliesInSpace', inSpace(view), handle({ query: schemas.listReplies }, list(inTheSpace)));
routes.post(replies, 'postCommentReplyInSpace', inSpace(post), handle({ body: schemas.postReply }, create(inTheSpace)));
routes.get(`${replies}/:commentReplyId`, 'getCommentReplyInSpace', inSpace(view), handle({ query: schemas.formatQuery }, get(inTheSpace)));
routes.put(`${replies}/:commentReplyId`, 'updateCommentReplyInSpace', inSpace(post), handle({ body: schemas.updateReply }, update(inTheSpace)));
routes.delete(`${replies}/:commentReplyId`, 'deleteCommentReplyInSpace', inSpace(post), handle({}, remove(inTheSpace)));

// Upstream's reply post in a change request also takes `format`.
const inChangeRequest = '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies';
routes.get(inChangeRequest, 'listCommentRepliesInChangeRequest', inSpace(view), handle({ query: schemas.listReplies }, list(inTheChangeRequest)));
routes.post(inChangeRequest, 'postCommentReplyInChangeRequest', inSpace(post), handle({ query: schemas.formatQuery, body: schemas.postReply }, create(inTheChangeRequest, { formatted: true })));
routes.get(`${inChangeRequest}/:commentReplyId`, 'getCommentReplyInChangeRequest', inSpace(view), handle({ query: schemas.formatQuery }, get(inTheChangeRequest)));
routes.put(`${inChangeRequest}/:commentReplyId`, 'updateCommentReplyInChangeRequest', inSpace(post), handle({ body: schemas.updateReply }, update(inTheChangeRequest)));
routes.delete(`${inChangeRequest}/:commentReplyId`, 'deleteCommentReplyInChangeRequest', inSpace(post), handle({}, remove(inTheChangeRequest)));

const rightsOf = (ctx: AppContext) => commentRights(spaceOf(ctx).role);

const idsOf = (ctx: AppContext) => ({ commentId: pathParam(ctx, 'commentId'), replyId: pathParam(ctx, 'commentReplyId') });

/** A comment's replies, oldest first: a conversation reads from the top. */
function list(placeOf: PlaceOf) {
  return async (ctx: AppContext, { query }: { query: schemas.ListRepliesQuery }) => {
    const comment = await commentOf(ctx.db, await placeOf(ctx), pathParam(ctx, 'commentId'));
    const page = await listReplies(ctx.db, comment.id, { page: query.page, limit: query.limit });
    const items = presentReplies(ctx, await readRepliesView(ctx.db, comment, page.items), query.format);
    ctx.body = presentList({ ...page, items }, (item) => item);
  };
}

function create(placeOf: PlaceOf, options: { formatted?: boolean } = {}) {
  return async (ctx: AppContext, { body, query }: { body: schemas.PostReplyBody; query: Partial<schemas.FormatQuery> }) => {
    const { comment, reply } = await postReply(contentDeps(ctx), await placeOf(ctx), callerOf(ctx), pathParam(ctx, 'commentId'), body);
    ctx.body = presentOneReply(ctx, await readRepliesView(ctx.db, comment, [reply]), options.formatted ? query.format : undefined);
  };
}

function get(placeOf: PlaceOf) {
  return async (ctx: AppContext, { query }: { query: schemas.FormatQuery }) => {
    const { comment, reply } = await replyOf(ctx.db, await placeOf(ctx), idsOf(ctx));
    ctx.body = presentOneReply(ctx, await readRepliesView(ctx.db, comment, [reply]), query.format);
  };
}

function update(placeOf: PlaceOf) {
  return async (ctx: AppContext, { body }: { body: schemas.UpdateReplyBody }) => {
    const { comment, reply } = await updateReply(contentDeps(ctx), await placeOf(ctx), callerOf(ctx), rightsOf(ctx), idsOf(ctx), body);
    ctx.body = presentOneReply(ctx, await readRepliesView(ctx.db, comment, [reply]));
  };
}

/** 204 whether or not the reply was there, like a comment's delete. */
function remove(placeOf: PlaceOf) {
  return async (ctx: AppContext) => {
    await removeReply(contentDeps(ctx), await placeOf(ctx), callerOf(ctx), rightsOf(ctx), idsOf(ctx));
    ctx.status = 204;
  };
}
