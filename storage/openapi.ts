import type { Database, Queryable, Transaction } from './db.js';
import { notFound } from './errors.js';
import { newId, now } from './ids.js';
import { mapPage, paginate, type Page, type PageRequest } from './pagination.js';

export type OpenAPIProcessingState = 'pending' | 'progress' | 'complete';
export type OpenAPIVisibility = 'private' | 'public';
export type OpenAPIErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';
export interface OpenAPIProblem {
  message: string;
  code?: string;
}
export type OpenAPISource = { url: string } | { text: string };

export interface OpenAPISpecRecord {
  id: string;
  organizationId: string;
  slug: string;
  sourceUrl: string | null;
  sourceText: string | null;
  generation: number;
  processingState: OpenAPIProcessingState;
  visibility: OpenAPIVisibility;
  lastVersionId: string | null;
  lastProcessedAt: string | null;
  lastErrorCode: OpenAPIErrorCode | null;
  /** The first problems of the last failed processing (keptProblems), and how many there were. */
  lastErrors: OpenAPIProblem[] | null;
  lastErrorCount: number;
  createdAt: string;
  updatedAt: string;
}

interface SpecRow {
  id: string;
  organization_id: string;
  slug: string;
  source_url: string | null;
  source_text: string | null;
  generation: number;
  processing_state: string;
  visibility: string;
  last_version_id: string | null;
  last_processed_at: string | null;
  last_error_code: string | null;
  last_errors: string | null;
  created_at: string;
  updated_at: string;
}

function toSpec(row: SpecRow): OpenAPISpecRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    slug: row.slug,
    sourceUrl: row.source_url,
    sourceText: row.source_text,
    generation: row.generation,
    processingState: row.processing_state as OpenAPIProcessingState,
    visibility: row.visibility as OpenAPIVisibility,
    lastVersionId: row.last_version_id,
    lastProcessedAt: row.last_processed_at,
    lastErrorCode: row.last_error_code as OpenAPIErrorCode | null,
    ...storedProblems(row.last_errors),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const columns =
  'id, organization_id, slug, source_url, source_text, generation, processing_state, visibility, last_version_id, last_processed_at, last_error_code, last_errors, created_at, updated_at';

export async function findOpenAPISpec(db: Queryable, organizationId: string, slug: string): Promise<OpenAPISpecRecord | undefined> {
  const row = await db.get<SpecRow>(`SELECT ${columns} FROM openapi_specs WHERE organization_id = ? AND slug = ?`, [organizationId, slug]);
  return row && toSpec(row);
}

/** A processed specification's latest version: what pages that show its operations are rendered from. */
export interface OpenAPIProcessedVersion {
  slug: string;
  sourceUrl: string | null;
  versionId: string;
}

/**
 * The organization's specifications that have a processed version, public or private (a published
 * page draws the ones its blocks name: private only means no public link), read through the cache
 * (a published page's render key holds their versions, so a new version renders its pages again).
 */
export async function processedOpenAPIVersionsCached(db: Database, organizationId: string): Promise<OpenAPIProcessedVersion[]> {
  const rows = await db.cached(`openapi-versions:${organizationId}`, ['openapi_specs'], () =>
    db.all<{ slug: string; source_url: string | null; last_version_id: string }>(
      'SELECT slug, source_url, last_version_id FROM openapi_specs WHERE organization_id = ? AND last_version_id IS NOT NULL ORDER BY slug',
      [organizationId],
    ),
  );
  return (rows ?? []).map((row) => ({ slug: row.slug, sourceUrl: row.source_url, versionId: row.last_version_id }));
}

export async function getOpenAPISpec(db: Queryable, organizationId: string, slug: string): Promise<OpenAPISpecRecord> {
  const spec = await findOpenAPISpec(db, organizationId, slug);
  if (!spec) throw notFound(`OpenAPI specification "${slug}"`);
  return spec;
}

export async function listOpenAPISpecs(db: Queryable, organizationId: string, request: PageRequest): Promise<Page<OpenAPISpecRecord>> {
  const page = await paginate<SpecRow>(
    db,
    { select: columns, from: 'openapi_specs', where: 'organization_id = ?', params: [organizationId], sort: ['slug', 'id'], key: (row) => [row.slug, row.id] },
    request,
  );
  return mapPage(page, toSpec);
}

