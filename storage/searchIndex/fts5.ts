import type { Queryable } from '../db.js';
import { excerpter } from './excerpt.js';
import type { SearchIndex, SectionRow } from './searchIndex.js';

/**
 * Up to this many spaces, a search names them in the full-text match, so that it reads only their
 * sections; past it, FTS5's merge of that many lists costs more than filtering every match.
 */
const spacesMatchedByIndex = 64;

type RankedRow = Omit<SectionRow, 'excerpt'>;

/**
 * SQLite FTS5 (unicode61, diacritics removed): BM25 with the title weighted four times the body.
 * The best `limit` sections are chosen from their rowids and scores alone; only those are then
 * read, and excerpts made for those an answer shows (FTS5's snippet() would make one for every
 * section matched: most of a search's time when a word is common).
 */
export const fts5: SearchIndex = {
  sections: async (db, spaceIds, words, limit) => {
    // Searching every space the index holds (one organization's instance): the match alone, the
    // spaces kept by the join below. Naming ten spaces in the match cost a third of the search.
    const kept = (await holdsOnly(db, spaceIds)) ? 'by the join' : spaceIds.length <= spacesMatchedByIndex ? 'in the match' : 'among the matches';
    const rows = await db.all<RankedRow>(
      `SELECT s.space_id, s.page_id, s.section_id, s.title AS section_title, s.body, p.title, p.path, p.ancestors, top.score
       FROM (
         SELECT rowid AS id, -bm25(search_sections, 4.0, 1.0, 0.0) AS score FROM search_sections
         WHERE search_sections MATCH ?${kept === 'among the matches' ? ' AND space_id IN (SELECT value FROM json_each(?))' : ''}
         ORDER BY score DESC, rowid LIMIT ?
       ) top
       JOIN search_sections s ON s.rowid = top.id
       JOIN search_pages p ON p.space_id = s.space_id AND p.page_id = s.page_id
       WHERE s.space_id IN (SELECT value FROM json_each(?))
       ORDER BY top.score DESC, s.page_id, s.section_id`,
      [matchExpression(kept === 'in the match' ? spaceIds : [], words), ...(kept === 'among the matches' ? [JSON.stringify(spaceIds)] : []), limit, JSON.stringify(spaceIds)],
    );
    const excerptOf = excerpter(words);
    return rows.map((row) => ({ ...row, excerpt: () => excerptOf(row.body) }));
  },
  // space_id is tokenized case-folded, so the match may find a space whose id differs only in
  // case: the plain comparison keeps exactly the one asked for.
  ofSpace: (spaceId) => ({
    where: 'rowid IN (SELECT rowid FROM search_sections WHERE search_sections MATCH ?) AND space_id = ?',
    params: [`{space_id}: ${quoted(spaceId)}`, spaceId],
  }),
};

/**
 * Whether every space with an index is among `spaceIds`: then a match over the whole index finds
 * only theirs. (A space indexed for the first time between this and the search may take the
 * `limit` places with better hits, which the join then drops: that one search comes back short, at
 * worst empty, never wider.)
 */
async function holdsOnly(db: Queryable, spaceIds: string[]): Promise<boolean> {
  const row = await db.get<{ others: number }>('SELECT (SELECT COUNT(*) FROM search_spaces) - (SELECT COUNT(*) FROM search_spaces WHERE space_id IN (SELECT value FROM json_each(?))) AS others', [
    JSON.stringify(spaceIds),
  ]);
  return row?.others === 0;
}

/** The words in the title or body (each quoted, so nothing typed is read as FTS5 syntax), the last a prefix; within `spaceIds` if any. */
function matchExpression(spaceIds: string[], words: string[]): string {
  const text = `{title body}: (${words.map((word, index) => `${quoted(word)}${index === words.length - 1 ? '*' : ''}`).join(' ')})`;
  return spaceIds.length === 0 ? text : `{space_id}: (${spaceIds.map(quoted).join(' OR ')}) AND ${text}`;
}

const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;
