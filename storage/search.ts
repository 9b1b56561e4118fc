import type { Queryable, Transaction } from './db.js';
import { now } from './ids.js';
import { fts5 } from './searchIndex/fts5.js';
import { postgresText } from './searchIndex/postgresText.js';
import type { SearchIndex } from './searchIndex/searchIndex.js';
import { inBatches, valuesOf } from './batches.js';

const searchIndexes: Record<Queryable['dialect'], SearchIndex> = { sqlite: fts5, postgres: postgresText };

export interface IndexedSection {
  id: string;
  title: string;
  body: string;
}

export interface IndexedPage {
  pageId: string;
  title: string;
  path: string;
  ancestors: string[];
  contentHash: string;
  sections: IndexedSection[];
}

export async function indexedRevision(db: Queryable, spaceId: string): Promise<string | undefined> {
  return (await db.get<{ revision: string }>('SELECT revision FROM search_spaces WHERE space_id = ?', [spaceId]))?.revision;
}

/** The hash of what is indexed for each page of the space (its text, title, path and place). */
export async function indexedHashes(db: Queryable, spaceId: string): Promise<Map<string, string>> {
  const rows = await db.all<{ page_id: string; content_hash: string }>('SELECT page_id, content_hash FROM search_pages WHERE space_id = ?', [spaceId]);
  return new Map(rows.map((row) => [row.page_id, row.content_hash]));
}

/** Inserts rows in statements of up to 100 rows: one round trip each instead of one per row. */
async function insertRows(tx: Transaction, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  for (const batch of inBatches(rows)) {
    const values = valuesOf(batch);
    await tx.run(`INSERT INTO ${table} (${columns.join(', ')}) ${values.sql}`, values.params);
  }
}

/**
 * Brings a space's index to `revision`: rewrites the changed pages, drops the removed ones. With
 * `from` (the revision the changes were worked out from, null for none), only while the index is
 * still there: another process that moved it meanwhile leaves these changes out of date. Returns
 * whether it wrote.
 */
export async function updateSpaceIndex(tx: Transaction, spaceId: string, revision: string, changed: IndexedPage[], removed: string[], options: { from?: string | null } = {}): Promise<boolean> {
  // A refresh that was under way when the space was purged must not leave its index behind.
  if (!(await tx.get('SELECT 1 FROM spaces WHERE id = ?', [spaceId]))) return false;
  if (options.from !== undefined && ((await indexedRevision(tx, spaceId)) ?? null) !== options.from) return false;
  const stale = JSON.stringify([...removed, ...changed.map((page) => page.pageId)]);
  const ofSpace = searchIndexes[tx.dialect].ofSpace(spaceId);
  await tx.run(`DELETE FROM search_sections WHERE ${ofSpace.where} AND page_id IN (SELECT value FROM json_each(?))`, [...ofSpace.params, stale]);
  await tx.run('DELETE FROM search_pages WHERE space_id = ? AND page_id IN (SELECT value FROM json_each(?))', [spaceId, stale]);
  await insertRows(
    tx,
    'search_pages',
    ['space_id', 'page_id', 'title', 'path', 'ancestors', 'content_hash'],
    changed.map((page) => [spaceId, page.pageId, page.title, page.path, JSON.stringify(page.ancestors), page.contentHash]),
  );
  await insertRows(
    tx,
    'search_sections',
    ['title', 'body', 'space_id', 'page_id', 'section_id'],
    changed.flatMap((page) => page.sections.map((section) => [section.title, section.body, spaceId, page.pageId, section.id])),
  );
  await tx.run(
    `INSERT INTO search_spaces (space_id, revision, indexed_at) VALUES (?, ?, ?)
     ON CONFLICT (space_id) DO UPDATE SET revision = excluded.revision, indexed_at = excluded.indexed_at`,
    [spaceId, revision, now()],
  );
  return true;
}

