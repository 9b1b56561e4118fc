import type { Migration } from './index.js';

export const searchBySpace: Migration = {
  version: 22,
  name: 'search-by-space',
  // FTS5 can only filter an UNINDEXED column by reading every row: each refresh's DELETE read the
  // whole index, and a search over a few spaces read every match in all of them. With space_id a
  // full-text column, both find a space's sections through the index ({space_id}: "…").
  sql: `
CREATE VIRTUAL TABLE search_sections_by_space USING fts5(
  title, body, space_id,
  page_id UNINDEXED, section_id UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO search_sections_by_space (title, body, space_id, page_id, section_id)
  SELECT title, body, space_id, page_id, section_id FROM search_sections;
DROP TABLE search_sections;
ALTER TABLE search_sections_by_space RENAME TO search_sections;
`,
  // A B-tree on (space_id, page_id) has served both since migration 003.
  postgres: '-- nothing to change',
};
