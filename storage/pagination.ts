import { createHash } from 'node:crypto';
import type { Queryable } from './db.js';
import { StorageError } from './errors.js';

export interface PageRequest {
  limit: number;
  page?: string;
  order?: 'asc' | 'desc';
}

export interface Page<T> {
  items: T[];
  count: number;
  /** Cursor of the following page; absent on the last page. */
  next?: string;
}

export interface KeysetQuery<R> {
  select: string;
  from: string;
  /** A cheaper FROM for the total count, when the page's joins don't change which rows match. */
  countFrom?: string;
  where: string;
  params: unknown[];
  /** Sort column, then a unique column that breaks ties: a cursor stays valid across inserts. */
  sort: [string, string];
  /**
   * What identifies the list for its cursors, when the parameters may change between pages
   * while the list stays the same (by default: the query itself).
   */
  identity?: unknown;
  /** Reads the sort and tie values back from a row, to build the next cursor. */
  key: (row: R) => [string | number, string];
  /**
   * For a list whose rows may all be replaced at once (a consolidation of the clusters): which
   * state the rows are in, read in the same snapshot. A cursor from another state is refused with
   * `changed` rather than giving the rest of a list that is no longer the one its first pages came from.
   */
  generation?: { value: number; changed: string };
}

/**
 * Keyset pagination: the opaque cursor holds the last row's sort key, so a page never repeats
 * or skips rows that were there before, whatever is inserted meanwhile.
 */
export async function paginate<R>(db: Queryable, query: KeysetQuery<R>, request: PageRequest): Promise<Page<R>> {
  const order = request.order === 'desc' ? 'DESC' : 'ASC';
  const [sortColumn, tieColumn] = query.sort;
  const where = [query.where];
  const params = [...query.params];
  // A cursor is valid only for the list it came from: same rows, filters, sort and order.
  const list = createHash('sha256')
    .update(JSON.stringify([query.from, query.where, query.identity ?? query.params, query.sort, order]))
    .digest('base64url')
    .slice(0, 12);
  if (request.page !== undefined) {
    const [sortValue, tieValue] = decodeCursor(request.page, list, query.generation);
    where.push(`(${sortColumn}, ${tieColumn}) ${order === 'ASC' ? '>' : '<'} (?, ?)`);
    params.push(sortValue, tieValue);
  }
  const countRow = await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${query.countFrom ?? query.from} WHERE ${query.where}`, query.params);
  if (request.limit === 0) return { items: [], count: countRow?.n ?? 0 };
  const rows = await db.all<R>(
    `SELECT ${query.select} FROM ${query.from} WHERE ${where.join(' AND ')}
     ORDER BY ${sortColumn} ${order}, ${tieColumn} ${order} LIMIT ?`,
    [...params, request.limit + 1],
  );
  const items = rows.slice(0, request.limit);
  const last = items[items.length - 1];
  return {
    items,
    count: countRow?.n ?? 0,
    ...(rows.length > request.limit && last ? { next: encodeCursor(list, query.key(last), query.generation?.value) } : {}),
  };
}

/**
 * The same keyset pagination over a list already in memory (a revision's files, for example),
 * ordered by `key` (`request.order` desc: from the highest), with cursors bound to `identity`.
 */
export function paginateArray<T>(items: T[], key: (item: T) => [string | number, string], identity: string, request: PageRequest): Page<T> {
  const direction = request.order === 'desc' ? -1 : 1;
  const list = createHash('sha256')
    .update(JSON.stringify(['array', identity, direction]))
    .digest('base64url')
    .slice(0, 12);
  const compare = (a: [string | number, string], b: [string | number, string]) => direction * (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
  const sorted = [...items].sort((a, b) => compare(key(a), key(b)));
  const after = request.page === undefined ? undefined : decodeCursor(request.page, list);
  const rest = after ? sorted.filter((item) => compare(key(item), after) > 0) : sorted;
  const pageItems = request.limit === 0 ? [] : rest.slice(0, request.limit);
  const last = pageItems[pageItems.length - 1];
  return { items: pageItems, count: items.length, ...(rest.length > pageItems.length && last ? { next: encodeCursor(list, key(last)) } : {}) };
}

/** A LIKE pattern matching `text` anywhere, with LIKE's wildcards taken literally (use ESCAPE '\\'). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
}

export function mapPage<R, T>(page: Page<R>, map: (row: R) => T): Page<T> {
  return { ...page, items: page.items.map(map) };
}

function encodeCursor(list: string, key: [string | number, string], generation?: number): string {
  return Buffer.from(JSON.stringify(generation === undefined ? [list, ...key] : [list, ...key, generation])).toString('base64url');
}

function decodeCursor(cursor: string, list: string, generation?: KeysetQuery<unknown>['generation']): [string | number, string] {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    // refused below
  }
  const length = generation === undefined ? 3 : 4;
  if (Array.isArray(parts) && parts.length === length && parts[0] === list && ['string', 'number'].includes(typeof parts[1]) && typeof parts[2] === 'string') {
    if (generation !== undefined && parts[3] !== generation.value) throw new StorageError('invalid_cursor', generation.changed);
    return [parts[1], parts[2]];
  }
  throw new StorageError('invalid_cursor', `"page" is not a cursor this list returned: ${JSON.stringify(cursor)}`);
}
