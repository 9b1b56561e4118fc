import type { Queryable } from './db.js';
import { now } from './ids.js';

export type PdfExportStatus = { state: 'pending' } | { state: 'ready'; renderedAt: string } | { state: 'failed'; reason: string };

/** Records a request for an export; one that failed before is asked for again (pending). */
export async function requestPdfExport(db: Queryable, id: string, spaceId: string, input: unknown): Promise<void> {
  await db.run(
    `INSERT INTO pdf_exports (id, space_id, input, state, requested_at) VALUES (?, ?, ?, 'pending', ?)
     ON CONFLICT (id) DO UPDATE SET state = 'pending', reason = NULL, requested_at = excluded.requested_at WHERE pdf_exports.state = 'failed'`,
    [id, spaceId, JSON.stringify(input), now()],
  );
}

/** Where an export of the space stands, or undefined when it was never asked for. */
export async function pdfExportStatus(db: Queryable, spaceId: string, id: string): Promise<PdfExportStatus | undefined> {
  const row = await db.get<{ state: string; reason: string | null; rendered_at: string | null }>('SELECT state, reason, rendered_at FROM pdf_exports WHERE id = ? AND space_id = ?', [id, spaceId]);
  if (!row) return undefined;
  if (row.state === 'ready') return { state: 'ready', renderedAt: row.rendered_at! };
  if (row.state === 'failed') return { state: 'failed', reason: row.reason ?? '' };
  return { state: 'pending' };
}

/** The rendered PDF's bytes, or undefined when it isn't rendered (or not of that space). */
export async function readPdfExport(db: Queryable, spaceId: string, id: string): Promise<Buffer | undefined> {
  const row = await db.get<{ pdf: Buffer | null }>("SELECT pdf FROM pdf_exports WHERE id = ? AND space_id = ? AND state = 'ready'", [id, spaceId]);
  return row?.pdf ?? undefined;
}

/** Stores the rendered PDF whole: the export is ready. False when the export is gone (its space purged). */
export async function storePdfExport(db: Queryable, id: string, pdf: Uint8Array): Promise<boolean> {
  const { changes } = await db.run("UPDATE pdf_exports SET state = 'ready', pdf = ?, reason = NULL, rendered_at = ? WHERE id = ?", [Buffer.from(pdf), now(), id]);
  return changes === 1;
}

/** Records why an export failed for good; a PDF already rendered stays. */
export async function failStoredPdfExport(db: Queryable, id: string, reason: string): Promise<void> {
  await db.run("UPDATE pdf_exports SET state = 'failed', reason = ? WHERE id = ? AND state <> 'ready'", [reason, id]);
}
