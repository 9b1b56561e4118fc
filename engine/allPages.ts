import type { RevisionPage } from './readRevision.js';

/** Every page of the revision, depth first. */
export function allPages(pages: RevisionPage[], into: RevisionPage[] = []): RevisionPage[] {
  for (const page of pages) {
    into.push(page);
    allPages(page.pages, into);
  }
  return into;
}
