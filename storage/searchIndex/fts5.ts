import type { SearchIndex, SectionRow } from './searchIndex.js';

/**
 * Up to this many spaces, a search names them in the full-text match, so that it reads only their
 * sections; past it, FTS5's merge of that many lists costs more than filtering every match.
 */
const spacesMatchedByIndex = 64;

/** SQLite FTS5 (unicode61, diacritics removed): BM25 with the title weighted four times the body. */
export const fts5: SearchIndex = {
  sections: (db, spaceIds, words, limit) =>
    db.all<SectionRow>(
      `SELECT s.space_id, s.page_id, s.section_id, s.title AS section_title,
         snippet(search_sections, 1, '', '', '…', 32) AS excerpt, p.title, p.path, p.ancestors,
         -bm25(search_sections, 4.0, 1.0, 0.0) AS score
       FROM search_sections s
       JOIN search_pages p ON p.space_id = s.space_id AND p.page_id = s.page_id
       WHERE search_sections MATCH ? AND s.space_id IN (SELECT value FROM json_each(?))
       ORDER BY score DESC, s.page_id, s.section_id
       LIMIT ?`,
      [matchExpression(spaceIds, words), JSON.stringify(spaceIds), limit],
    ),
  // space_id is tokenized case-folded, so the match may find a space whose id differs only in
  // case: the plain comparison keeps exactly the one asked for.
  ofSpace: (spaceId) => ({
    where: 'rowid IN (SELECT rowid FROM search_sections WHERE search_sections MATCH ?) AND space_id = ?',
    params: [`{space_id}: ${quoted(spaceId)}`, spaceId],
  }),
};

/** The words in the title or body (each quoted, so nothing typed is read as FTS5 syntax), the last a prefix; in the spaces when few. */
function matchExpression(spaceIds: string[], words: string[]): string {
  const text = `{title body}: (${words.map((word, index) => `${quoted(word)}${index === words.length - 1 ? '*' : ''}`).join(' ')})`;
  if (spaceIds.length > spacesMatchedByIndex) return text;
  return `{space_id}: (${spaceIds.map(quoted).join(' OR ')}) AND ${text}`;
}

const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;
