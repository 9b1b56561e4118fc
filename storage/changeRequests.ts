import type { Queryable } from './db.js';
import { amongValues } from './dialect.js';
import { conflict, notFound } from './errors.js';
import { newId, now } from './ids.js';
import { mapPage, paginate, type Page, type PageRequest } from './pagination.js';

export const changeRequestStatuses = ['draft', 'open', 'archived', 'merged'] as const;
export type ChangeRequestStatus = (typeof changeRequestStatuses)[number];

export interface ChangeRequestRecord {
  id: string;
  spaceId: string;
  number: number;
  /** The space repository's branch holding the change request's content. */
  branch: string;
  status: ChangeRequestStatus;
  subject: string;
  /** The upstream JSON Document, as it was given. */
  description: unknown;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  revisionInitial: string;
  revisionMergedAncestor: string | null;
  revisionMerged: string | null;
  /** The conversations issues cluster it addresses, if any (a Quire extension). */
  conversationsIssuesCluster: string | null;
}

interface ChangeRequestRow {
  id: string;
  space_id: string;
  number: number;
  branch: string;
  status: ChangeRequestStatus;
  subject: string;
  description: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  revision_initial: string;
  revision_merged_ancestor: string | null;
  revision_merged: string | null;
  conversations_issues_cluster: string | null;
}

function toChangeRequest(row: ChangeRequestRow): ChangeRequestRecord {
  return {
    id: row.id,
    spaceId: row.space_id,
    number: row.number,
    branch: row.branch,
    status: row.status,
    subject: row.subject,
    description: row.description === null ? undefined : (JSON.parse(row.description) as unknown),
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    revisionInitial: row.revision_initial,
    revisionMergedAncestor: row.revision_merged_ancestor,
    revisionMerged: row.revision_merged,
    conversationsIssuesCluster: row.conversations_issues_cluster,
  };
}

export interface NewChangeRequest {
  spaceId: string;
  subject: string;
  createdBy: string;
  revisionInitial: string;
  conversationsIssuesCluster?: string;
  /** The branch's name from the change request's number (the number is only known here). */
  branchOf: (number: number) => string;
}

/** A new change request with the space's next number; call it in a transaction. */
export async function insertChangeRequest(db: Queryable, input: NewChangeRequest): Promise<ChangeRequestRecord> {
  const id = newId();
  const at = now();
  const top = await db.get<{ top: number | null }>('SELECT MAX(number) AS top FROM change_requests WHERE space_id = ?', [input.spaceId]);
  const number = (top?.top ?? 0) + 1;
  await db.run(
    `INSERT INTO change_requests (id, space_id, number, branch, status, subject, created_by, created_at, updated_at, revision_initial, conversations_issues_cluster)
     VALUES (?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?)`,
    [id, input.spaceId, number, input.branchOf(number), input.subject, input.createdBy, at, at, input.revisionInitial, input.conversationsIssuesCluster ?? null],
  );
  return getChangeRequest(db, input.spaceId, id);
}

/** A change request of the space by its id or its number (`"3"`), as the API's `{changeRequestId}` accepts both. */
export async function findChangeRequest(db: Queryable, spaceId: string, idOrNumber: string): Promise<ChangeRequestRecord | undefined> {
  const row = /^[1-9][0-9]{0,15}$/.test(idOrNumber)
    ? await db.get<ChangeRequestRow>('SELECT * FROM change_requests WHERE space_id = ? AND number = ?', [spaceId, Number(idOrNumber)])
    : await db.get<ChangeRequestRow>('SELECT * FROM change_requests WHERE space_id = ? AND id = ?', [spaceId, idOrNumber]);
  return row && toChangeRequest(row);
}

export async function getChangeRequest(db: Queryable, spaceId: string, idOrNumber: string): Promise<ChangeRequestRecord> {
  const changeRequest = await findChangeRequest(db, spaceId, idOrNumber);
  if (!changeRequest) throw notFound(`Change request ${idOrNumber} in space ${spaceId}`);
  return changeRequest;
}

export interface ChangeRequestFilter {
  status: ChangeRequestStatus;
  creator?: string;
  contributor?: string;
  requestedReviewer?: string;
  conversationsIssuesCluster?: string;
}

