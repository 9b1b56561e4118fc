import type { Migration } from './index.js';

export const openapi: Migration = {
  version: 13,
  name: 'openapi',
  sql: `
-- An organization's OpenAPI specifications. The source is a URL or uploaded text; "generation"
-- counts source changes, so a job knows whether what it processed is still the latest.
CREATE TABLE openapi_specs (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  slug TEXT NOT NULL,
  source_url TEXT,
  source_text TEXT,
  generation INTEGER NOT NULL DEFAULT 1,
  processing_state TEXT NOT NULL DEFAULT 'pending',
  visibility TEXT NOT NULL DEFAULT 'private',
  last_version_id TEXT,
  last_processed_at TEXT,
  last_error_code TEXT,
  last_errors TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (organization_id, slug)
);
-- Immutable processed versions: the bundled specification as a filesystem (JSON), and its digest
-- so that re-processing unchanged content adds nothing.
CREATE TABLE openapi_spec_versions (
  id TEXT PRIMARY KEY,
  spec_id TEXT NOT NULL REFERENCES openapi_specs(id) ON DELETE CASCADE,
  digest TEXT NOT NULL,
  source_url TEXT,
  filesystem TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX openapi_spec_versions_of_spec ON openapi_spec_versions (spec_id, created_at);
`,
};
