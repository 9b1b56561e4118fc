import type { Migration } from './index.js';

export const translations: Migration = {
  version: 14,
  name: 'translations',
  sql: `
-- An organization's translations: a source space translated into a language, into a target space
-- made by the first run. "runs" counts the runs requested; run N is the job translation:<id>:<N>.
CREATE TABLE translations (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  source_space_id TEXT NOT NULL,
  source_language TEXT NOT NULL,
  language TEXT NOT NULL,
  instructions TEXT NOT NULL,
  created_by TEXT NOT NULL,
  target_space_id TEXT,
  status TEXT NOT NULL DEFAULT 'pending',
  runs INTEGER NOT NULL DEFAULT 0,
  completed_runs INTEGER NOT NULL DEFAULT 0,
  total_words INTEGER NOT NULL DEFAULT 0,
  total_duration_ms INTEGER NOT NULL DEFAULT 0,
  latest_run_duration_ms INTEGER NOT NULL DEFAULT 0,
  latest_pages INTEGER NOT NULL DEFAULT 0,
  latest_words INTEGER NOT NULL DEFAULT 0,
  latest_revision TEXT,
  last_error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX translations_of_organization ON translations (organization_id, created_at);
-- What the last completed run translated: each source file's blob, so a re-run translates only
-- what changed. A file gone from the source keeps its row with a NULL blob: the count of rows of
-- page files is the number of unique pages ever translated.
CREATE TABLE translation_files (
  translation_id TEXT NOT NULL REFERENCES translations(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  source_oid TEXT,
  PRIMARY KEY (translation_id, path)
);
`,
};
