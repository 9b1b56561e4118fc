import mime from 'mime-types';
import {
  BudgetedCache,
  type Document,
  ownedBytes,
  pagesByFile,
  resolveLink,
  type Revision,
  type RevisionFile,
  type RevisionPage,
  type RevisionReusableContent,
  splitTitleHeading,
} from '../../engine/index.js';
import type { Urls } from '../urls.js';
import { type RevisionWithSizes } from '../../domain/spaces/index.js';
import type { ComputedPage } from '../../domain/openapi/index.js';

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
  // 0.202.0's options: no cover mask, no tags to show (Quire has none), page actions and heading anchors shown.
  coverMask: 'none',
  tags: false,
  actions: true,
  anchors: true,
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

/** A revision read with its file sizes (domain/spaces: readRevisionWithSizes), ready to present. */
export function revisionView(spaceId: string, { revision, sizes }: RevisionWithSizes, urls: Urls): RevisionView {
  return { spaceId, revision, urls, sizes, byFile: pagesByFile(revision) };
}

function documentOf(documents: Map<string, Document> | undefined, page: RevisionPage): Document {
  const document = documents?.get(page.id);
  if (!document) throw new Error(`page ${page.id} is presented as a Document without its Document read`);
  return document;
}

/** The page's markdown without its `# Title` line, which is the page title. */
const bodyOf = (page: RevisionPage): string => splitTitleHeading(page.markdown ?? '').text;

/**
 * A Document's link targets as written (`{kind: 'url'}`, `{kind: 'anchor'}`) resolved against the
 * revision, from the file they were written in. An include (or a file block) whose file isn't in
 * the revision keeps the path it names as its reusable content's (or file's) id: upstream's shape,
 * leading nowhere.
 */
function resolvedRefs(view: RevisionView, file: string, document: Document): Document {
  const resolve = (ref: { kind?: string; url?: string; anchor?: string }) =>
    ref.kind === 'url' ? resolveLink(view.revision, view.byFile, file, ref.url ?? '').ref : ref.kind === 'anchor' ? resolveLink(view.revision, view.byFile, file, `#${ref.anchor ?? ''}`).ref : ref;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node))
      out[key] = key === 'data' && value && typeof value === 'object' && 'ref' in value ? { ...value, ref: resolve((value as { ref: object }).ref) } : walk(value);
    if (out.type === 'reusable-content') {
      const data = out.data as { ref: { kind: string; url?: string } };
      if (data.ref.kind !== 'reusable-content') out.data = { ...data, ref: { kind: 'reusable-content', reusableContent: data.ref.url ?? '' } };
    }
    // A table's records hold refs too (a cards table's targets): resolved as a block's.
    if (out.type === 'table' && out.object === 'block') out.data = withResolvedRecords(out.data as Record<string, unknown>, resolve);
    // A file block's ref is a file's (upstream's schema): one not in the revision keeps the path it names.
    if (out.type === 'file' && out.object === 'block') {
      const data = out.data as { ref: { kind: string; url?: string } };
      if (data.ref.kind !== 'file') out.data = { ...data, ref: { kind: 'file', file: data.ref.url ?? '' } };
    }
    return out;
  };
  return walk(document) as Document;
}

function withResolvedRecords(data: Record<string, unknown>, resolve: (ref: { kind?: string; url?: string; anchor?: string }) => unknown): Record<string, unknown> {
  const records = data.records as Record<string, { values?: Record<string, unknown> }> | undefined;
  if (!records || typeof records !== 'object') return data;
  const isRef = (value: unknown): value is { kind: string } => typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { kind?: unknown }).kind === 'string';
  const resolved = Object.fromEntries(
    Object.entries(records).map(([id, record]) => [
      id,
      { ...record, values: Object.fromEntries(Object.entries(record.values ?? {}).map(([column, value]) => [column, isRef(value) ? resolve(value) : value])) },
    ]),
  );
  return { ...data, records: resolved };
}

/** A document page's Document alone (getPageDocumentInRevisionById), its references resolved as in a page. */
export const presentPageDocument = (view: RevisionView, page: RevisionPage, document: Document): Document => resolvedRefs(view, page.file ?? '', document);

/** A reusable content's Document, its references resolved from its file. */
export const presentReusableContentDocument = (view: RevisionView, content: RevisionReusableContent, document: Document): Document => resolvedRefs(view, content.path, document);

/** Upstream's RevisionReusableContent: its Document's id is its blob's (getDocumentById). */
export function presentReusableContent(content: RevisionReusableContent) {
  return { id: content.id, title: content.title, git: { oid: content.oid, path: content.path }, document: content.oid };
}

/**
 * A page as upstream's RevisionPage; as a Document (`format` document), from `documents`
 * (domain/spaces: readPageDocuments, for the page and its subpages); as markdown, as stored or
 * from `markdowns` (domain/spaces: readStableMarkdowns).
 */
