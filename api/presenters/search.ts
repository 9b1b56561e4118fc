import type { PageHits } from '../../domain/spaces/index.js';
import type { Urls } from '../urls.js';

/** Upstream's SearchPageResult, with 0.202.0's `score` (relevance: GitBook's renderer sorts by it), one-based `rank` (its place among all pages found) and `description`. */
export function presentPageHits(page: PageHits, urls: Urls) {
  const first = page.hits[0]!;
  const app = urls.pageApp(page.spaceId, page.pageId);
  return {
    id: page.pageId,
    title: first.pageTitle,
    path: first.pagePath,
    score: Math.max(...page.hits.map((hit) => hit.score)),
    rank: page.rank + 1,
    sections: page.hits.map((hit) => ({
      id: hit.sectionId || page.pageId,
      title: hit.sectionTitle,
      path: hit.sectionId ? `${first.pagePath}#${hit.sectionId}` : first.pagePath,
      score: hit.score,
      body: hit.excerpt(),
      urls: { app: hit.sectionId ? `${app}#${hit.sectionId}` : app },
    })),
    ancestors: first.ancestors.map((title) => ({ title })),
    // 0.202.0 requires a found page's description; the search index keeps none.
    description: '',
    urls: { app },
  };
}

/** Upstream's SearchSpaceResult: a space's pages found, with 0.202.0's `type` and `score` (its best page's). */
export function presentSpaceHits(space: { id: string; title: string }, pages: PageHits[], urls: Urls) {
  const presented = pages.map((hits) => presentPageHits(hits, urls));
  return { type: 'space' as const, id: space.id, title: space.title, score: Math.max(0, ...presented.map((page) => page.score)), pages: presented };
}
