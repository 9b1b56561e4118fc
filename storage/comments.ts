import type { Queryable } from './db.js';
import { newId, now } from './ids.js';
import { mapPage, paginate, type Page, type PageRequest } from './pagination.js';
import { toUser, userColumns, type UserRecord } from './users.js';
import { memberColumns, toMember, type MemberRecord, type MemberRow } from './members.js';
import { sameAs } from './dialect.js';

/** Where comments live: a space, or one of its change requests (`changeRequestId`). */
export interface CommentScope {
  spaceId: string;
  changeRequestId: string | null;
}

/** A body in both forms: the markdown, and the upstream JSON Document (as JSON text). */
export interface CommentBody {
  markdown: string;
  document: string;
}

export type CommentStatus = 'open' | 'resolved';

export interface CommentRecord {
  id: string;
  spaceId: string;
  changeRequestId: string | null;
  pageId: string | null;
  nodeId: string | null;
  tableCell: { record: string; definition: string } | null;
  /** The revision the target was seen in when the comment was posted. */
  revision: string;
  postedBy: string;
  postedAt: string;
  editedAt: string | null;
  body: CommentBody;
  status: CommentStatus;
  resolvedAt: string | null;
  resolvedBy: string | null;
}

interface CommentRow {
  id: string;
  space_id: string;
  change_request_id: string | null;
  page_id: string | null;
  node_id: string | null;
  table_record: string | null;
  table_definition: string | null;
  revision: string;
  posted_by: string;
  posted_at: string;
  edited_at: string | null;
  body_markdown: string;
  body_document: string;
  status: CommentStatus;
  resolved_at: string | null;
  resolved_by: string | null;
}

function toComment(row: CommentRow): CommentRecord {
  return {
    id: row.id,
    spaceId: row.space_id,
    changeRequestId: row.change_request_id,
    pageId: row.page_id,
    nodeId: row.node_id,
    tableCell: row.table_record !== null && row.table_definition !== null ? { record: row.table_record, definition: row.table_definition } : null,
    revision: row.revision,
    postedBy: row.posted_by,
    postedAt: row.posted_at,
    editedAt: row.edited_at,
    body: { markdown: row.body_markdown, document: row.body_document },
    status: row.status,
    resolvedAt: row.resolved_at,
    resolvedBy: row.resolved_by,
  };
}

export interface NewComment {
  pageId: string | null;
  nodeId: string | null;
  tableCell: { record: string; definition: string } | null;
  revision: string;
  postedBy: string;
  body: CommentBody;
}

