import type { Migration } from './index.js';

export const gitSync: Migration = {
  version: 16,
  name: 'git-sync',
  sql: `
-- What Git Sync knows of a space: the provider details an import or export was given
-- ("gitInfo", shown by getSpaceGitInfo), and the last operation's outcome.
CREATE TABLE space_git_sync (
  space_id TEXT PRIMARY KEY REFERENCES spaces(id) ON DELETE CASCADE,
  provider TEXT,
  url TEXT,
  repo_name TEXT,
  updated_at TEXT NOT NULL,
  last_direction TEXT,
  last_state TEXT,
  last_message TEXT,
  last_commit TEXT
);
`,
};
