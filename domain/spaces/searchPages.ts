import { searchSections, type SectionHit } from '../../storage/search.js';
import type { ContentDeps } from '../common/deps.js';
import { refreshSearchIndex } from './searchIndex.js';

/** A page's matching sections. */
export interface PageHits {
  spaceId: string;
  pageId: string;
  /** Order of the page's best section among all hits (0 best). */
  rank: number;
  hits: SectionHit[];
}

/** Hits grouped by page, pages in the order of their best section. */
export function groupByPage(hits: SectionHit[]): PageHits[] {
  const pages = new Map<string, PageHits>();
  for (const hit of hits) {
    const key = `${hit.spaceId}:${hit.pageId}`;
    const page = pages.get(key) ?? { spaceId: hit.spaceId, pageId: hit.pageId, rank: pages.size, hits: [] };
    page.hits.push(hit);
    pages.set(key, page);
  }
  return [...pages.values()];
}

/** The pages of these spaces' current revisions that match every word, best first (their indexes brought up to date first). */
export async function searchPages(deps: Pick<ContentDeps, 'db' | 'repositories'>, spaceIds: string[], query: string, sectionLimit: number): Promise<PageHits[]> {
  await Promise.all(spaceIds.map((spaceId) => refreshSearchIndex(deps, spaceId)));
  return groupByPage(await searchSections(deps.db, spaceIds, query, sectionLimit));
}
