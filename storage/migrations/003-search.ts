import { postgresSchema } from '../dialect.js';
import type { Migration } from './index.js';

/** The index's bookkeeping tables, the same on both databases. */
const pageTables = `
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
`;

export const search: Migration = {
  version: 3,
  name: 'search',
  sql:
    `
-- One row per page section (the text under a heading) of each space's primary revision.
CREATE VIRTUAL TABLE search_sections USING fts5(
  title, body,
  space_id UNINDEXED, page_id UNINDEXED, section_id UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2'
);
` + pageTables,
  // Full text in PostgreSQL: accents folded by unaccent (wrapped as IMMUTABLE, which a stored
  // column needs), words split by the 'simple' configuration (no stemming, as FTS5's unicode61),
  // the title weighted A and the body B; a GIN index over both. Text columns in the "C" collation, as every table's.
  postgres: postgresSchema(
    `
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE FUNCTION quire_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT unaccent('unaccent'::regdictionary, $1) $$;

CREATE TABLE search_sections (
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  space_id TEXT NOT NULL,
  page_id TEXT NOT NULL,
  section_id TEXT NOT NULL,
  document tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple', quire_unaccent(title)), 'A') || setweight(to_tsvector('simple', quire_unaccent(body)), 'B')
  ) STORED
);
CREATE INDEX search_sections_document ON search_sections USING GIN (document);
CREATE INDEX search_sections_by_page ON search_sections (space_id, page_id);
` + pageTables,
  ),
};