export function presentPage(view: RevisionView, page: RevisionPage, format: PageFormat, documents?: Map<string, Document>, markdowns?: Map<string, string>): Record<string, unknown> {
  const base = {
    id: page.id,
    title: page.title,
    ...(typeof page.meta.emoji === 'string' ? { emoji: page.meta.emoji } : {}),
    ...(typeof page.meta.icon === 'string' ? { icon: page.meta.icon } : {}),
  };
  if (page.kind === 'link') return { ...base, kind: 'link', type: 'link', target: { kind: 'url', url: page.href ?? '' }, href: page.href };
  const children = page.pages.map((child) => presentPage(view, child, format, documents, markdowns));
  if (page.kind === 'group') return { ...base, kind: 'group', type: 'group', slug: page.slug, path: page.path, pages: children };
  const content = format === 'markdown' ? { markdown: markdowns?.get(page.id) ?? bodyOf(page) } : { document: resolvedRefs(view, page.file ?? '', documentOf(documents, page)) };
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
    tags: [],
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

export function presentRevision(view: RevisionView, format: 'markdown') {
  const { revision } = view;
  return {
    object: 'revision' as const,
    id: revision.commit,
    parents: revision.parents,
    pages: revision.pages.map((page) => presentPage(view, page, format)),
    files: revision.files.map((file) => presentFile(view, file)),
    reusableContents: revision.reusableContents.map(presentReusableContent),
    // 0.202.0: a revision's tags (Quire has none).
    tags: [],
    createdAt: revision.createdAt,
    type: revision.parents.length > 1 ? ('update' as const) : ('edits' as const),
    git: { oid: revision.commit, message: revision.message, createdByGitBook: false },
    urls: { app: view.urls.revisionApp(view.spaceId, revision.commit) },
  };
}

// Presented pages, as JSON bytes without their children, by everything that decides them: a
// commit that changes one page re-presents that page only, and the revision is assembled from
// bytes without serializing or encoding the rest again.
const pageFragments = new BudgetedCache<string, Buffer>('presented pages', (fragment, key) => fragment.length + key.length * 2 + 100);
const comma = Buffer.from(',');
const childrenOpen = Buffer.from(',"pages":[');
const childrenClose = Buffer.from(']}');
const objectClose = Buffer.from('}');

function pageParts(view: RevisionView, page: RevisionPage, format: 'markdown', parts: Buffer[]): void {
  const key = `${view.spaceId}\0${view.urls.base}\0${format}\0${page.id}\0${page.kind}\0${page.oid}\0${page.file}\0${page.title}\0${page.path}\0${page.slug}\0${page.href}`;
  let own = pageFragments.get(key);
  if (own === undefined) {
    const { pages: _pages, ...rest } = presentPage(view, { ...page, pages: [] }, format);
    own = ownedBytes(Buffer.from(JSON.stringify(rest).slice(0, -1)));
    pageFragments.set(key, own);
  }
  parts.push(own);
  if (page.kind === 'link') {
    parts.push(objectClose);
    return;
  }
  parts.push(childrenOpen);
  page.pages.forEach((child, index) => {
    if (index > 0) parts.push(comma);
    pageParts(view, child, format, parts);
  });
  parts.push(childrenClose);
}

function pagesParts(view: RevisionView, format: 'markdown', parts: Buffer[]): void {
  view.revision.pages.forEach((page, index) => {
    if (index > 0) parts.push(comma);
    pageParts(view, page, format, parts);
  });
}

/** The revision as JSON bytes, its pages assembled from the per-page cache. */
export function presentRevisionJson(view: RevisionView, format: 'markdown'): Buffer {
  const { pages: _pages, ...rest } = presentRevision({ ...view, revision: { ...view.revision, pages: [] } }, format);
  const parts = [Buffer.from(`${JSON.stringify(rest).slice(0, -1)},"pages":[`)];
  pagesParts(view, format, parts);
  parts.push(childrenClose);
  return Buffer.concat(parts);
}

/** The page tree of a revision as the `{pages}` JSON bytes. */
export function presentPagesJson(view: RevisionView, format: 'markdown'): Buffer {
  const parts = [Buffer.from('{"pages":[')];
  pagesParts(view, format, parts);
  parts.push(childrenClose);
  return Buffer.concat(parts);
}

/**
 * getComputedRevision's answer: each computed page as a document page with its document. Not
 * with its `computed` source: 0.202.0's page schema matches such a page twice (its other branch
 * takes any object), so no strict client can read one.
 */
export function presentComputedRevision(pages: ComputedPage[], appUrl: string) {
  return {
    pages: pages.map((page) => ({
      id: page.id,
      title: page.title,
      document: page.document,
      kind: 'sheet' as const,
      type: 'document' as const,
      urls: { app: appUrl },
      slug: page.slug,
      path: page.slug,
      pages: [],
      layout: defaultLayout,
      tags: [],
    })),
    files: [],
    reusableContents: [],
  };
}
