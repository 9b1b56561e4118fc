import { excerpter } from './excerpt.js';
import type { SearchIndex, SectionRow } from './searchIndex.js';

/**
 * Up to this many spaces, their sections are read by the space index and each is matched, which
 * costs what those spaces hold. Given the bare match, PostgreSQL also reads the full-text index and
 * intersects (its guess of a prefix's matches is far below the truth), which costs what the whole
 * instance holds: 5 of 1,000 spaces × 100 pages took 66–88 ms that way, 9–14 ms this way. `IS TRUE`
 * hides the match from the full-text index. The price: a rare word in one 10,000-page space, 9 ms
 * that way, takes 20 ms. Past this many spaces, the full-text index is the better start.
 */
const spacesReadWhole = 100;

/**
 * PostgreSQL full text over the stored `document` column (migration 003): 'simple' words with
 * accents folded, title weighted A and body B, ranked by ts_rank with A four times B. Unlike
 * BM25, ts_rank doesn't weigh a word by its rarity across sections, so rankings differ where a
 * query mixes common and rare words. The excerpt is made in JavaScript for the returned rows, as on
 * SQLite (excerpt.ts): PostgreSQL's ts_headline took 70–90 ms of a 10,000-page space's search for
 * its 2,000 best sections.
 */
export const postgresText: SearchIndex = {
  sections: async (db, spaceIds, words, limit) => {
    const rows = await db.all<Omit<SectionRow, 'excerpt'>>(
      `SELECT s.space_id, s.page_id, s.section_id, s.title AS section_title, s.body, p.title, p.path, p.ancestors,
         ts_rank('{0.1, 0.1, 0.25, 1.0}', s.document, q.query) AS score
       FROM search_sections s
       JOIN search_pages p ON p.space_id = s.space_id AND p.page_id = s.page_id
       CROSS JOIN (SELECT to_tsquery('simple', quire_unaccent(?)) AS query) q
       WHERE ${spaceIds.length <= spacesReadWhole ? '(s.document @@ q.query) IS TRUE' : 's.document @@ q.query'} AND s.space_id = ANY(CAST(? AS text[]))
       ORDER BY score DESC, s.page_id, s.section_id
       LIMIT ?`,
      // An array, not a JSON list: the planner sees how many spaces are asked for, and reads a few
      // spaces' sections by their index instead of every match of a common word.
      [tsQuery(words), spaceIds, limit],
    );
    const excerptOf = excerpter(words);
    return rows.map((row) => ({ ...row, excerpt: () => excerptOf(row.body) }));
  },
  ofSpace: (spaceId) => ({ where: 'space_id = ?', params: [spaceId] }),
};

/** Words as a tsquery: each a quoted lexeme (they hold letters, digits and underscores only), the last a prefix. */
function tsQuery(words: string[]): string {
  return words.map((word, index) => `'${word}'${index === words.length - 1 ? ':*' : ''}`).join(' & ');
}
