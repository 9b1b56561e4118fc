import type { Migration } from './index.js';

export const spacePurges: Migration = {
  version: 4,
  name: 'space-purges',
  sql: `
-- What the deletion job removed for good, and when: the trace of a space after its row is gone.
CREATE TABLE space_purges (
  space_id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  title TEXT NOT NULL,
  deleted_at TEXT NOT NULL,
  purged_at TEXT NOT NULL
);
CREATE INDEX spaces_deleted ON spaces (deleted_at) WHERE deleted_at IS NOT NULL;
`,
};
