import type { RevisionPage } from './readRevision.js';

/** Every page of the revision, depth first. */
export function allPages(pages: RevisionPage[]): RevisionPage[] {
  return pages.flatMap((page) => [page, ...allPages(page.pages)]);
}