export async function insertComment(db: Queryable, scope: CommentScope, input: NewComment): Promise<CommentRecord> {
  const id = newId();
  await db.run(
    `INSERT INTO comments (id, space_id, change_request_id, page_id, node_id, table_record, table_definition, revision, posted_by, posted_at, body_markdown, body_document)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      scope.spaceId,
      scope.changeRequestId,
      input.pageId,
      input.nodeId,
      input.tableCell?.record ?? null,
      input.tableCell?.definition ?? null,
      input.revision,
      input.postedBy,
      now(),
      input.body.markdown,
      input.body.document,
    ],
  );
  return (await findComment(db, scope, id))!;
}

/** A comment of exactly this scope: a space's comment isn't found under a change request, nor the reverse. */
export async function findComment(db: Queryable, scope: CommentScope, id: string): Promise<CommentRecord | undefined> {
  const inScope = sameAs('change_request_id', scope.changeRequestId);
  const row = await db.get<CommentRow>(`SELECT * FROM comments WHERE id = ? AND space_id = ? AND ${inScope.sql}`, [id, scope.spaceId, ...inScope.params]);
  return row && toComment(row);
}

export interface CommentFilter {
  status: 'all' | CommentStatus;
  pageId?: string;
  authors?: string[];
}

/** The scope's comments matching the filter, newest first unless the request asks otherwise. */
export async function listComments(db: Queryable, scope: CommentScope, filter: CommentFilter, request: PageRequest): Promise<Page<CommentRecord>> {
  const inScope = sameAs('change_request_id', scope.changeRequestId);
  const where = ['space_id = ?', inScope.sql];
  const params: unknown[] = [scope.spaceId, ...inScope.params];
  if (filter.pageId !== undefined) {
    where.push('page_id = ?');
    params.push(filter.pageId);
  }
  if (filter.status !== 'all') {
    where.push('status = ?');
    params.push(filter.status);
  }
  if (filter.authors !== undefined) {
    where.push('posted_by IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(filter.authors));
  }
  const page = await paginate<CommentRow>(db, { select: '*', from: 'comments', where: where.join(' AND '), params, sort: ['posted_at', 'id'], key: (row) => [row.posted_at, row.id] }, request);
  return mapPage(page, toComment);
}

export interface CommentChanges {
  body?: CommentBody;
  /** true: resolved by `by` now (kept as it was if it already is); false: open again. */
  resolved?: { value: boolean; by: string };
}

/** Applies the changes to a comment read in the same transaction. */
export async function updateComment(db: Queryable, comment: CommentRecord, changes: CommentChanges): Promise<void> {
  const at = now();
  if (changes.body) {
    await db.run('UPDATE comments SET body_markdown = ?, body_document = ?, edited_at = ? WHERE id = ?', [changes.body.markdown, changes.body.document, at, comment.id]);
  }
  if (changes.resolved?.value === true && comment.status !== 'resolved') {
    await db.run(`UPDATE comments SET status = 'resolved', resolved_at = ?, resolved_by = ? WHERE id = ?`, [at, changes.resolved.by, comment.id]);
  }
  if (changes.resolved?.value === false) {
    await db.run(`UPDATE comments SET status = 'open', resolved_at = NULL, resolved_by = NULL WHERE id = ?`, [comment.id]);
  }
}

/** Deletes the comment with its replies and reactions (foreign keys); false when it wasn't there. */
export async function deleteComment(db: Queryable, id: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM comments WHERE id = ?', [id]);
  return changes > 0;
}

/** Open comments of the scope: the `comments` count of a space (outside change requests) or of a change request. */
export async function countOpenComments(db: Queryable, scope: CommentScope): Promise<number> {
  const inScope = sameAs('change_request_id', scope.changeRequestId);
  const row = await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM comments WHERE space_id = ? AND ${inScope.sql} AND status = 'open'`, [scope.spaceId, ...inScope.params]);
  return row?.n ?? 0;
}

/** The people comments name (authors, repliers, reactors, resolvers), in one query. */
export async function commentPeople(db: Queryable, ids: Iterable<string>): Promise<Map<string, UserRecord>> {
  const rows = await db.all<Parameters<typeof toUser>[0]>(`SELECT ${userColumns} FROM users WHERE id IN (SELECT value FROM json_each(?))`, [JSON.stringify([...new Set(ids)])]);
  return new Map(rows.map((row) => [row.id, toUser(row)]));
}

/**
 * The organization's members who posted a comment or a reply in this place (the space's own
 * comments, or a change request's), in the order they joined the organization.
 */
export async function listCommenters(db: Queryable, organizationId: string, scope: CommentScope, request: PageRequest): Promise<Page<MemberRecord>> {
  const inScope = sameAs('change_request_id', scope.changeRequestId);
  const repliesInScope = sameAs('c.change_request_id', scope.changeRequestId);
  const page = await paginate<MemberRow>(
    db,
    {
      select: memberColumns,
      from: 'memberships JOIN users ON users.id = memberships.user_id',
      where: `memberships.organization_id = ? AND memberships.user_id IN (
        SELECT posted_by FROM comments WHERE space_id = ? AND ${inScope.sql}
        UNION SELECT r.posted_by FROM comment_replies r JOIN comments c ON c.id = r.comment_id WHERE c.space_id = ? AND ${repliesInScope.sql})`,
      params: [organizationId, scope.spaceId, ...inScope.params, scope.spaceId, ...repliesInScope.params],
      sort: ['memberships.joined_at', 'memberships.user_id'],
      key: (row) => [row.joined_at, row.id],
    },
    request,
  );
  return mapPage(page, toMember);
}
