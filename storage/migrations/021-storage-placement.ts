import type { Migration } from './index.js';

export const storagePlacement: Migration = {
  version: 21,
  name: 'storage-placement',
  sql: `
-- Where repositories live: a storage is a folder of repositories on one node's disk, served by the
-- node that owns it (its URL here, for the other nodes to send its spaces' requests to; NULL while
-- no node owns it). Every space lives on one storage; those from before are on 'local'.
CREATE TABLE storages (
  id TEXT PRIMARY KEY,
  node_url TEXT,
  claimed_at TEXT
);
ALTER TABLE spaces ADD COLUMN storage_id TEXT NOT NULL DEFAULT 'local';
CREATE INDEX spaces_by_storage ON spaces (storage_id);
-- The commit each space's primary branch points at, recorded after every move, so that lists of
-- many spaces read it here instead of opening each repository (a table of its own: a write
-- doesn't invalidate what is cached of the spaces table).
CREATE TABLE space_heads (
  space_id TEXT PRIMARY KEY REFERENCES spaces(id) ON DELETE CASCADE,
  revision TEXT NOT NULL,
  recorded_at TEXT NOT NULL
);
`,
};
