import type { CommentRights } from '../../domain/comments/index.js';
import type { ReactionRecord } from '../../storage/commentReactions.js';
import type { CommentReplyRecord, Replier } from '../../storage/commentReplies.js';
import type { CommentBody, CommentRecord } from '../../storage/comments.js';
import type { MemberRole } from '../../storage/members.js';
import type { UserRecord } from '../../storage/users.js';
import { commentActions } from '../policies/actions.js';
import { atLeast } from '../policies/roles.js';
import type { Urls } from '../urls.js';
import { presentUser } from './user.js';

export type BodyFormat = 'markdown' | 'document';

/** What presenting comments needs beyond their rows: who asks, how, and the people and reactions they name. */
export interface CommentView {
  caller: { id: string; role: MemberRole };
  format: BodyFormat;
  urls: Urls;
  user: (id: string) => UserRecord;
  reactions: (id: string) => ReactionRecord[];
}

/** The path of a comment under its space, or under its change request. */
export function commentPath(comment: Pick<CommentRecord, 'id' | 'spaceId' | 'changeRequestId'>): string {
  const parent = comment.changeRequestId ? `/spaces/${comment.spaceId}/change-requests/${comment.changeRequestId}` : `/spaces/${comment.spaceId}`;
  return `${parent}/comments/${comment.id}`;
}

export function presentComment(comment: CommentRecord, replies: { count: number; repliers: Replier[] }, view: CommentView) {
  return {
    object: 'comment' as const,
    ...presentPost(comment, view),
    replies: replies.count,
    repliers: replies.repliers.map((replier) => ({ updatedAt: replier.updatedAt, count: replier.count, user: presentUser(view.user(replier.userId), view.urls) })),
    target: {
      space: comment.spaceId,
      revision: comment.revision,
      ...(comment.changeRequestId ? { changeRequest: comment.changeRequestId } : {}),
      ...(comment.pageId ? { page: { id: comment.pageId } } : {}),
      ...(comment.nodeId ? { node: { id: comment.nodeId } } : {}),
      ...(comment.tableCell ? { tableCell: { record: comment.tableCell.record, definition: comment.tableCell.definition } } : {}),
    },
    urls: { location: view.urls.api(commentPath(comment)) },
    ...(comment.status === 'resolved' && comment.resolvedAt && comment.resolvedBy
      ? { status: 'resolved' as const, resolvedAt: comment.resolvedAt, resolvedBy: presentUser(view.user(comment.resolvedBy), view.urls) }
      : { status: 'open' as const }),
  };
}

export function presentReply(reply: CommentReplyRecord, comment: CommentRecord, view: CommentView) {
  return {
    object: 'comment-reply' as const,
    ...presentPost(reply, view),
    urls: { location: view.urls.api(`${commentPath(comment)}/replies/${reply.id}`) },
  };
}

/** What comments and replies share: who posted, when, the body, the reactions, and what the caller may do. */
function presentPost(post: { id: string; postedBy: string; postedAt: string; editedAt: string | null; body: CommentBody }, view: CommentView) {
  return {
    id: post.id,
    postedBy: presentUser(view.user(post.postedBy), view.urls),
    postedAt: post.postedAt,
    ...(post.editedAt ? { editedAt: post.editedAt } : {}),
    reactions: presentReactions(view.reactions(post.id), view),
    body: presentBody(post.body, view.format),
    permissions: permissionsOn(post.postedBy, view),
  };
}

/** The rights the comment commands take beyond posting, from the caller's role on the space: the same actions the flags below show. */
export function commentRights(role: MemberRole): CommentRights {
  return { moderate: atLeast(role, commentActions.moderate), resolve: atLeast(role, commentActions.resolve) };
}

/** What the caller may do with a comment or reply, from the same actions the routes and commands enforce. */
function permissionsOn(authorId: string, view: CommentView) {
  const { id, role } = view.caller;
  const poster = atLeast(role, commentActions.post);
  const own = authorId === id && poster;
  const moderator = atLeast(role, commentActions.moderate);
  return { view: atLeast(role, commentActions.view), edit: own || moderator, reply: poster, delete: own || moderator };
}

function presentReactions(reactions: ReactionRecord[], view: CommentView) {
  return reactions.map((reaction) => ({
    emoji: reaction.emoji,
    count: reaction.users.length,
    users: reaction.users.map((entry) => ({ user: presentUser(view.user(entry.userId), view.urls), reactedAt: entry.reactedAt })),
  }));
}

function presentBody(body: CommentBody, format: BodyFormat) {
  return format === 'markdown' ? { markdown: body.markdown } : { document: JSON.parse(body.document) as unknown };
}
