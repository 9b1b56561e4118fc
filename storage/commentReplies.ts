import type { CommentBody } from './comments.js';
import type { Queryable } from './db.js';
import { newId, now } from './ids.js';
import { mapPage, paginate, type Page, type PageRequest } from './pagination.js';

export interface CommentReplyRecord {
  id: string;
  commentId: string;
  postedBy: string;
  postedAt: string;
  editedAt: string | null;
  body: CommentBody;
}

interface ReplyRow {
  id: string;
  comment_id: string;
  posted_by: string;
  posted_at: string;
  edited_at: string | null;
  body_markdown: string;
  body_document: string;
}

function toReply(row: ReplyRow): CommentReplyRecord {
  return {
    id: row.id,
    commentId: row.comment_id,
    postedBy: row.posted_by,
    postedAt: row.posted_at,
    editedAt: row.edited_at,
    body: { markdown: row.body_markdown, document: row.body_document },
  };
}

export async function insertReply(db: Queryable, input: { commentId: string; postedBy: string; body: CommentBody }): Promise<CommentReplyRecord> {
  const id = newId();
  await db.run('INSERT INTO comment_replies (id, comment_id, posted_by, posted_at, body_markdown, body_document) VALUES (?, ?, ?, ?, ?, ?)', [
    id,
    input.commentId,
    input.postedBy,
    now(),
    input.body.markdown,
    input.body.document,
  ]);
  return (await findReply(db, input.commentId, id))!;
}

/** A reply of this comment (a reply id under another comment isn't found). */
export async function findReply(db: Queryable, commentId: string, id: string): Promise<CommentReplyRecord | undefined> {
  const row = await db.get<ReplyRow>('SELECT * FROM comment_replies WHERE id = ? AND comment_id = ?', [id, commentId]);
  return row && toReply(row);
}

/** A comment's replies in the order they were posted: a conversation reads from the top. */
export async function listReplies(db: Queryable, commentId: string, request: PageRequest): Promise<Page<CommentReplyRecord>> {
  const page = await paginate<ReplyRow>(
    db,
    { select: '*', from: 'comment_replies', where: 'comment_id = ?', params: [commentId], sort: ['posted_at', 'id'], key: (row) => [row.posted_at, row.id] },
    { ...request, order: 'asc' },
  );
  return mapPage(page, toReply);
}

export async function updateReplyBody(db: Queryable, id: string, body: CommentBody): Promise<void> {
  await db.run('UPDATE comment_replies SET body_markdown = ?, body_document = ?, edited_at = ? WHERE id = ?', [body.markdown, body.document, now(), id]);
}

export async function deleteReply(db: Queryable, id: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM comment_replies WHERE id = ?', [id]);
  return changes > 0;
}

export interface Replier {
  userId: string;
  count: number;
  /** When they last replied (or edited a reply). */
  updatedAt: string;
}

/** Per comment: how many replies, and who replied how often, the most recent replier first. */
export async function replySummaries(db: Queryable, commentIds: string[]): Promise<Map<string, { count: number; repliers: Replier[] }>> {
  const rows = await db.all<{ comment_id: string; posted_by: string; n: number; updated_at: string }>(
    `SELECT comment_id, posted_by, COUNT(*) AS n, MAX(COALESCE(edited_at, posted_at)) AS updated_at FROM comment_replies
     WHERE comment_id IN (SELECT value FROM json_each(?)) GROUP BY comment_id, posted_by ORDER BY updated_at DESC, posted_by`,
    [JSON.stringify(commentIds)],
  );
  const summaries = new Map<string, { count: number; repliers: Replier[] }>();
  for (const row of rows) {
    const summary = summaries.get(row.comment_id) ?? { count: 0, repliers: [] };
    summary.count += row.n;
    summary.repliers.push({ userId: row.posted_by, count: row.n, updatedAt: row.updated_at });
    summaries.set(row.comment_id, summary);
  }
  return summaries;
}

/** The replies of each of these comments, oldest first: one query for a page that shows whole conversations. */
export async function repliesOfComments(db: Queryable, commentIds: string[]): Promise<Map<string, CommentReplyRecord[]>> {
  const rows = await db.all<ReplyRow>('SELECT * FROM comment_replies WHERE comment_id IN (SELECT value FROM json_each(?)) ORDER BY posted_at, id', [JSON.stringify(commentIds)]);
  const replies = new Map<string, CommentReplyRecord[]>();
  for (const row of rows) replies.set(row.comment_id, [...(replies.get(row.comment_id) ?? []), toReply(row)]);
  return replies;
}
