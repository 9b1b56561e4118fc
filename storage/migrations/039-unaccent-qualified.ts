import type { Migration } from './index.js';

export const unaccentQualified: Migration = {
  version: 39,
  name: 'unaccent-qualified',
  // SQLite: nothing. PostgreSQL: the search's accent folding names unaccent with its schema. It
  // named it bare, found through the search_path; pg_restore runs with an empty search_path, so a
  // restored dump failed as its search rows were inserted ("text search dictionary unaccent does
  // not exist"): `admin restore` of a PostgreSQL backup needs this.
  sql: 'SELECT 1;',
  postgres: `
DO $migration$
DECLARE
  home text;
BEGIN
  SELECT n.nspname INTO home FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent';
  EXECUTE format(
    'CREATE OR REPLACE FUNCTION quire_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $body$ SELECT %I.unaccent(%L::regdictionary, $1) $body$',
    home,
    home || '.unaccent'
  );
END
$migration$;
`,
};
