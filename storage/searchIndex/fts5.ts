import type { SearchIndex, SectionRow } from './searchIndex.js';

/** SQLite FTS5 (unicode61, diacritics removed): BM25 with the title weighted four times the body. */
export const fts5: SearchIndex = {
  sections: (db, spaceIds, words, limit) =>
    db.all<SectionRow>(
      `SELECT s.space_id, s.page_id, s.section_id, s.title AS section_title,
         snippet(search_sections, 1, '', '', '…', 32) AS excerpt, p.title, p.path, p.ancestors,
         -bm25(search_sections, 4.0, 1.0) AS score
       FROM search_sections s
       JOIN search_pages p ON p.space_id = s.space_id AND p.page_id = s.page_id
       WHERE search_sections MATCH ? AND s.space_id IN (SELECT value FROM json_each(?))
       ORDER BY score DESC, s.page_id, s.section_id
       LIMIT ?`,
      [ftsQuery(words), JSON.stringify(spaceIds), limit],
    ),
};

/** Words as an FTS5 expression: each quoted, so nothing the user types is read as FTS5 syntax. */
function ftsQuery(words: string[]): string {
  return words.map((word, index) => `"${word}"${index === words.length - 1 ? '*' : ''}`).join(' ');
}
