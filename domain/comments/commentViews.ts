import { reactionsOf, type ReactionRecord } from '../../storage/commentReactions.js';
import { replySummaries, type CommentReplyRecord, type Replier } from '../../storage/commentReplies.js';
import { commentPeople, type CommentRecord } from '../../storage/comments.js';
import type { Queryable } from '../../storage/db.js';
import type { UserRecord } from '../../storage/users.js';
import { peopleLookup } from '../common/people.js';

export interface ReplySummary {
  count: number;
  repliers: Replier[];
}

/** Comments or replies with what their presentation shows beside them: reactions and the people named. */
export interface DiscussionView {
  /** Every user the items name (posters, resolvers, reactors, repliers); an account that is gone answers as a former user. */
  user: (id: string) => UserRecord;
  reactions: (id: string) => ReactionRecord[];
}

export interface CommentsView extends DiscussionView {
  comments: CommentRecord[];
  replies: (commentId: string) => ReplySummary;
}

export interface RepliesView extends DiscussionView {
  comment: CommentRecord;
  replies: CommentReplyRecord[];
}

const reactorsOf = (reactions: Map<string, ReactionRecord[]>) => [...reactions.values()].flat().flatMap((reaction) => reaction.users.map((entry) => entry.userId));

/** Comments with their reactions, repliers and people, loaded in a few queries for the whole list. */
export async function readCommentsView(db: Queryable, comments: CommentRecord[]): Promise<CommentsView> {
  const ids = comments.map((comment) => comment.id);
  const [reactions, replies] = await Promise.all([reactionsOf(db, 'comment', ids), replySummaries(db, ids)]);
  const people = await commentPeople(db, [
    ...comments.flatMap((comment) => [comment.postedBy, ...(comment.resolvedBy ? [comment.resolvedBy] : [])]),
    ...reactorsOf(reactions),
    ...[...replies.values()].flatMap((summary) => summary.repliers.map((replier) => replier.userId)),
  ]);
  return {
    comments,
    replies: (id) => replies.get(id) ?? { count: 0, repliers: [] },
    reactions: (id) => reactions.get(id) ?? [],
    user: peopleLookup(people),
  };
}

/** Replies of one comment, with their reactions and people. */
export async function readRepliesView(db: Queryable, comment: CommentRecord, replies: CommentReplyRecord[]): Promise<RepliesView> {
  const reactions = await reactionsOf(
    db,
    'reply',
    replies.map((reply) => reply.id),
  );
  const people = await commentPeople(db, [...replies.map((reply) => reply.postedBy), ...reactorsOf(reactions)]);
  return { comment, replies, reactions: (id) => reactions.get(id) ?? [], user: peopleLookup(people) };
}
