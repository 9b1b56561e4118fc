import mime from 'mime-types';
import { markdownToDocument } from '../../engine/markdown/toDocument.js';
import type { Revision, RevisionFile, RevisionPage } from '../../engine/readRevision.js';
import { pagesByFile, resolveLink } from '../../engine/resolveLink.js';
import type { Urls } from '../urls.js';
import { Lru } from '../../engine/lru.js';

export type PageFormat = 'markdown' | 'document';

const defaultLayout = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
} as const;

export interface RevisionView {
  spaceId: string;
  revision: Revision;
  urls: Urls;
  /** Sizes of the revision's files, by blob id. */
  sizes: Map<string, number>;
  /** The revision's pages by markdown file, for resolving links. */
  byFile: ReturnType<typeof pagesByFile>;
}

export function revisionView(spaceId: string, revision: Revision, urls: Urls, sizes: Map<string, number>): RevisionView {
  return { spaceId, revision, urls, sizes, byFile: pagesByFile(revision) };
}

/** The page's markdown without its `# Title` line, which is the page title. */
function bodyOf(page: RevisionPage): string {
  return (page.markdown ?? '').replace(/^\s*#\s+.*\n+/, '');
}

export function presentPage(view: RevisionView, page: RevisionPage, format: PageFormat): Record<string, unknown> {
  const base = {
    id: page.id,
    title: page.title,
    ...(typeof page.meta.emoji === 'string' ? { emoji: page.meta.emoji } : {}),
    ...(typeof page.meta.icon === 'string' ? { icon: page.meta.icon } : {}),
  };
  if (page.kind === 'link') return { ...base, kind: 'link', type: 'link', target: { kind: 'url', url: page.href ?? '' }, href: page.href };
  const children = page.pages.map((child) => presentPage(view, child, format));
  if (page.kind === 'group') return { ...base, kind: 'group', type: 'group', slug: page.slug, path: page.path, pages: children };
  const content =
    format === 'markdown'
      ? { markdown: bodyOf(page) }
      : { document: markdownToDocument(bodyOf(page), (target) => resolveLink(view.revision, view.byFile, page.file ?? '', target).ref) };
  return {
    ...base,
    ...content,
    kind: 'sheet',
    type: 'document',
    urls: { app: view.urls.pageApp(view.spaceId, page.id) },
    slug: page.slug,
    path: page.path,
    ...(typeof page.meta.description === 'string' ? { description: page.meta.description } : {}),
    pages: children,
    git: { oid: page.oid ?? '', path: page.file ?? '' },
    layout: defaultLayout,
    ...(page.meta.hidden === true ? { hidden: true } : {}),
    ...(page.meta.noIndex === true ? { noIndex: true } : {}),
  };
}

export function presentFile(view: RevisionView, file: RevisionFile) {
  return {
    id: file.id,
    name: file.name,
    contentType: mime.lookup(file.name) || 'application/octet-stream',
    downloadURL: view.urls.fileDownload(view.spaceId, view.revision.commit, file.id),
    size: view.sizes.get(file.oid) ?? 0,
    git: { oid: file.oid, path: file.path },
  };
}

export function presentRevision(view: RevisionView, format: PageFormat) {
  const { revision } = view;
  return {
    object: 'revision' as const,
    id: revision.commit,
    parents: revision.parents,
    pages: revision.pages.map((page) => presentPage(view, page, format)),
    files: revision.files.map((file) => presentFile(view, file)),
    reusableContents: [],
    createdAt: revision.createdAt,
    type: revision.parents.length > 1 ? ('update' as const) : ('edits' as const),
    git: { oid: revision.commit, message: revision.message, createdByGitBook: false },
    urls: { app: view.urls.revisionApp(view.spaceId, revision.commit) },
  };
}

// Presented pages, as JSON without their children, by everything that decides them: a commit
// that changes one page re-presents that page only.
const pageFragments = new Lru<string, string>(50_000);

function pageJson(view: RevisionView, page: RevisionPage, format: PageFormat): string {
  const children = page.pages.map((child) => pageJson(view, child, format));
  const key = JSON.stringify([view.spaceId, page.id, page.kind, page.oid, page.title, page.path, page.slug, page.href, format, view.urls.base]);
  let own = pageFragments.get(key);
  if (own === undefined) {
    const { pages: _pages, ...rest } = presentPage(view, { ...page, pages: [] }, format);
    own = JSON.stringify(rest).slice(0, -1);
    pageFragments.set(key, own);
  }
  return page.kind === 'link' ? `${own}}` : `${own},"pages":[${children.join(',')}]}`;
}

/** The revision as JSON, its pages assembled from the per-page cache. */
export function presentRevisionJson(view: RevisionView, format: PageFormat): string {
  const { pages: _pages, ...rest } = presentRevision({ ...view, revision: { ...view.revision, pages: [] } }, format);
  return `${JSON.stringify(rest).slice(0, -1)},"pages":[${view.revision.pages.map((page) => pageJson(view, page, format)).join(',')}]}`;
}

/** The page tree of a revision as the `{pages}` JSON. */
export function presentPagesJson(view: RevisionView, format: PageFormat): string {
  return `{"pages":[${view.revision.pages.map((page) => pageJson(view, page, format)).join(',')}]}`;
}
