import type { Migration } from './index.js';

export const siblingPositions: Migration = {
  version: 23,
  name: 'sibling-positions',
  // A new space or collection takes the position after its siblings' (nextPosition). Without these,
  // SQLite found the siblings of a top-level item through (collection_id)/(parent_id) alone, that
  // is among the top-level items of every organization: each creation read them all.
  sql: `
CREATE INDEX spaces_by_organization_collection ON spaces (organization_id, collection_id, position);
CREATE INDEX collections_by_organization_parent ON collections (organization_id, parent_id, position);
`,
};
