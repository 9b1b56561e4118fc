import type { Migration } from './index.js';

export const content: Migration = {
  version: 2,
  name: 'content',
  sql: `
CREATE TABLE collections (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  parent_id TEXT REFERENCES collections(id) ON DELETE CASCADE,
  -- order among the siblings (spaces and collections of the same parent)
  position REAL NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  -- 'inherit', a role, or NULL for guests-only
  default_level TEXT DEFAULT 'inherit',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX collections_by_organization ON collections(organization_id, created_at, id);
CREATE INDEX collections_by_parent ON collections(parent_id, position);

CREATE TABLE spaces (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  collection_id TEXT REFERENCES collections(id) ON DELETE SET NULL,
  position REAL NOT NULL,
  title TEXT NOT NULL,
  emoji TEXT,
  visibility TEXT NOT NULL DEFAULT 'private',
  edit_mode TEXT NOT NULL DEFAULT 'live',
  default_level TEXT DEFAULT 'inherit',
  merge_rules TEXT NOT NULL DEFAULT '{"type":"inherit"}',
  language TEXT,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE INDEX spaces_by_organization ON spaces(organization_id, created_at, id);
CREATE INDEX spaces_by_collection ON spaces(collection_id, position);
`,
};
