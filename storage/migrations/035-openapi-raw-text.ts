import type { Migration } from './index.js';

export const openapiRawText: Migration = {
  version: 35,
  name: 'openapi-raw-text',
  // A processed version's entry file as it was fetched or uploaded, and whether it was JSON or
  // YAML (getLatestOpenAPISpecVersionContentRaw): beside the version, which versions processed
  // before this have none of. A table of its own, so the migration can run again harmlessly.
  sql: `
CREATE TABLE IF NOT EXISTS openapi_version_sources (
  version_id TEXT PRIMARY KEY REFERENCES openapi_spec_versions(id) ON DELETE CASCADE,
  raw_text TEXT NOT NULL,
  raw_format TEXT NOT NULL
);
`,
};
