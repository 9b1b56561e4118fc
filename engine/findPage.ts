import { allPages } from './allPages.js';
import type { Revision, RevisionPage } from './readRevision.js';

const pageIndexes = new WeakMap<Revision, { byId: Map<string, RevisionPage>; byPath: Map<string, RevisionPage> }>();

function indexOf(revision: Revision) {
  let index = pageIndexes.get(revision);
  if (!index) {
    const pages = allPages(revision.pages);
    const byPath = new Map<string, RevisionPage>();
    for (const page of pages) if (page.kind !== 'link' && !byPath.has(page.path)) byPath.set(page.path, page);
    index = { byId: new Map(pages.map((page) => [page.id, page])), byPath };
    pageIndexes.set(revision, index);
  }
  return index;
}

/** A page of the revision by id, from an index built once per revision. */
export function findPageById(revision: Revision, pageId: string): RevisionPage | undefined {
  return indexOf(revision).byId.get(pageId);
}

/** The first document or group page at a path (links have none), from the same index. */
export function findPageByPath(revision: Revision, pagePath: string): RevisionPage | undefined {
  return indexOf(revision).byPath.get(pagePath);
}
