import { findPageById } from '../../engine/index.js';
import { changeReactions } from '../../storage/commentReactions.js';
import { deleteReply, findReply, insertReply, updateReplyBody, type CommentReplyRecord } from '../../storage/commentReplies.js';
import { listCommenters, deleteComment as deleteCommentRow, findComment, insertComment, updateComment as updateCommentRow, type CommentRecord, type CommentScope } from '../../storage/comments.js';
import type { Queryable } from '../../storage/db.js';
import { commentBody, type CommentBodyInput } from './commentBodies.js';
import type { ContentDeps } from '../common/deps.js';
import { invalidInput, missing, notAllowed } from '../common/errors.js';
import { readSpaceRevision } from '../spaces/index.js';
import type { MemberRecord } from '../../storage/members.js';
import type { Page, PageRequest } from '../../storage/pagination.js';

/** Where comments are posted: a space (read at its primary branch) or a change request (read at its branch). */
export interface CommentPlace extends CommentScope {
  /** The branch whose head a comment's target is read from. */
  ref: string;
  /** "space" or "change request", for messages. */
  label: string;
}

/** What the caller may do beyond posting, from their role (decided by the API's policies). */
export interface CommentRights {
  /** Edit and delete anyone's comments and replies. */
  moderate: boolean;
  /** Resolve and reopen anyone's comments (authors always may their own). */
  resolve: boolean;
}

export interface Caller {
  id: string;
}

export interface NewCommentInput {
  body: CommentBodyInput;
  page?: string;
  node?: string;
  tableCell?: { record: string; definition: string };
}

/** Posts a comment on the place, a page of it, or a block node or table cell of a page. */
export async function postComment(deps: ContentDeps, place: CommentPlace, caller: Caller, input: NewCommentInput): Promise<CommentRecord> {
  const body = await commentBody(input.body, 'A comment');
  if ((input.node !== undefined || input.tableCell !== undefined) && input.page === undefined) {
    throw invalidInput(`A comment on a ${input.node !== undefined ? 'block node' : 'table cell'} needs the "page" it is on`);
  }
  const revision = await readSpaceRevision(deps, place.spaceId, place.ref);
  if (input.page !== undefined && findPageById(revision, input.page)?.kind !== 'document') {
    throw invalidInput(`"page" ${input.page} is not a page of the ${place.label}`);
  }
  return insertComment(deps.db, place, {
    pageId: input.page ?? null,
    nodeId: input.node ?? null,
    tableCell: input.tableCell ?? null,
    revision: revision.commit,
    postedBy: caller.id,
    body,
  });
}

export interface CommentUpdate {
  body?: CommentBodyInput;
  resolved?: boolean;
  addedReactions?: string[];
  removedReactions?: string[];
}

/** Edits (author or moderator), resolves or reopens (author or resolver) and reacts (anyone who may post), in one transaction. */
export async function updateComment(deps: ContentDeps, place: CommentPlace, caller: Caller, rights: CommentRights, commentId: string, update: CommentUpdate): Promise<CommentRecord> {
  // A missing comment is a 404 whatever the request holds; the body is converted outside the write lock.
  await commentOf(deps.db, place, commentId);
  const body = update.body && (await commentBody(update.body, 'A comment'));
  const reactions = reactionChange(update);
  return deps.db.transaction(async (tx) => {
    const comment = await commentOf(tx, place, commentId);
    const author = comment.postedBy === caller.id;
    if (body && !author && !rights.moderate) throw notAllowed('Only its author or an admin of the space may edit a comment');
    if (update.resolved !== undefined && !author && !rights.resolve) {
      throw notAllowed(`${update.resolved ? 'Resolving' : 'Reopening'} someone else's comment needs the edit role on the space`);
    }
    await updateCommentRow(tx, comment, { body, resolved: update.resolved === undefined ? undefined : { value: update.resolved, by: caller.id } });
    await changeReactions(tx, 'comment', comment.id, caller.id, reactions);
    return (await findComment(tx, place, comment.id))!;
  });
}

/** Deletes a comment with its replies: its author or a moderator. False when there was none. */
export async function deleteComment(deps: ContentDeps, place: CommentPlace, caller: Caller, rights: CommentRights, commentId: string): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const comment = await findComment(tx, place, commentId);
    if (!comment) return false;
    if (comment.postedBy !== caller.id && !rights.moderate) throw notAllowed('Only its author or an admin of the space may delete a comment');
    return deleteCommentRow(tx, comment.id);
  });
}

