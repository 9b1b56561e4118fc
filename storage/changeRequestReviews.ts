import type { Queryable } from './db.js';
import { newId, now } from './ids.js';
import { mapPage, paginate, type Page, type PageRequest } from './pagination.js';

export type ReviewStatus = 'approved' | 'changes-requested';

export interface ReviewRecord {
  id: string;
  changeRequestId: string;
  reviewerId: string;
  requestedBy: string | null;
  status: ReviewStatus;
  /** The branch head the reviewer saw. */
  revision: string;
  commentId: string | null;
  createdAt: string;
  updatedAt: string;
  /** Superseded by a later review of the same reviewer, or a later request for their review. */
  outdated: boolean;
}

interface ReviewRow {
  id: string;
  change_request_id: string;
  reviewer_id: string;
  requested_by: string | null;
  status: ReviewStatus;
  revision: string;
  comment_id: string | null;
  created_at: string;
  updated_at: string;
  outdated: number;
}

const toReview = (row: ReviewRow): ReviewRecord => ({
  id: row.id,
  changeRequestId: row.change_request_id,
  reviewerId: row.reviewer_id,
  requestedBy: row.requested_by,
  status: row.status,
  revision: row.revision,
  commentId: row.comment_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  outdated: row.outdated === 1,
});

const outdatedColumn = `(EXISTS (SELECT 1 FROM change_request_reviews later WHERE later.change_request_id = r.change_request_id AND later.reviewer_id = r.reviewer_id
     AND (later.created_at, later.id) > (r.created_at, r.id))
   OR EXISTS (SELECT 1 FROM change_request_requested_reviewers request WHERE request.change_request_id = r.change_request_id AND request.user_id = r.reviewer_id
     AND request.requested_at > r.created_at)) AS outdated`;

export async function insertReview(
  db: Queryable,
  input: { changeRequestId: string; reviewerId: string; requestedBy: string | null; status: ReviewStatus; revision: string; commentId: string | null },
): Promise<ReviewRecord> {
  const id = newId();
  const at = now();
  await db.run(
    `INSERT INTO change_request_reviews (id, change_request_id, reviewer_id, requested_by, status, revision, comment_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [id, input.changeRequestId, input.reviewerId, input.requestedBy, input.status, input.revision, input.commentId, at, at],
  );
  return (await findReview(db, input.changeRequestId, id))!;
}

export async function findReview(db: Queryable, changeRequestId: string, id: string): Promise<ReviewRecord | undefined> {
  const row = await db.get<ReviewRow>(`SELECT r.*, ${outdatedColumn} FROM change_request_reviews r WHERE r.change_request_id = ? AND r.id = ?`, [changeRequestId, id]);
  return row && toReview(row);
}

/** A change request's reviews, oldest first; `outdated` filters on it. */
export async function listReviews(db: Queryable, changeRequestId: string, filter: { outdated?: boolean }, request: PageRequest): Promise<Page<ReviewRecord>> {
  const from = `(SELECT r.*, ${outdatedColumn} FROM change_request_reviews r WHERE r.change_request_id = ?) AS reviews`;
  const page = await paginate<ReviewRow>(
    db,
    {
      select: '*',
      from,
      where: filter.outdated === undefined ? 'TRUE' : 'outdated = ?',
      params: [changeRequestId, ...(filter.outdated === undefined ? [] : [filter.outdated ? 1 : 0])],
      sort: ['created_at', 'id'],
      key: (row) => [row.created_at, row.id],
    },
    request,
  );
  return mapPage(page, toReview);
}

/** Every review of the change request, for its merge rules. */
export async function allReviews(db: Queryable, changeRequestId: string): Promise<ReviewRecord[]> {
  const rows = await db.all<ReviewRow>(`SELECT r.*, ${outdatedColumn} FROM change_request_reviews r WHERE r.change_request_id = ? ORDER BY r.created_at, r.id`, [changeRequestId]);
  return rows.map(toReview);
}

export interface RequestedReviewerRecord {
  userId: string;
  requestedBy: string;
  requestedAt: string;
  revision: string;
}

interface RequestedReviewerRow {
  user_id: string;
  requested_by: string;
  requested_at: string;
  revision: string;
}

const toRequested = (row: RequestedReviewerRow): RequestedReviewerRecord => ({ userId: row.user_id, requestedBy: row.requested_by, requestedAt: row.requested_at, revision: row.revision });

/** Requests (again) the users' reviews, at the given head; call it in a transaction. */
export async function requestReviewers(db: Queryable, changeRequestId: string, input: { users: string[]; requestedBy: string; revision: string }): Promise<RequestedReviewerRecord[]> {
  const at = now();
  for (const user of input.users) {
    await db.run(
      `INSERT INTO change_request_requested_reviewers (change_request_id, user_id, requested_by, requested_at, revision) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (change_request_id, user_id) DO UPDATE SET requested_by = excluded.requested_by, requested_at = excluded.requested_at, revision = excluded.revision`,
      [changeRequestId, user, input.requestedBy, at, input.revision],
    );
  }
  const rows = await db.all<RequestedReviewerRow>(
    'SELECT * FROM change_request_requested_reviewers WHERE change_request_id = ? AND user_id IN (SELECT value FROM json_each(?)) ORDER BY requested_at, user_id',
    [changeRequestId, JSON.stringify(input.users)],
  );
  return rows.map(toRequested);
}

export async function findRequestedReviewer(db: Queryable, changeRequestId: string, userId: string): Promise<RequestedReviewerRecord | undefined> {
  const row = await db.get<RequestedReviewerRow>('SELECT * FROM change_request_requested_reviewers WHERE change_request_id = ? AND user_id = ?', [changeRequestId, userId]);
  return row && toRequested(row);
}

export async function listRequestedReviewers(db: Queryable, changeRequestId: string, request: PageRequest): Promise<Page<RequestedReviewerRecord>> {
  const page = await paginate<RequestedReviewerRow>(
    db,
    {
      select: '*',
      from: 'change_request_requested_reviewers',
      where: 'change_request_id = ?',
      params: [changeRequestId],
      sort: ['requested_at', 'user_id'],
      key: (row) => [row.requested_at, row.user_id],
    },
    request,
  );
  return mapPage(page, toRequested);
}

/** Whether a request was there to remove. */
export async function removeRequestedReviewer(db: Queryable, changeRequestId: string, userId: string): Promise<boolean> {
  const result = await db.run('DELETE FROM change_request_requested_reviewers WHERE change_request_id = ? AND user_id = ?', [changeRequestId, userId]);
  return result.changes > 0;
}

export interface ContributorRecord {
  userId: string;
  count: number;
  lastAt: string;
}

/** Who wrote to the change request, most recent first. */
export async function listContributors(db: Queryable, changeRequestId: string, request: PageRequest): Promise<Page<ContributorRecord>> {
  const page = await paginate<{ user_id: string; count: number; last_at: string }>(
    db,
    {
      select: 'user_id, count, last_at',
      from: 'change_request_contributors',
      where: 'change_request_id = ?',
      params: [changeRequestId],
      sort: ['last_at', 'user_id'],
      key: (row) => [row.last_at, row.user_id],
    },
    { ...request, order: 'desc' },
  );
  return mapPage(page, (row) => ({ userId: row.user_id, count: row.count, lastAt: row.last_at }));
}
