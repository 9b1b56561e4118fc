import type { SearchIndex, SectionRow } from './searchIndex.js';

/**
 * PostgreSQL full text over the stored `document` column (migration 003): 'simple' words with
 * accents folded, title weighted A and body B, ranked by ts_rank with A four times B. Unlike
 * BM25, ts_rank doesn't weigh a word by its rarity across sections, so rankings differ where a
 * query mixes common and rare words. The excerpt is made for the returned rows only.
 */
export const postgresText: SearchIndex = {
  sections: (db, spaceIds, words, limit) =>
    db.all<SectionRow>(
      `SELECT hit.space_id, hit.page_id, hit.section_id, hit.section_title, hit.title, hit.path, hit.ancestors, hit.score,
         ts_headline('simple', hit.body, to_tsquery('simple', quire_unaccent(?)), 'StartSel="", StopSel="", MinWords=16, MaxWords=32') AS excerpt
       FROM (
         SELECT s.space_id, s.page_id, s.section_id, s.title AS section_title, s.body, p.title, p.path, p.ancestors,
           ts_rank('{0.1, 0.1, 0.25, 1.0}', s.document, q.query) AS score
         FROM search_sections s
         JOIN search_pages p ON p.space_id = s.space_id AND p.page_id = s.page_id
         CROSS JOIN (SELECT to_tsquery('simple', quire_unaccent(?)) AS query) q
         WHERE s.document @@ q.query AND s.space_id = ANY(CAST(? AS text[]))
         ORDER BY score DESC, s.page_id, s.section_id
         LIMIT ?
       ) hit
       ORDER BY hit.score DESC, hit.page_id, hit.section_id`,
      // An array, not a JSON list: the planner sees how many spaces are asked for, and reads a few
      // spaces' sections by their index instead of every match of a common word.
      [tsQuery(words), tsQuery(words), spaceIds, limit],
    ),
  ofSpace: (spaceId) => ({ where: 'space_id = ?', params: [spaceId] }),
};

/** Words as a tsquery: each a quoted lexeme (they hold letters, digits and underscores only), the last a prefix. */
function tsQuery(words: string[]): string {
  return words.map((word, index) => `'${word}'${index === words.length - 1 ? ':*' : ''}`).join(' & ');
}
