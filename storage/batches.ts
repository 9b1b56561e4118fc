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
