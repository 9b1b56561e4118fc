import type { Migration } from './index.js';

export const sharedState: Migration = {
  version: 20,
  name: 'shared-state',
  sql: `
-- What every node of an instance must share, kept here rather than in a node's data folder: the
-- secret keys that sign download URLs, site tokens and site previews (base64 of 32 random bytes,
-- made once by whichever node needs one first), and the rendered PDF exports.
CREATE TABLE instance_keys (
  name TEXT PRIMARY KEY,
  secret TEXT NOT NULL,
  created_at TEXT NOT NULL
);
-- A PDF export: the request (what to render, as JSON), where its job stands, and the PDF once
-- rendered. Its id is a hash of what it renders, so asking again for the same reuses it.
CREATE TABLE pdf_exports (
  id TEXT PRIMARY KEY,
  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  input TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'ready', 'failed')),
  reason TEXT,
  pdf BLOB,
  requested_at TEXT NOT NULL,
  rendered_at TEXT
);
CREATE INDEX pdf_exports_by_space ON pdf_exports (space_id);
`,
};
