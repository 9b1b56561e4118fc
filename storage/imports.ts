import type { Queryable } from './db.js';
import { newId, now } from './ids.js';
import { mapPage, paginate, type Page, type PageRequest } from './pagination.js';

export interface UploadRecord {
  key: string;
  organizationId: string;
  kind: string;
  name: string;
  contentType: string;
  size: number;
  createdBy: string;
  createdAt: string;
  /** Whether the bytes have been sent to the upload URL. */
  uploaded: boolean;
}

export async function insertUpload(db: Queryable, input: Omit<UploadRecord, 'key' | 'createdAt' | 'uploaded'>): Promise<UploadRecord> {
  const key = `${input.organizationId}/${newId()}`;
  const createdAt = now();
  await db.run('INSERT INTO storage_uploads (key, organization_id, kind, name, content_type, size, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
    key,
    input.organizationId,
    input.kind,
    input.name,
    input.contentType,
    input.size,
    input.createdBy,
    createdAt,
  ]);
  return { ...input, key, createdAt, uploaded: false };
}

interface UploadRow {
  key: string;
  organization_id: string;
  kind: string;
  name: string;
  content_type: string;
  size: number;
  created_by: string;
  created_at: string;
  uploaded: number;
}

export async function findUpload(db: Queryable, organizationId: string, key: string): Promise<UploadRecord | undefined> {
  const row = await db.get<UploadRow>(
    'SELECT key, organization_id, kind, name, content_type, size, created_by, created_at, CASE WHEN body IS NULL THEN 0 ELSE 1 END AS uploaded FROM storage_uploads WHERE organization_id = ? AND key = ?',
    [organizationId, key],
  );
  return (
    row && {
      key: row.key,
      organizationId: row.organization_id,
      kind: row.kind,
      name: row.name,
      contentType: row.content_type,
      size: Number(row.size),
      createdBy: row.created_by,
      createdAt: row.created_at,
      uploaded: Number(row.uploaded) === 1,
    }
  );
}

/** Stores the bytes once: false when they were there already (an upload URL is used once). */
export async function storeUploadBody(db: Queryable, key: string, body: Buffer): Promise<boolean> {
  const { changes } = await db.run('UPDATE storage_uploads SET body = ? WHERE key = ? AND body IS NULL', [body, key]);
  return changes === 1;
}

export async function readUploadBody(db: Queryable, organizationId: string, key: string): Promise<Buffer | undefined> {
  const row = await db.get<{ body: Buffer | null }>('SELECT body FROM storage_uploads WHERE organization_id = ? AND key = ?', [organizationId, key]);
  return row?.body ?? undefined;
}

export type ImportStatus = 'pending' | 'in-progress' | 'completed' | 'failed' | 'cancelled';
export type ImportSource = { type: 'website'; url: string } | { type: 'file'; files: string[] };
export interface ImportedPage {
  id: string;
  sourceURL?: string;
  type: 'page' | 'folder';
  status: 'complete' | 'pending';
}

export interface ImportRunRecord {
  id: string;
  organizationId: string;
  target: { space: string; changeRequest?: string; page?: string };
  siteId?: string;
  source: ImportSource;
  status: ImportStatus;
  reason?: string;
  pages: ImportedPage[];
  createdBy: string;
  createdAt: string;
  startedAt?: string;
  updatedAt: string;
  completedAt?: string;
}

interface ImportRunRow {
  id: string;
  organization_id: string;
  space_id: string;
  change_request_id: string | null;
  page_id: string | null;
  site_id: string | null;
  source: string;
  status: ImportStatus;
  reason: string | null;
  pages: string;
  created_by: string;
  created_at: string;
  started_at: string | null;
  updated_at: string;
  completed_at: string | null;
}

const toRun = (row: ImportRunRow): ImportRunRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  target: { space: row.space_id, ...(row.change_request_id ? { changeRequest: row.change_request_id } : {}), ...(row.page_id ? { page: row.page_id } : {}) },
  ...(row.site_id ? { siteId: row.site_id } : {}),
  source: JSON.parse(row.source) as ImportSource,
  status: row.status,
  ...(row.reason ? { reason: row.reason } : {}),
  pages: JSON.parse(row.pages) as ImportedPage[],
  createdBy: row.created_by,
  createdAt: row.created_at,
  ...(row.started_at ? { startedAt: row.started_at } : {}),
  updatedAt: row.updated_at,
  ...(row.completed_at ? { completedAt: row.completed_at } : {}),
});

export async function insertImportRun(db: Queryable, input: Pick<ImportRunRecord, 'organizationId' | 'target' | 'siteId' | 'source' | 'createdBy'>): Promise<ImportRunRecord> {
  const id = newId();
  const at = now();
  await db.run(
    `INSERT INTO import_runs (id, organization_id, space_id, change_request_id, page_id, site_id, source, status, pages, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', '[]', ?, ?, ?)`,
    [id, input.organizationId, input.target.space, input.target.changeRequest ?? null, input.target.page ?? null, input.siteId ?? null, JSON.stringify(input.source), input.createdBy, at, at],
  );
  return (await findImportRun(db, input.organizationId, id))!;
}

export async function findImportRun(db: Queryable, organizationId: string, id: string): Promise<ImportRunRecord | undefined> {
  const row = await db.get<ImportRunRow>('SELECT * FROM import_runs WHERE organization_id = ? AND id = ?', [organizationId, id]);
  return row && toRun(row);
}

export async function listImportRuns(
  db: Queryable,
  organizationId: string,
  filter: { space?: string; changeRequest?: string; site?: string; status?: ImportStatus[] },
  request: PageRequest,
): Promise<Page<ImportRunRecord>> {
  const where = ['organization_id = ?'];
  const params: unknown[] = [organizationId];
  for (const [column, value] of [
    ['space_id', filter.space],
    ['change_request_id', filter.changeRequest],
    ['site_id', filter.site],
  ] as const) {
    if (value === undefined) continue;
    where.push(`${column} = ?`);
    params.push(value);
  }
  if (filter.status) {
    where.push(`status IN (${filter.status.map(() => '?').join(', ')})`);
    params.push(...filter.status);
  }
  const page = await paginate<ImportRunRow>(
    db,
    { select: '*', from: 'import_runs', where: where.join(' AND '), params, sort: ['created_at', 'id'], key: (row) => [row.created_at, row.id] },
    { ...request, order: 'desc' },
  );
  return mapPage(page, toRun);
}

/**
 * Moves a run on, only from one of the statuses it may leave (`from`): a cancelled run stays
 * cancelled whatever its job reports after. False when it was in none of them.
 */
export async function updateImportRun(
  db: Queryable,
  id: string,
  from: ImportStatus[],
  changes: { status?: ImportStatus; reason?: string; pages?: ImportedPage[]; started?: boolean; completed?: boolean },
): Promise<boolean> {
  const assignments: Array<[string, unknown]> = [['updated_at', now()]];
  if (changes.status) assignments.push(['status', changes.status]);
  if (changes.reason !== undefined) assignments.push(['reason', changes.reason]);
  if (changes.pages) assignments.push(['pages', JSON.stringify(changes.pages)]);
  if (changes.started) assignments.push(['started_at', now()]);
  if (changes.completed) assignments.push(['completed_at', now()]);
  const sets = assignments.map(([column]) => `${column} = ?`);
  const params = assignments.map(([, value]) => value);
  const { changes: changed } = await db.run(`UPDATE import_runs SET ${sets.join(', ')} WHERE id = ? AND status IN (SELECT value FROM json_each(?))`, [...params, id, JSON.stringify(from)]);
  return changed === 1;
}
