import type { Migration } from './index.js';

export const imports: Migration = {
  version: 32,
  name: 'imports',
  // Files uploaded for an import (generateStorageUploadURL, then a PUT of the bytes to the signed
  // URL it gives), kept in the database like PDFs so any node reads them; and the import runs
  // (startImportRun), each done by a Temporal job that reports its pages here.
  sql: `
CREATE TABLE IF NOT EXISTS storage_uploads (
  key TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  body BLOB
);
CREATE TABLE IF NOT EXISTS import_runs (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  space_id TEXT NOT NULL,
  change_request_id TEXT,
  page_id TEXT,
  site_id TEXT,
  source TEXT NOT NULL,
  status TEXT NOT NULL,
  reason TEXT,
  pages TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  started_at TEXT,
  updated_at TEXT NOT NULL,
  completed_at TEXT
);
CREATE INDEX IF NOT EXISTS import_runs_by_created ON import_runs(organization_id, created_at, id);
`,
};
