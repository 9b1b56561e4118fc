import type { Migration } from './index.js';

export const openapiRawText: Migration = {
  version: 35,
  name: 'openapi-raw-text',
  // A processed version keeps its entry file's text as it was fetched or uploaded, and whether it
  // was JSON or YAML (getLatestOpenAPISpecVersionContentRaw). Versions processed before have none.
  sql: `
ALTER TABLE openapi_spec_versions ADD COLUMN raw_text TEXT;
ALTER TABLE openapi_spec_versions ADD COLUMN raw_format TEXT;
`,
};
