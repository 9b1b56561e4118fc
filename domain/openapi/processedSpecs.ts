import { Lru } from '../../engine/index.js';
import { processedOpenAPIVersionsCached, readOpenAPIFilesystem, type OpenAPIProcessedVersion } from '../../storage/openapi.js';
import type { Database } from '../../storage/db.js';

export type { OpenAPIProcessedVersion };

/** The organization's processed specifications (slug, source URL, latest version), cached until one changes. */
export function processedOpenAPIVersions(deps: { db: Database }, organizationId: string): Promise<OpenAPIProcessedVersion[]> {
  return processedOpenAPIVersionsCached(deps.db, organizationId);
}

/** Versions never change once stored: the last few read are kept parsed, as pages showing one spec are rendered in a row. */
const parsed = new Lru<string, Promise<unknown>>(8);

/** A processed version's bundled document (`openapi.json` of its filesystem). */
export function readProcessedSpec(deps: { db: Database }, versionId: string): Promise<unknown> {
  let spec = parsed.get(versionId);
  if (!spec) {
    spec = readOpenAPIFilesystem(deps.db, versionId).then((filesystem) => filesystem['openapi.json']);
    spec.catch(() => parsed.delete(versionId));
    parsed.set(versionId, spec);
  }
  return spec;
}