/** The specifications whose source is a URL, `limit` at a time after the id `after` (every organization's), for the periodic refresh. */
export async function listURLSourcedSpecs(db: Queryable, after: string, limit: number): Promise<Array<{ id: string; organizationId: string; slug: string }>> {
  const rows = await db.all<{ id: string; organization_id: string; slug: string }>('SELECT id, organization_id, slug FROM openapi_specs WHERE source_url IS NOT NULL AND id > ? ORDER BY id LIMIT ?', [
    after,
    limit,
  ]);
  return rows.map((row) => ({ id: row.id, organizationId: row.organization_id, slug: row.slug }));
}

const sourceColumns = (source: OpenAPISource) => ('url' in source ? [source.url, null] : [null, source.text]);

/** A new specification, pending. Undefined when the slug is taken in the organization. */
export async function insertOpenAPISpec(tx: Transaction, input: { organizationId: string; slug: string; source: OpenAPISource }): Promise<OpenAPISpecRecord | undefined> {
  const at = now();
  const { changes } = await tx.run(
    `INSERT INTO openapi_specs (id, organization_id, slug, source_url, source_text, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (organization_id, slug) DO NOTHING`,
    [newId(), input.organizationId, input.slug, ...sourceColumns(input.source), at, at],
  );
  return changes ? getOpenAPISpec(tx, input.organizationId, input.slug) : undefined;
}

/** A new source: the next generation, pending again. */
export async function replaceOpenAPISource(tx: Transaction, specId: string, source: OpenAPISource): Promise<void> {
  await tx.run(`UPDATE openapi_specs SET source_url = ?, source_text = ?, generation = generation + 1, processing_state = 'pending', updated_at = ? WHERE id = ?`, [
    ...sourceColumns(source),
    now(),
    specId,
  ]);
}

/**
 * Puts back the source `previous` had, if the spec is still at `generation` (nothing replaced it
 * since): a new source whose job could not be started is undone.
 */
export async function restoreOpenAPISource(db: Queryable, previous: OpenAPISpecRecord, generation: number): Promise<void> {
  await db.run('UPDATE openapi_specs SET source_url = ?, source_text = ?, processing_state = ?, updated_at = ? WHERE id = ? AND generation = ?', [
    previous.sourceUrl,
    previous.sourceText,
    previous.processingState,
    previous.updatedAt,
    previous.id,
    generation,
  ]);
}

export async function setOpenAPIVisibility(db: Queryable, specId: string, visibility: OpenAPIVisibility): Promise<void> {
  await db.run('UPDATE openapi_specs SET visibility = ?, updated_at = ? WHERE id = ?', [visibility, now(), specId]);
}

export async function deleteOpenAPISpec(db: Queryable, specId: string): Promise<boolean> {
  return (await db.run('DELETE FROM openapi_specs WHERE id = ?', [specId])).changes > 0;
}

export async function setOpenAPIProcessingState(db: Queryable, specId: string, state: OpenAPIProcessingState): Promise<void> {
  await db.run('UPDATE openapi_specs SET processing_state = ? WHERE id = ?', [state, specId]);
}

/** How many of a failed processing's problems are kept: a spec can break its schema thousands of times. */
export const keptProblems = 50;

/** A failed processing: its first problems and their count are recorded; the last good version stays. */
export async function recordOpenAPIFailure(db: Queryable, specId: string, code: OpenAPIErrorCode, errors: OpenAPIProblem[]): Promise<void> {
  const recorded = JSON.stringify({ problems: errors.slice(0, keptProblems), total: errors.length });
  await db.run('UPDATE openapi_specs SET last_processed_at = ?, last_error_code = ?, last_errors = ? WHERE id = ?', [now(), code, recorded, specId]);
}

/** `last_errors`: `{problems, total}`, or a plain list as rows recorded before the count was kept. */
function storedProblems(json: string | null): { lastErrors: OpenAPIProblem[] | null; lastErrorCount: number } {
  if (json === null) return { lastErrors: null, lastErrorCount: 0 };
  const stored = JSON.parse(json) as OpenAPIProblem[] | { problems: OpenAPIProblem[]; total: number };
  return Array.isArray(stored) ? { lastErrors: stored, lastErrorCount: stored.length } : { lastErrors: stored.problems, lastErrorCount: stored.total };
}

export interface OpenAPIVersionRecord {
  id: string;
  specId: string;
  digest: string;
  sourceUrl: string | null;
  createdAt: string;
}

interface VersionRow {
  id: string;
  spec_id: string;
  digest: string;
  source_url: string | null;
  created_at: string;
}