/** A reply with the comment it answers. */
export interface ReplyInComment {
  comment: CommentRecord;
  reply: CommentReplyRecord;
}

export async function postReply(deps: ContentDeps, place: CommentPlace, caller: Caller, commentId: string, input: { body: CommentBodyInput }): Promise<ReplyInComment> {
  await commentOf(deps.db, place, commentId);
  const body = await commentBody(input.body, 'A reply');
  return deps.db.transaction(async (tx) => {
    const comment = await commentOf(tx, place, commentId);
    return { comment, reply: await insertReply(tx, { commentId: comment.id, postedBy: caller.id, body }) };
  });
}

export async function updateReply(
  deps: ContentDeps,
  place: CommentPlace,
  caller: Caller,
  rights: CommentRights,
  ids: { commentId: string; replyId: string },
  update: Omit<CommentUpdate, 'resolved'>,
): Promise<ReplyInComment> {
  await replyOf(deps.db, place, ids);
  const body = update.body && (await commentBody(update.body, 'A reply'));
  const reactions = reactionChange(update);
  return deps.db.transaction(async (tx) => {
    const { comment, reply } = await replyOf(tx, place, ids);
    if (body && reply.postedBy !== caller.id && !rights.moderate) throw notAllowed('Only its author or an admin of the space may edit a reply');
    if (body) await updateReplyBody(tx, reply.id, body);
    await changeReactions(tx, 'reply', reply.id, caller.id, reactions);
    return { comment, reply: (await findReply(tx, comment.id, reply.id))! };
  });
}

export async function removeReply(deps: ContentDeps, place: CommentPlace, caller: Caller, rights: CommentRights, ids: { commentId: string; replyId: string }): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const comment = await findComment(tx, place, ids.commentId);
    const reply = comment && (await findReply(tx, comment.id, ids.replyId));
    if (!reply) return false;
    if (reply.postedBy !== caller.id && !rights.moderate) throw notAllowed('Only its author or an admin of the space may delete a reply');
    return deleteReply(tx, reply.id);
  });
}

/** A comment of the place, or the 404 naming it. */
export async function commentOf(db: Queryable, place: CommentPlace, commentId: string): Promise<CommentRecord> {
  const comment = await findComment(db, place, commentId);
  if (!comment) throw missing(`Comment ${commentId} not found in the ${place.label}`);
  return comment;
}

/** A reply of a comment of the place, or the 404 naming what is missing. */
export async function replyOf(db: Queryable, place: CommentPlace, ids: { commentId: string; replyId: string }): Promise<ReplyInComment> {
  const comment = await commentOf(db, place, ids.commentId);
  const reply = await findReply(db, comment.id, ids.replyId);
  if (!reply) throw missing(`Reply ${ids.replyId} not found in comment ${comment.id}`);
  return { comment, reply };
}

const rgiEmoji = new RegExp('^\\p{RGI_Emoji}$', 'v');

/**
 * A reaction's emoji: one emoji as a character sequence (👍, 👍🏽, 🇫🇷), or as hex code points
 * (`1f44d`, `1f468-200d-1f469`), kept as the characters.
 */
function emojiOf(text: string): string {
  const fromCodePoints = /^[0-9a-f]{2,6}(?:-[0-9a-f]{2,6})*$/i.test(text) ? text.split('-').map((hex) => Number.parseInt(hex, 16)) : undefined;
  const emoji = fromCodePoints?.every((point) => point <= 0x10ffff) ? String.fromCodePoint(...fromCodePoints) : text;
  if (!rgiEmoji.test(emoji)) throw invalidInput(`Reaction ${JSON.stringify(text)} is not an emoji`);
  return emoji;
}

function reactionChange(update: { addedReactions?: string[]; removedReactions?: string[] }): { added: string[]; removed: string[] } {
  const added = [...new Set((update.addedReactions ?? []).map(emojiOf))];
  const removed = [...new Set((update.removedReactions ?? []).map(emojiOf))];
  const both = added.find((emoji) => removed.includes(emoji));
  if (both) throw invalidInput(`Reaction ${both} is both added and removed`);
  return { added, removed };
}

/** The members who posted a comment or a reply in the place (listCommentersInSpace and its change-request twin). */
export function commentersOf(db: Queryable, organizationId: string, place: CommentPlace, request: PageRequest): Promise<Page<MemberRecord>> {
  return listCommenters(db, organizationId, place, request);
}
