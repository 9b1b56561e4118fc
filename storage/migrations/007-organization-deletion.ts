import type { Migration } from './index.js';

export const organizationDeletion: Migration = {
  version: 7,
  name: 'organization-deletion',
  sql: `
-- A deleted organization keeps its row (a tombstone, like space_purges) while its spaces wait out
-- their retention in the bin; everything else of it is deleted with it.
ALTER TABLE organizations ADD COLUMN deleted_at TEXT;
`,
};
