import { indexedRevision, queryWords, searchSections, type SectionHit } from '../../storage/search.js';
import type { ContentDeps } from '../common/deps.js';
import { refreshSearchIndex } from '../spaces/index.js';

/** Words a question is made of that say nothing about what it asks. */
const stopWords = new Set(
  'a an and are as at be but by can could do does for from has have how i if in into is it its me my of on or our should so than that the their them then there these this to was we what when where which who why will with would you your'.split(
    ' ',
  ),
);

/** The words of a question worth searching for: its content words, each once. */
export function questionWords(question: string): string[] {
  return [...new Set(queryWords(question.toLowerCase()).filter((word) => word.length > 1 && !stopWords.has(word)))].slice(0, 12);
}

/** A section an answer is drawn from, with the revision its page was indexed at. */
export interface AnswerSource {
  hit: SectionHit;
  revision: string;
  /** How many of the question's words the section holds. */
  matched: number;
}

/**
 * The sections that best answer a question, in these spaces: each content word searched on its
 * own (a question's every word rarely appears in one section), sections ranked by how many of
 * the words they hold, then by their summed relevance. `keep` leaves out what the asker may not see.
 */
export async function answerSources(
  deps: Pick<ContentDeps, 'db' | 'repositories'>,
  spaceIds: string[],
  question: string,
  options: { limit: number; keep?: (hit: SectionHit) => boolean },
): Promise<AnswerSource[]> {
  const words = questionWords(question);
  if (words.length === 0 || spaceIds.length === 0) return [];
  await Promise.all(spaceIds.map((spaceId) => refreshSearchIndex(deps, spaceId)));
  const sections = new Map<string, { hit: SectionHit; matched: number; score: number }>();
  for (const word of words) {
    // One word is searched as a prefix (`install` finds "installing"), as the search box does.
    for (const hit of await searchSections(deps.db, spaceIds, word, 50)) {
      // A heading with no text under it has nothing to quote or to answer from.
      if (!hit.body.trim() || (options.keep && !options.keep(hit))) continue;
      const key = `${hit.spaceId}:${hit.pageId}:${hit.sectionId}`;
      const found = sections.get(key) ?? { hit, matched: 0, score: 0 };
      found.matched += 1;
      found.score += hit.score;
      sections.set(key, found);
    }
  }
  const best = [...sections.values()].sort((a, b) => b.matched - a.matched || b.score - a.score).slice(0, options.limit);
  const revisions = new Map<string, string>();
  for (const spaceId of new Set(best.map((found) => found.hit.spaceId))) revisions.set(spaceId, (await indexedRevision(deps.db, spaceId)) ?? '');
  return best.map((found) => ({ hit: found.hit, matched: found.matched, revision: revisions.get(found.hit.spaceId)! }));
}
