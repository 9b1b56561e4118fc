import type { CommentsView, DiscussionView, RepliesView } from '../../domain/comments/index.js';
import { callerOf, spaceOf, type AppContext } from '../context.js';
import { presentComment, presentReply, type BodyFormat, type CommentView } from './comment.js';

/** How the caller sees what a domain read returned (domain/comments: readCommentsView, readRepliesView). */
function commentView(ctx: AppContext, discussion: DiscussionView, format: BodyFormat): CommentView {
  return { caller: { id: callerOf(ctx).id, role: spaceOf(ctx).role }, format, urls: ctx.urls, user: discussion.user, reactions: discussion.reactions };
}

export function presentComments(ctx: AppContext, view: CommentsView, format: BodyFormat = 'markdown') {
  const shown = commentView(ctx, view, format);
  return view.comments.map((comment) => presentComment(comment, view.replies(comment.id), shown));
}

/** The one comment of a view read for it. */
export const presentOneComment = (ctx: AppContext, view: CommentsView, format?: BodyFormat) => presentComments(ctx, view, format)[0]!;

export function presentReplies(ctx: AppContext, view: RepliesView, format: BodyFormat = 'markdown') {
  const shown = commentView(ctx, view, format);
  return view.replies.map((reply) => presentReply(reply, view.comment, shown));
}

export const presentOneReply = (ctx: AppContext, view: RepliesView, format?: BodyFormat) => presentReplies(ctx, view, format)[0]!;
