import { failPdfExport, renderChangeRequestPdf, type PdfExportInput } from '../../domain/pdf/index.js';
import type { ContentDeps } from '../../domain/common/deps.js';

/** Renders and stores a change request's PDF (nothing when it is stored already). */
export function renderPdfExport(deps: ContentDeps) {
  return (input: PdfExportInput) => renderChangeRequestPdf(deps, input);
}

/** Marks an export failed for good, with the reason its URL then gives. */
export function failPdfExportActivity(deps: Pick<ContentDeps, 'db'>) {
  return (input: PdfExportInput & { reason: string }) => failPdfExport(deps, input, input.reason);
}
