import type { PageKind, Revision, RevisionPage } from './readRevision.js';

/**
 * A revision's page tree as something to edit: what a page is (id, kind, title, slug, metadata,
 * body) apart from where its file lies. `file` is the file it was read from; `relocated` says its
 * place (parent or slug) changed, so it and its subpages get files where they now belong; `dirty`
 * says its file's content must be written again.
 */
export interface TreePage {
  id: string;
  kind: PageKind;
  title: string;
  slug: string;
  meta: Record<string, unknown>;
  body?: string;
  href?: string;
  file?: string;
  relocated?: boolean;
  dirty?: boolean;
  pages: TreePage[];
}

/** A deep copy of the revision's pages, ready to edit. */
export function treeOf(revision: Pick<Revision, 'pages'>): TreePage[] {
  const copy = (page: RevisionPage): TreePage => ({
    id: page.id,
    kind: page.kind,
    title: page.title,
    slug: page.slug,
    meta: { ...page.meta },
    ...(page.markdown !== undefined ? { body: page.markdown } : {}),
    ...(page.href !== undefined ? { href: page.href } : {}),
    ...(page.file !== undefined ? { file: page.file } : {}),
    pages: page.pages.map(copy),
  });
  return revision.pages.map(copy);
}

export interface TreePlace {
  page: TreePage;
  /** The page's parent, or null at the root. */
  parent: TreePage | null;
  siblings: TreePage[];
  index: number;
}

/** Where a page is in the tree, by id. */
export function locate(pages: TreePage[], id: string, parent: TreePage | null = null): TreePlace | undefined {
  for (const [index, page] of pages.entries()) {
    if (page.id === id) return { page, parent, siblings: pages, index };
    const found = locate(page.pages, id, page);
    if (found) return found;
  }
  return undefined;
}

/** The page and every page under it. */
export function subtree(page: TreePage): TreePage[] {
  return everyPage([page]);
}

/** Every page of the tree, depth first. */
export function everyPage(pages: TreePage[], into: TreePage[] = []): TreePage[] {
  for (const page of pages) {
    into.push(page);
    everyPage(page.pages, into);
  }
  return into;
}
