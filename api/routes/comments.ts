import { changeRequestCommentPlace, commentersOf, commentOf, type CommentPlace, deleteComment, postComment, spaceCommentPlace, updateComment, readCommentsView } from '../../domain/comments/index.js';
import { listComments } from '../../storage/comments.js';
import { callerOf, contentDeps, spaceOf, type AppContext, pathParam } from '../context.js';
import { commentActions } from '../policies/actions.js';
import { inSpace } from '../policies/index.js';
import { presentComments, presentOneComment } from '../presenters/discussion.js';
import { commentRights } from '../presenters/comment.js';
import { presentList } from '../presenters/list.js';
import * as schemas from '../schemas/comments.js';
import { listQuery, type PageQuery } from '../schemas/common.js';
import { presentMember } from '../presenters/member.js';
import { spaceCounts, spaceCountsOfMembers as countsOf } from '../../domain/organizations/index.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const commentRoutes = new RouteTable();
const routes = commentRoutes;
const { view, post } = commentActions;

/** How a route finds the place its comments live in: the space of the path, or a change request of it. */
type PlaceOf = (ctx: AppContext) => Promise<CommentPlace>;
const inTheSpace: PlaceOf = async (ctx) => spaceCommentPlace(spaceOf(ctx).space.id);
const inTheChangeRequest: PlaceOf = (ctx) => changeRequestCommentPlace(ctx.db, spaceOf(ctx).space.id, pathParam(ctx, 'changeRequestId'));

routes.get('/spaces/:spaceId/commenters', 'listCommentersInSpace', inSpace(view), handle({ query: listQuery }, commenters(inTheSpace)));
routes.get('/spaces/:spaceId/change-requests/:changeRequestId/commenters', 'listCommentersInChangeRequest', inSpace(view), handle({ query: listQuery }, commenters(inTheChangeRequest)));
routes.get('/spaces/:spaceId/comments', 'listCommentsInSpace', inSpace(view), handle({ query: schemas.listComments }, list(inTheSpace)));
routes.post('/spaces/:spaceId/comments', 'postCommentInSpace', inSpace(post), handle({ body: schemas.postComment }, create(inTheSpace)));
routes.get('/spaces/:spaceId/comments/:commentId', 'getCommentInSpace', inSpace(view), handle({ query: schemas.formatQuery }, get(inTheSpace)));
routes.put('/spaces/:spaceId/comments/:commentId', 'updateCommentInSpace', inSpace(post), handle({ body: schemas.updateComment }, update(inTheSpace)));
routes.delete('/spaces/:spaceId/comments/:commentId', 'deleteCommentInSpace', inSpace(post), handle({}, remove(inTheSpace)));

const inChangeRequest = '/spaces/:spaceId/change-requests/:changeRequestId/comments';
routes.get(inChangeRequest, 'listCommentsInChangeRequest', inSpace(view), handle({ query: schemas.listComments }, list(inTheChangeRequest)));
routes.post(inChangeRequest, 'postCommentInChangeRequest', inSpace(post), handle({ body: schemas.postComment }, create(inTheChangeRequest)));
routes.get(`${inChangeRequest}/:commentId`, 'getCommentInChangeRequest', inSpace(view), handle({ query: schemas.formatQuery }, get(inTheChangeRequest)));
routes.put(`${inChangeRequest}/:commentId`, 'updateCommentInChangeRequest', inSpace(post), handle({ body: schemas.updateComment }, update(inTheChangeRequest)));
routes.delete(`${inChangeRequest}/:commentId`, 'deleteCommentInChangeRequest', inSpace(post), handle({}, remove(inTheChangeRequest)));

const rightsOf = (ctx: AppContext) => commentRights(spaceOf(ctx).role);

function list(placeOf: PlaceOf) {
  return async (ctx: AppContext, { query }: { query: schemas.ListCommentsQuery }) => {
    const { page, limit, order, status, format, targetPage, authors } = query;
    const filter = { status, pageId: targetPage, authors: authors === undefined ? undefined : typeof authors === 'string' ? [authors] : authors };
    const comments = await listComments(ctx.db, await placeOf(ctx), filter, { page, limit, order });
    const items = presentComments(ctx, await readCommentsView(ctx.db, comments.items), format);
    ctx.body = presentList({ ...comments, items }, (item) => item);
  };
}

/** Who commented there, as organization members. */
function commenters(placeOf: PlaceOf) {
  return async (ctx: AppContext, { query }: { query: PageQuery }) => {
    const { space } = spaceOf(ctx);
    const page = await commentersOf(ctx.db, space.organizationId, await placeOf(ctx), query);
    const spaces = await spaceCounts(ctx.db, space.organizationId);
    const counts = await countsOf(spaces, page.items);
    ctx.body = presentList(page, (member) => presentMember(member, counts.get(member.user.id)!, ctx.urls));
  };
}

function create(placeOf: PlaceOf) {
  return async (ctx: AppContext, { body }: { body: schemas.PostCommentBody }) => {
    const comment = await postComment(contentDeps(ctx), await placeOf(ctx), callerOf(ctx), body);
    ctx.body = presentOneComment(ctx, await readCommentsView(ctx.db, [comment]));
  };
}

function get(placeOf: PlaceOf) {
  return async (ctx: AppContext, { query }: { query: schemas.FormatQuery }) => {
    const comment = await commentOf(ctx.db, await placeOf(ctx), pathParam(ctx, 'commentId'));
    ctx.body = presentOneComment(ctx, await readCommentsView(ctx.db, [comment]), query.format);
  };
}

function update(placeOf: PlaceOf) {
  return async (ctx: AppContext, { body }: { body: schemas.UpdateCommentBody }) => {
    const comment = await updateComment(contentDeps(ctx), await placeOf(ctx), callerOf(ctx), rightsOf(ctx), pathParam(ctx, 'commentId'), body);
    ctx.body = presentOneComment(ctx, await readCommentsView(ctx.db, [comment]));
  };
}

/** 204 whether or not the comment was there, as the specification says. */
function remove(placeOf: PlaceOf) {
  return async (ctx: AppContext) => {
    await deleteComment(contentDeps(ctx), await placeOf(ctx), callerOf(ctx), rightsOf(ctx), pathParam(ctx, 'commentId'));
    ctx.status = 204;
  };
}