/** Change requests of the given spaces matching the upstream filters, newest first by default. */
export async function listChangeRequests(db: Queryable, within: { spaceIds: string[] }, filter: ChangeRequestFilter, request: PageRequest): Promise<Page<ChangeRequestRecord>> {
  const inSpaces = amongValues(db.dialect, 'space_id', within.spaceIds);
  const where = [inSpaces.sql, 'status = ?'];
  const params: unknown[] = [...inSpaces.params, filter.status];
  if (filter.creator !== undefined) {
    where.push('created_by = ?');
    params.push(filter.creator);
  }
  if (filter.contributor !== undefined) {
    where.push('id IN (SELECT change_request_id FROM change_request_contributors WHERE user_id = ?)');
    params.push(filter.contributor);
  }
  if (filter.requestedReviewer !== undefined) {
    where.push('id IN (SELECT change_request_id FROM change_request_requested_reviewers WHERE user_id = ?)');
    params.push(filter.requestedReviewer);
  }
  if (filter.conversationsIssuesCluster !== undefined) {
    where.push('conversations_issues_cluster = ?');
    params.push(filter.conversationsIssuesCluster);
  }
  const page = await paginate<ChangeRequestRow>(
    db,
    { select: '*', from: 'change_requests', where: where.join(' AND '), params, sort: ['created_at', 'id'], key: (row) => [row.created_at, row.id] },
    request,
  );
  return mapPage(page, toChangeRequest);
}

export interface ChangeRequestCounts {
  total: number;
  open: number;
  draft: number;
}

/** How many change requests a space has, in all and open or draft. */
export async function countChangeRequests(db: Queryable, spaceId: string): Promise<ChangeRequestCounts> {
  const row = await db.get<{ total: number; open: number | null; draft: number | null }>(
    `SELECT COUNT(*) AS total, COUNT(*) FILTER (WHERE status = 'open') AS open, COUNT(*) FILTER (WHERE status = 'draft') AS draft FROM change_requests WHERE space_id = ?`,
    [spaceId],
  );
  return { total: row?.total ?? 0, open: row?.open ?? 0, draft: row?.draft ?? 0 };
}

export interface ChangeRequestChanges {
  subject?: string;
  description?: unknown;
  status?: ChangeRequestStatus;
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  /** null unlinks the cluster. */
  conversationsIssuesCluster?: string | null;
}

/**
 * Updates a change request; `from` (its status as the caller read it) makes the write conditional,
 * so two racing transitions (a merge and an archive) can't both land.
 */
export async function updateChangeRequest(db: Queryable, id: string, changes: ChangeRequestChanges, from?: ChangeRequestStatus): Promise<ChangeRequestRecord> {
  const assignments = ['updated_at = ?'];
  const params: unknown[] = [now()];
  const columns: Array<[keyof ChangeRequestChanges, string, (value: never) => unknown]> = [
    ['subject', 'subject', (value: string) => value],
    ['description', 'description', (value: unknown) => JSON.stringify(value)],
    ['status', 'status', (value: string) => value],
    ['revisionMergedAncestor', 'revision_merged_ancestor', (value: string) => value],
    ['revisionMerged', 'revision_merged', (value: string) => value],
    ['conversationsIssuesCluster', 'conversations_issues_cluster', (value: string | null) => value],
  ];
  for (const [field, column, toColumn] of columns) {
    if (changes[field] === undefined) continue;
    assignments.push(`${column} = ?`);
    params.push(toColumn(changes[field] as never));
  }
  const result = await db.run(`UPDATE change_requests SET ${assignments.join(', ')} WHERE id = ?${from ? ' AND status = ?' : ''}`, [...params, id, ...(from ? [from] : [])]);
  if (result.changes === 0) throw from ? conflict(`Change request ${id} is no longer ${from}`) : notFound(`Change request ${id}`);
  const row = await db.get<ChangeRequestRow>('SELECT * FROM change_requests WHERE id = ?', [id]);
  if (!row) throw notFound(`Change request ${id}`);
  return toChangeRequest(row);
}

/** Records that the user wrote to the change request (the first and the last time). */
export async function addContributor(db: Queryable, changeRequestId: string, userId: string): Promise<void> {
  const at = now();
  await db.run(
    `INSERT INTO change_request_contributors (change_request_id, user_id, first_at, last_at, count) VALUES (?, ?, ?, ?, 1)
     ON CONFLICT (change_request_id, user_id) DO UPDATE SET last_at = excluded.last_at, count = change_request_contributors.count + 1`,
    [changeRequestId, userId, at, at],
  );
}
