import type { SectionHit } from '../../storage/search.js';
import type { Urls } from '../urls.js';

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

export function presentPageHits(page: PageHits, urls: Urls) {
  const first = page.hits[0]!;
  const app = urls.pageApp(page.spaceId, page.pageId);
  return {
    id: page.pageId,
    title: first.pageTitle,
    path: first.pagePath,
    sections: page.hits.map((hit) => ({
      id: hit.sectionId || page.pageId,
      title: hit.sectionTitle,
      path: hit.sectionId ? `${first.pagePath}#${hit.sectionId}` : first.pagePath,
      body: hit.excerpt,
      urls: { app: hit.sectionId ? `${app}#${hit.sectionId}` : app },
    })),
    ancestors: first.ancestors.map((title) => ({ title })),
    urls: { app },
  };
}