const toVersion = (row: VersionRow): OpenAPIVersionRecord => ({ id: row.id, specId: row.spec_id, digest: row.digest, sourceUrl: row.source_url, createdAt: row.created_at });
const versionColumns = 'id, spec_id, digest, source_url, created_at';

/**
 * Stores a processed result as the spec's latest version — unless the latest already has this
 * digest (unchanged content, or a retry of a job that stored it before its worker died) — and
 * marks the spec complete without errors, in one transaction. Only for `generation`: a source
 * changed meanwhile is left pending for the next round. The version's id, or undefined when the
 * spec is gone.
 */
export async function storeOpenAPIVersion(
  tx: Transaction,
  input: { specId: string; generation: number; digest: string; sourceUrl: string | null; filesystem: string; raw: OpenAPIRawText },
): Promise<{ versionId: string; created: boolean } | undefined> {
  const spec = await tx.get<{ last_version_id: string | null; generation: number }>('SELECT last_version_id, generation FROM openapi_specs WHERE id = ?', [input.specId]);
  if (!spec) return undefined;
  const latest = spec.last_version_id
    ? await tx.get<{ digest: string; source_url: string | null }>('SELECT digest, source_url FROM openapi_spec_versions WHERE id = ?', [spec.last_version_id])
    : undefined;
  let versionId = spec.last_version_id;
  const created = !(latest && latest.digest === input.digest && latest.source_url === input.sourceUrl);
  if (created) {
    versionId = newId();
    await tx.run('INSERT INTO openapi_spec_versions (id, spec_id, digest, source_url, filesystem, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
      versionId,
      input.specId,
      input.digest,
      input.sourceUrl,
      input.filesystem,
      now(),
    ]);
  }
  // A new version's text; for the same specification written otherwise (spacing, key order), the one last submitted.
  await tx.run(
    'INSERT INTO openapi_version_sources (version_id, raw_text, raw_format) VALUES (?, ?, ?) ON CONFLICT (version_id) DO UPDATE SET raw_text = excluded.raw_text, raw_format = excluded.raw_format',
    [versionId, input.raw.text, input.raw.format],
  );
  const state = spec.generation === input.generation ? 'complete' : 'pending';
  await tx.run('UPDATE openapi_specs SET last_version_id = ?, last_processed_at = ?, last_error_code = NULL, last_errors = NULL, processing_state = ? WHERE id = ?', [
    versionId,
    now(),
    state,
    input.specId,
  ]);
  return { versionId: versionId!, created };
}

export async function listOpenAPIVersions(db: Queryable, specId: string, request: PageRequest): Promise<Page<OpenAPIVersionRecord>> {
  const page = await paginate<VersionRow>(
    db,
    { select: versionColumns, from: 'openapi_spec_versions', where: 'spec_id = ?', params: [specId], sort: ['created_at', 'id'], key: (row) => [row.created_at, row.id] },
    { ...request, order: request.order ?? 'desc' },
  );
  return mapPage(page, toVersion);
}

export async function getOpenAPIVersion(db: Queryable, specId: string, versionId: string): Promise<OpenAPIVersionRecord> {
  const row = await db.get<VersionRow>(`SELECT ${versionColumns} FROM openapi_spec_versions WHERE spec_id = ? AND id = ?`, [specId, versionId]);
  if (!row) throw notFound(`Version ${versionId} of the OpenAPI specification`);
  return toVersion(row);
}

/** The entry file's text as submitted, and its format. */
export interface OpenAPIRawText {
  text: string;
  format: 'json' | 'yaml';
}

/** A version's entry file as submitted; undefined for a version processed before Quire kept it. */
export async function readOpenAPIRawText(db: Queryable, versionId: string): Promise<OpenAPIRawText | undefined> {
  const row = await db.get<{ raw_text: string; raw_format: 'json' | 'yaml' }>('SELECT raw_text, raw_format FROM openapi_version_sources WHERE version_id = ?', [versionId]);
  return row && { text: row.raw_text, format: row.raw_format };
}

export async function readOpenAPIFilesystem(db: Queryable, versionId: string): Promise<Record<string, unknown>> {
  const row = await db.get<{ filesystem: string }>('SELECT filesystem FROM openapi_spec_versions WHERE id = ?', [versionId]);
  if (!row) throw notFound(`Version ${versionId} of the OpenAPI specification`);
  return JSON.parse(row.filesystem) as Record<string, unknown>;
}
