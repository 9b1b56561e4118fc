import type { Migration } from './index.js';

export const tokenExpiry: Migration = {
  version: 6,
  name: 'token-expiry',
  sql: `
-- A token may expire (NULL: never); last_used_at is kept to the minute, for operators.
ALTER TABLE tokens ADD COLUMN expires_at TEXT;
ALTER TABLE tokens ADD COLUMN last_used_at TEXT;
`,
};
