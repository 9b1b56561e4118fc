import type { ImportRunRecord } from '../../storage/imports.js';
import type { Urls } from '../urls.js';

/** 0.202.0's ContentImportRun. */
export function presentImportRun(run: ImportRunRecord, urls: Urls) {
  return {
    object: 'import-run' as const,
    id: run.id,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    ...(run.startedAt ? { startedAt: run.startedAt } : {}),
    ...(run.completedAt ? { completedAt: run.completedAt } : {}),
    status: run.status,
    ...(run.reason ? { reason: run.reason } : {}),
    source: run.source,
    target: run.target,
    ...(run.siteId ? { site: run.siteId } : {}),
    createdBy: run.createdBy,
    urls: { location: urls.api(`/org/${run.organizationId}/imports/${run.id}`) },
    pages: run.pages,
  };
}
