/**
 * The storage modules write SQLite's SQL; PostgreSQL runs it through `toPostgres`, which rewrites
 * the few constructs the two spell differently. What can't be rewritten by rule (full-text search,
 * date arithmetic, JSON aggregation) is chosen by the module from `db.dialect`.
 */
export type Dialect = 'sqlite' | 'postgres';

const rewritten = new Map<string, string>();

/** A statement in PostgreSQL's spelling; kept by text, as statements are few and reused. */
export function toPostgres(sql: string): string {
  let result = rewritten.get(sql);
  if (result === undefined) {
    result = rewrite(sql);
    if (rewritten.size < 5_000) rewritten.set(sql, result);
  }
  return result;
}

function rewrite(sql: string): string {
  let index = 0;
  // Only the text outside quoted literals and identifiers is rewritten.
  return sql
    .split(/('(?:[^']|'')*'|"[^"]*")/)
    .map((part, position) => {
      if (position % 2 === 1) return part;
      return (
        part
          .replace(/\bIS\s+NOT\s+\?/gi, 'IS DISTINCT FROM ?')
          .replace(/\bIS\s+\?/gi, 'IS NOT DISTINCT FROM ?')
          .replace(/\bjson_each\(\s*\?\s*\)/gi, 'json_array_elements_text(CAST(? AS json))')
          // SQLite's LIKE ignores ASCII case.
          .replace(/\bLIKE\b/gi, 'ILIKE')
          // SQLite keeps an alias's case; PostgreSQL folds unquoted names to lower case.
          .replace(/\bAS\s+([a-z]\w*[A-Z]\w*)\b/g, 'AS "$1"')
          .replace(/\?/g, () => `$${++index}`)
      );
    })
    .join('');
}

/**
 * "`column` is `value`", NULL included, as a condition and its parameters. `column IS ?` says the
 * same, but PostgreSQL reads it as IS NOT DISTINCT FROM, which no index serves: every comment of a
 * space was read to find those outside change requests.
 */
export function sameAs(column: string, value: string | null): { sql: string; params: string[] } {
  return value === null ? { sql: `${column} IS NULL`, params: [] } : { sql: `${column} = ?`, params: [value] };
}

/**
 * "`column` is one of `values`", as a condition and its one parameter: a JSON array read by
 * json_each on SQLite, the array itself on PostgreSQL. PostgreSQL's planner sees how long an array
 * is, where it guesses 100 rows for a JSON list whatever its length: listing the change requests
 * of 20,000 spaces took it 500 ms the JSON way, 2 ms this way.
 */
export function amongValues(dialect: Dialect, column: string, values: string[]): { sql: string; params: [string | string[]] } {
  return dialect === 'postgres' ? { sql: `${column} = ANY(CAST(? AS text[]))`, params: [values] } : { sql: `${column} IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(values)] };
}

/** Parameters as PostgreSQL takes them: booleans as the 0/1 SQLite stores, undefined as NULL. */
export function postgresParams(params: readonly unknown[]): unknown[] {
  return params.map((value) => (value === undefined ? null : typeof value === 'boolean' ? (value ? 1 : 0) : value));
}

/**
 * A migration's DDL for PostgreSQL: SQLite's INTEGER (64-bit) as BIGINT, REAL (double) as DOUBLE
 * PRECISION, BLOB as BYTEA (both read back as a Buffer), a NOCASE text column as CITEXT, and every other text column in the "C" collation, so
 * lists sort by code point as on SQLite (and ILIKE folds ASCII only, as SQLite's LIKE), whatever
 * the database's locale.
 */
export function postgresSchema(sql: string): string {
  return sql
    .replace(/\bINTEGER\b/g, 'BIGINT')
    .replace(/\bREAL\b/g, 'DOUBLE PRECISION')
    .replace(/\bBLOB\b/g, 'BYTEA')
    .replace(/\bTEXT(\b[^,\n]*?)\s+COLLATE\s+NOCASE\b/g, 'CITEXT$1')
    .replace(/\bTEXT\b/g, 'TEXT COLLATE "C"');
}

/**
 * Tables whose queries order by SQLite's implicit `rowid` (insertion order) get one on PostgreSQL:
 * an identity column of that name, so the queries read the same on both.
 */
export function withRowid(ddl: string, tables: string[]): string {
  let result = ddl;
  for (const table of tables) {
    const created = `CREATE TABLE ${table} (`;
    if (!result.includes(created)) throw new Error(`withRowid: no "${created}" in the migration`);
    result = result.replace(created, `${created}\n  rowid BIGINT GENERATED ALWAYS AS IDENTITY,`);
  }
  return result;
}