/** Gives a copy of a space (same history) the original's index, instead of building it again. */
export async function copySpaceIndex(tx: Transaction, fromSpaceId: string, toSpaceId: string): Promise<void> {
  await tx.run(
    `INSERT INTO search_pages (space_id, page_id, title, path, ancestors, content_hash)
     SELECT ?, page_id, title, path, ancestors, content_hash FROM search_pages WHERE space_id = ?`,
    [toSpaceId, fromSpaceId],
  );
  const ofSpace = searchIndexes[tx.dialect].ofSpace(fromSpaceId);
  await tx.run(
    `INSERT INTO search_sections (title, body, space_id, page_id, section_id)
     SELECT title, body, ?, page_id, section_id FROM search_sections WHERE ${ofSpace.where}`,
    [toSpaceId, ...ofSpace.params],
  );
  await tx.run(`INSERT INTO search_spaces (space_id, revision, indexed_at) SELECT ?, revision, indexed_at FROM search_spaces WHERE space_id = ?`, [toSpaceId, fromSpaceId]);
}

export async function removeSpaceIndex(db: Transaction, spaceId: string): Promise<void> {
  const ofSpace = searchIndexes[db.dialect].ofSpace(spaceId);
  await db.run(`DELETE FROM search_sections WHERE ${ofSpace.where}`, ofSpace.params);
  await db.run('DELETE FROM search_pages WHERE space_id = ?', [spaceId]);
  await db.run('DELETE FROM search_spaces WHERE space_id = ?', [spaceId]);
}

export interface SectionHit {
  spaceId: string;
  pageId: string;
  sectionId: string;
  sectionTitle: string;
  /** The section's text, as indexed (plain text): what an answer quotes. */
  body: string;
  /**
   * Made when asked, from the body read with the hit: a search ranks up to thousands of sections and
   * an answer shows a page of them.
   */
  excerpt: () => string;
  pageTitle: string;
  pagePath: string;
  ancestors: string[];
  /** Relevance, higher is better, 0 or more: title matches weigh four times body matches (see searchIndex/). */
  score: number;
}

/** The best-matching sections in the given spaces, best first (at most `limit`). */
export async function searchSections(db: Queryable, spaceIds: string[], query: string, limit: number): Promise<SectionHit[]> {
  const words = queryWords(query);
  if (words.length === 0 || spaceIds.length === 0) return [];
  const rows = await searchIndexes[db.dialect].sections(db, spaceIds, words, limit);
  // A page's sections share its ancestors: parsed once.
  const ancestors = new Map<string, string[]>();
  const ancestorsOf = (text: string) => ancestors.get(text) ?? ancestors.set(text, JSON.parse(text) as string[]).get(text)!;
  return rows.map((row) => ({
    spaceId: row.space_id,
    pageId: row.page_id,
    sectionId: row.section_id,
    sectionTitle: row.section_title,
    body: row.body,
    excerpt: row.excerpt,
    pageTitle: row.title,
    pagePath: row.path,
    ancestors: ancestorsOf(row.ancestors),
    score: Math.max(0, row.score),
  }));
}

/** A query's words (letters, digits, underscores): every one must match, the last as a prefix. */
export function queryWords(query: string): string[] {
  return query.normalize('NFKC').match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/** The bytes the search tables take (their indexes included): for the benchmarks. */
export async function searchIndexBytes(db: Queryable): Promise<number> {
  const row =
    db.dialect === 'postgres'
      ? await db.get<{ bytes: number }>("SELECT pg_total_relation_size('search_sections') + pg_total_relation_size('search_pages') AS bytes")
      : await db.get<{ bytes: number }>("SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name LIKE 'search%'");
  return row?.bytes ?? 0;
}

/**
 * Headings and page titles phrased as questions (ending in "?") in these spaces' indexes, in page
 * order: what readers are offered to ask. At most `limit`.
 */
export async function questionTitles(db: Queryable, spaceIds: string[], limit: number): Promise<Array<{ spaceId: string; pageId: string; title: string }>> {
  const found: Array<{ spaceId: string; pageId: string; title: string }> = [];
  for (const spaceId of spaceIds) {
    if (found.length >= limit) break;
    const ofSpace = searchIndexes[db.dialect].ofSpace(spaceId);
    const rows = await db.all<{ page_id: string; title: string }>(`SELECT page_id, title FROM search_sections WHERE ${ofSpace.where} AND title LIKE '%?' ORDER BY page_id, section_id LIMIT ?`, [
      ...ofSpace.params,
      limit - found.length,
    ]);
    found.push(...rows.map((row) => ({ spaceId, pageId: row.page_id, title: row.title })));
  }
  return found;
}
