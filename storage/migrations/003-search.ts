import type { Migration } from './index.js';

export const search: Migration = {
  version: 3,
  name: 'search',
  sql: `
-- One row per page section (the text under a heading) of each space's primary revision.
CREATE VIRTUAL TABLE search_sections USING fts5(
  title, body,
  space_id UNINDEXED, page_id UNINDEXED, section_id UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2'
);

-- What the index holds per page: the page's place and a hash of its text, so a new revision
-- re-indexes only the pages whose text changed.
CREATE TABLE search_pages (
  space_id TEXT NOT NULL,
  page_id TEXT NOT NULL,
  title TEXT NOT NULL,
  path TEXT NOT NULL,
  ancestors TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  PRIMARY KEY (space_id, page_id)
);

CREATE TABLE search_spaces (
  space_id TEXT PRIMARY KEY,
  revision TEXT NOT NULL,
  indexed_at TEXT NOT NULL
);
`,
};
