import { reactionsOf } from '../../storage/commentReactions.js';
import { replySummaries, type CommentReplyRecord } from '../../storage/commentReplies.js';
import { commentPeople, type CommentRecord } from '../../storage/comments.js';
import type { Queryable } from '../../storage/db.js';
import type { UserRecord } from '../../storage/users.js';
import { callerOf, spaceOf, type AppContext } from '../context.js';
import { presentComment, presentReply, type BodyFormat, type CommentView } from './comment.js';

/** Comments as the API shows them, with their reactions, repliers and people loaded in a few queries for the whole list. */
export async function presentCommentsOf(ctx: AppContext, comments: CommentRecord[], format: BodyFormat = 'markdown') {
  const ids = comments.map((comment) => comment.id);
  const [reactions, replies] = await Promise.all([reactionsOf(ctx.db, 'comment', ids), replySummaries(ctx.db, ids)]);
  const people = [
    ...comments.flatMap((comment) => [comment.postedBy, ...(comment.resolvedBy ? [comment.resolvedBy] : [])]),
    ...[...reactions.values()].flat().flatMap((reaction) => reaction.users.map((entry) => entry.userId)),
    ...[...replies.values()].flatMap((summary) => summary.repliers.map((replier) => replier.userId)),
  ];
  const view = await viewOf(ctx, ctx.db, people, format, (id) => reactions.get(id) ?? []);
  return comments.map((comment) => presentComment(comment, replies.get(comment.id) ?? { count: 0, repliers: [] }, view));
}

export async function presentCommentOf(ctx: AppContext, comment: CommentRecord, format?: BodyFormat) {
  return (await presentCommentsOf(ctx, [comment], format))[0]!;
}

/** Replies of one comment, with their reactions and people. */
export async function presentRepliesOf(ctx: AppContext, comment: CommentRecord, replies: CommentReplyRecord[], format: BodyFormat = 'markdown') {
  const reactions = await reactionsOf(
    ctx.db,
    'reply',
    replies.map((reply) => reply.id),
  );
  const people = [...replies.map((reply) => reply.postedBy), ...[...reactions.values()].flat().flatMap((reaction) => reaction.users.map((entry) => entry.userId))];
  const view = await viewOf(ctx, ctx.db, people, format, (id) => reactions.get(id) ?? []);
  return replies.map((reply) => presentReply(reply, comment, view));
}

export async function presentReplyOf(ctx: AppContext, comment: CommentRecord, reply: CommentReplyRecord, format?: BodyFormat) {
  return (await presentRepliesOf(ctx, comment, [reply], format))[0]!;
}

async function viewOf(ctx: AppContext, db: Queryable, people: string[], format: BodyFormat, reactions: CommentView['reactions']): Promise<CommentView> {
  const users = await commentPeople(db, people);
  return {
    caller: { id: callerOf(ctx).id, role: spaceOf(ctx).role },
    format,
    urls: ctx.urls,
    user: (id) => users.get(id) ?? formerUser(id),
    reactions,
  };
}

/** Someone whose account is gone still has an id to show. */
function formerUser(id: string): UserRecord {
  return { id, displayName: 'Former user', email: '', emailVerified: false, photoURL: null, createdAt: '' };
}
