import type { Queryable, Transaction } from './db.js';
import { notFound } from './errors.js';
import { newId, now } from './ids.js';
import { mapPage, paginate, type Page, type PageRequest } from './pagination.js';

export type TranslationStatus = 'pending' | 'running' | 'completed';

export interface TranslationRecord {
  id: string;
  organizationId: string;
  sourceSpaceId: string;
  sourceLanguage: string;
  language: string;
  instructions: Record<string, unknown>;
  /** Whose name the translated commits carry. */
  createdBy: string;
  targetSpaceId: string | null;
  status: TranslationStatus;
  /** Runs requested so far; the latest is run number `runs`. */
  runs: number;
  completedRuns: number;
  totalWords: number;
  totalPages: number;
  totalDurationMs: number;
  latestRunDurationMs: number;
  latestPages: number;
  latestWords: number;
  latestRevision: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

interface TranslationRow {
  id: string;
  organization_id: string;
  source_space_id: string;
  source_language: string;
  language: string;
  instructions: string;
  created_by: string;
  target_space_id: string | null;
  status: string;
  runs: number;
  completed_runs: number;
  total_words: number;
  total_pages: number;
  total_duration_ms: number;
  latest_run_duration_ms: number;
  latest_pages: number;
  latest_words: number;
  latest_revision: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

const toTranslation = (row: TranslationRow): TranslationRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  sourceSpaceId: row.source_space_id,
  sourceLanguage: row.source_language,
  language: row.language,
  instructions: JSON.parse(row.instructions) as Record<string, unknown>,
  createdBy: row.created_by,
  targetSpaceId: row.target_space_id,
  status: row.status as TranslationStatus,
  runs: row.runs,
  completedRuns: row.completed_runs,
  totalWords: row.total_words,
  totalPages: row.total_pages,
  totalDurationMs: row.total_duration_ms,
  latestRunDurationMs: row.latest_run_duration_ms,
  latestPages: row.latest_pages,
  latestWords: row.latest_words,
  latestRevision: row.latest_revision,
  lastError: row.last_error,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

// Unique pages ever translated: rows of page files (markdown other than SUMMARY.md), removed ones included.
const totalPages = `(SELECT COUNT(*) FROM translation_files f WHERE f.translation_id = translations.id AND f.path LIKE '%.md' AND f.path <> 'SUMMARY.md')`;
const columns = `id, organization_id, source_space_id, source_language, language, instructions, created_by, target_space_id, status, runs, completed_runs,
  total_words, ${totalPages} AS total_pages, total_duration_ms, latest_run_duration_ms, latest_pages, latest_words, latest_revision, last_error, created_at, updated_at`;

export async function findTranslation(db: Queryable, translationId: string): Promise<TranslationRecord | undefined> {
  const row = await db.get<TranslationRow>(`SELECT ${columns} FROM translations WHERE id = ?`, [translationId]);
  return row && toTranslation(row);
}

/** The organization's translation, or a 404 (another organization's ids included). */
export async function getTranslation(db: Queryable, organizationId: string, translationId: string): Promise<TranslationRecord> {
  const found = await findTranslation(db, translationId);
  if (!found || found.organizationId !== organizationId) throw notFound(`Translation ${translationId}`);
  return found;
}

export async function listTranslations(db: Queryable, organizationId: string, request: PageRequest): Promise<Page<TranslationRecord>> {
  const page = await paginate<TranslationRow>(
    db,
    { select: columns, from: 'translations', where: 'organization_id = ?', params: [organizationId], sort: ['created_at', 'id'], key: (row) => [row.created_at, row.id] },
    request,
  );
  return mapPage(page, toTranslation);
}

export async function insertTranslation(
  tx: Transaction,
  input: { organizationId: string; sourceSpaceId: string; sourceLanguage: string; language: string; instructions: Record<string, unknown>; createdBy: string },
): Promise<TranslationRecord> {
  const id = newId();
  const at = now();
  await tx.run(`INSERT INTO translations (id, organization_id, source_space_id, source_language, language, instructions, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
    id,
    input.organizationId,
    input.sourceSpaceId,
    input.sourceLanguage,
    input.language,
    JSON.stringify(input.instructions),
    input.createdBy,
    at,
    at,
  ]);
  return (await findTranslation(tx, id))!;
}

export async function setTranslationInstructions(db: Queryable, translationId: string, instructions: Record<string, unknown>): Promise<void> {
  await db.run('UPDATE translations SET instructions = ?, updated_at = ? WHERE id = ?', [JSON.stringify(instructions), now(), translationId]);
}

export async function deleteTranslation(db: Queryable, translationId: string): Promise<boolean> {
  return (await db.run('DELETE FROM translations WHERE id = ?', [translationId])).changes > 0;
}

/**
 * The run to start or join: while one is pending or running it is that one; otherwise the next
 * run number, recorded as pending. Undefined when the translation is gone.
 */
export async function claimTranslationRun(tx: Transaction, translationId: string): Promise<{ run: number; started: boolean } | undefined> {
  const row = await tx.get<{ status: string; runs: number }>('SELECT status, runs FROM translations WHERE id = ?', [translationId]);
  if (!row) return undefined;
  if (row.runs > 0 && row.status !== 'completed') return { run: row.runs, started: false };
  await tx.run(`UPDATE translations SET runs = runs + 1, status = 'pending', updated_at = ? WHERE id = ?`, [now(), translationId]);
  return { run: row.runs + 1, started: true };
}

/** Undoes a claim whose job could not be started. */
export async function releaseTranslationRun(db: Queryable, translationId: string, run: number): Promise<void> {
  await db.run(`UPDATE translations SET runs = runs - 1, status = CASE WHEN completed_runs > 0 THEN 'completed' ELSE 'pending' END WHERE id = ? AND runs = ?`, [translationId, run]);
}

export async function setTranslationRunning(db: Queryable, translationId: string, run: number): Promise<void> {
  await db.run(`UPDATE translations SET status = 'running', updated_at = ? WHERE id = ? AND runs = ?`, [now(), translationId, run]);
}

/** Records the target space, if the target is still `expected` (the one the run read); whether it did. */
export async function setTranslationTarget(db: Queryable, translationId: string, expected: string | null, targetSpaceId: string): Promise<boolean> {
  const { changes } = await db.run('UPDATE translations SET target_space_id = ?, updated_at = ? WHERE id = ? AND target_space_id IS ?', [targetSpaceId, now(), translationId, expected]);
  return changes > 0;
}

/** Each source file's blob as the last completed run translated it (path → blob id). */
export async function translatedFiles(db: Queryable, translationId: string): Promise<Map<string, string>> {
  const rows = await db.all<{ path: string; source_oid: string }>('SELECT path, source_oid FROM translation_files WHERE translation_id = ? AND source_oid IS NOT NULL', [translationId]);
  return new Map(rows.map((row) => [row.path, row.source_oid]));
}

export interface CompletedRun {
  translationId: string;
  run: number;
  revision: string;
  /** Source files written in this run (path → source blob), and those removed. */
  written: Map<string, string>;
  removed: string[];
  pages: number;
  words: number;
  durationMs: number;
}

/**
 * Records a finished run in one transaction: the files it translated, the stats, `completed`.
 * A run already recorded (a retried activity) changes nothing. False when the translation is gone.
 */
export async function completeTranslationRun(tx: Transaction, done: CompletedRun): Promise<boolean> {
  const row = await tx.get<{ completed_runs: number }>('SELECT completed_runs FROM translations WHERE id = ?', [done.translationId]);
  if (!row) return false;
  if (row.completed_runs >= done.run) return true;
  for (const [path, oid] of done.written) {
    await tx.run('INSERT INTO translation_files (translation_id, path, source_oid) VALUES (?, ?, ?) ON CONFLICT (translation_id, path) DO UPDATE SET source_oid = excluded.source_oid', [
      done.translationId,
      path,
      oid,
    ]);
  }
  for (const path of done.removed) await tx.run('UPDATE translation_files SET source_oid = NULL WHERE translation_id = ? AND path = ?', [done.translationId, path]);
  await tx.run(
    `UPDATE translations SET completed_runs = ?, status = CASE WHEN runs = ? THEN 'completed' ELSE status END, total_words = total_words + ?,
       total_duration_ms = total_duration_ms + ?, latest_run_duration_ms = ?, latest_pages = ?, latest_words = ?, latest_revision = ?, last_error = NULL, updated_at = ?
     WHERE id = ?`,
    [done.run, done.run, done.words, done.durationMs, done.durationMs, done.pages, done.words, done.revision, now(), done.translationId],
  );
  return true;
}

/**
 * A run that failed for good: nothing is under way any more, so `completed` (the status upstream has
 * for that), its stats untouched; the reason is kept for the log and operators.
 */
export async function failTranslationRun(db: Queryable, translationId: string, run: number, reason: string): Promise<void> {
  await db.run(`UPDATE translations SET status = 'completed', last_error = ?, updated_at = ? WHERE id = ? AND runs = ?`, [reason, now(), translationId, run]);
}
