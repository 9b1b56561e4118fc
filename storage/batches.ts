/**
 * Rows written by one multi-row statement: on PostgreSQL each statement is a round trip, and a
 * hundred rows of a few columns stay well under either database's limit on parameters.
 */
export const rowsPerStatement = 100;

/** `items` in consecutive runs of at most `size`. */
export function inBatches<T>(items: T[], size = rowsPerStatement): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}

/** A multi-row `VALUES` list for `rows` (each of the same length) and its parameters, in order. */
export function valuesOf(rows: unknown[][]): { sql: string; params: unknown[] } {
  const placeholders = `(${rows[0]?.map(() => '?').join(', ') ?? ''})`;
  return { sql: `VALUES ${rows.map(() => placeholders).join(', ')}`, params: rows.flat() };
}
