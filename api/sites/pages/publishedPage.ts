import type { Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import type { PublishedDocument, PublishedPageView, FoundPage } from '../../../domain/publishing/index.js';
import type { Answer } from '../../../domain/answers/index.js';
import { type Document, type DocumentNode, findPageById, resolveWrittenRef, type Revision, type RevisionPage, runInPool, siblingModule } from '../../../engine/index.js';
import type { PageToRender } from './renderTasks.js';
import { codeHighlighting, documentText, documentTree, el, safeHref } from '../../../domain/documents/index.js';
import { breadcrumbs, pagePath, pagination } from './navigation.js';
import { sitePageHtml, type SiteFrame } from './pageLayout.js';

type FrameView = Omit<PublishedPageView, 'page'>;

/** Whether search engines may index what the visitor sees: a public site's published content, not a preview. */
export const isIndexable = (view: Pick<PublishedPageView, 'place'>) => view.place.site.visibility === 'public' && !view.place.preview && !view.place.sitePreview;

/** A file of the revision as the site serves it: under its blob id, so the URL never goes stale. */
export const fileUrl = (view: Pick<PublishedPageView, 'place'>, spaceId: string, oid: string, name: string) => `${view.place.siteBasePath}~files/${spaceId}/${oid}/${encodeURIComponent(name)}`;

/** The page's `.md` twin: its URL path with `.md` (the site space's root page is `index.md`). */
export const markdownPath = (view: Pick<PublishedPageView, 'place'>, page: RevisionPage) => (page.path ? `${pagePath(view.place.basePath, page)}.md` : `${view.place.basePath}index.md`);

function frameOf(view: FrameView, current?: RevisionPage): SiteFrame {
  const { place, customization, revision } = view;
  const sectionOf = (sectionId: string | null) => view.siteSpaces.filter((siteSpace) => siteSpace.sectionId === sectionId);
  const sections = view.structure.sections.flatMap((section) => {
    const first = sectionOf(section.id)[0];
    return first ? [{ title: section.title, href: `${place.siteBasePath}${first.path}`, current: section.id === place.siteSpace.sectionId }] : [];
  });
  const variants = sectionOf(place.siteSpace.sectionId).map((siteSpace) => ({ title: siteSpace.title, href: `${place.siteBasePath}${siteSpace.path}`, current: siteSpace.id === place.siteSpace.id }));
  return {
    siteTitle: typeof customization.title === 'string' ? customization.title : place.site.title,
    customization,
    siteBasePath: place.siteBasePath,
    basePath: place.basePath,
    sections,
    variants,
    pages: revision.pages,
    ...(current ? { current } : {}),
    indexable: isIndexable(view),
    counted: !place.preview && !place.sitePreview,
    linkTo: (to) => {
      const ref = (typeof to === 'object' && to !== null ? to : {}) as Partial<Record<string, string>>;
      if (ref.kind === 'url') return safeHref(ref.url ?? '');
      const page = ref.kind === 'page' ? findPageById(revision, ref.page ?? '') : undefined;
      return page && page.kind !== 'link' ? pagePath(place.basePath, page) : undefined;
    },
  };
}

/** The page a published URL shows, rendered from its Document. */
export async function publishedPageHtml(view: PublishedPageView & { page: RevisionPage }, { document, specs, imageSizes }: PublishedDocument): Promise<string> {
  await codeHighlighting();
  const { place, revision, page } = view;
  const { content, outline } = documentTree(document, {
    resolve: (ref) => resolveWrittenRef(revision, page.file ?? '', ref),
    page: (pageId) => {
      const target = findPageById(revision, pageId);
      return target && target.kind !== 'link' ? pagePath(place.basePath, target) : undefined;
    },
    file: (fileId) => {
      const file = revision.files.find((candidate) => candidate.id === fileId);
      return file && { url: fileUrl(view, place.siteSpace.spaceId, file.oid, file.name), name: file.name, ...imageSizes.get(file.oid) };
    },
    spec: (key) => specs.get(key),
  });
  const description = typeof page.meta.description === 'string' ? page.meta.description : undefined;
  const paginationEnabled = (view.customization.pagination as { enabled?: boolean } | undefined)?.enabled !== false;
  // Without a description of its own, a page's snippet is the start of its first paragraph.
  const snippet = description ?? firstParagraphText(document);
  return sitePageHtml(frameOf(view, page), {
    title: page.title,
    ...(snippet ? { description: snippet } : {}),
    canonicalUrl: place.canonicalUrl,
    markdownUrl: markdownPath(view, page),
    reading: { space: place.siteSpace.spaceId, page: page.id },
    outline,
    content: [
      breadcrumbs(revision.pages, place.basePath, page),
      el('h1', {}, page.title),
      description ? el('p', { className: ['description'] }, description) : null,
      content,
      view.updatedAt ? lastUpdated(view.updatedAt, view.customization) : null,
      paginationEnabled ? pagination(revision.pages, place.basePath, page) : null,
    ],
  });
}

const renderTasks = siblingModule(import.meta.url, 'renderTasks');

/** The longest page HTML served (8 MB of text): past it, tooLargePageHtml. Tests lower it. */
let htmlLimit = 8 * 1024 * 1024;
export function configurePageLimit(limit: number): void {
  htmlLimit = limit;
}

/**
 * The page a published URL shows, rendered in the worker pool under its time limit (a page that
 * takes longer answers WorkTooCostlyError). Its revision goes without the pages' markdown, which
 * the page's frame never reads (a 10,000-page space's text would be cloned for every page).
 */
export function renderPublishedPage(view: PublishedPageView & { page: RevisionPage }, published: PublishedDocument): Promise<string> {
  const input: PageToRender = { view: { ...view, revision: framedRevision(view.revision), page: { ...view.page, markdown: undefined, pages: [] } }, published, htmlLimit };
  return runInPool<string>(renderTasks, 'renderPublishedPage', input, `Rendering the page ${view.page.path || view.page.title}`);
}

const withoutMarkdown = (pages: RevisionPage[]): RevisionPage[] => pages.map(({ markdown: _markdown, ...page }) => ({ ...page, pages: withoutMarkdown(page.pages) }));
const framedRevisions = new WeakMap<Revision, Revision>();

/** The revision as a page's frame reads it: every page, none of their markdown; made once per revision. */
function framedRevision(revision: Revision): Revision {
  let framed = framedRevisions.get(revision);
  if (!framed) {
    framed = { ...revision, pages: withoutMarkdown(revision.pages) };
    framedRevisions.set(revision, framed);
  }
  return framed;
}

/** What a page too large to serve shows in its place: its frame, and a link to its markdown. */
export function tooLargePageHtml(view: PublishedPageView & { page: RevisionPage }): string {
  return sitePageHtml(frameOf(view, view.page), {
    title: view.page.title,
    canonicalUrl: view.place.canonicalUrl,
    markdownUrl: markdownPath(view, view.page),
    outline: [],
    content: [el('h1', {}, view.page.title), el('p', {}, 'This page is too large to show here. ', el('a', { href: markdownPath(view, view.page) }, 'Read it as markdown'), '.')],
  });
}

function firstParagraphText(document: Document): string | undefined {
  // The first paragraph in reading order, inside a hint or a list if that is where it is.
  const first = (nodes: Array<Record<string, unknown>>): Record<string, unknown> | undefined => {
    for (const node of nodes) {
      if (node.type === 'paragraph') return node;
      const inner = Array.isArray(node.nodes) && node.object === 'block' ? first(node.nodes as Array<Record<string, unknown>>) : undefined;
      if (inner) return inner;
    }
    return undefined;
  };
  const paragraph = first(document.nodes);
  const words = paragraph
    ? documentText([paragraph as DocumentNode])
        .replace(/\s+/g, ' ')
        .trim()
    : '';
  if (!words) return undefined;
  return words.length <= 160 ? words : `${words.slice(0, 157).replace(/\s+\S*$/, '')}…`;
}

function lastUpdated(updatedAt: Date, customization: Record<string, unknown>) {
  const locale = (customization.internationalization as { locale?: string } | undefined)?.locale ?? 'en';
  const shown = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(updatedAt);
  return el('p', { className: ['updated'] }, 'Last updated ', el('time', { dateTime: updatedAt.toISOString() }, shown));
}

/** A site's 404: its navigation, and a search box to find what moved. */
export function notFoundHtml(view: FrameView): string {
  return sitePageHtml(frameOf(view), {
    title: 'Page not found',
    content: [
      el('h1', {}, 'Page not found'),
      el('p', {}, 'This page does not exist, or it has moved. Search the site:'),
      el(
        'form',
        { role: 'search', method: 'get', action: `${view.place.siteBasePath}~search`, ariaLabel: 'Search the pages' },
        el('input', { type: 'search', name: 'q', ariaLabel: 'Search the site', required: true }),
        el('button', { type: 'submit' }, 'Search'),
      ),
    ],
  });
}

/** A bare page for when there is no site to show (no such site, or not for this visitor): a title and a sentence. */
export function messagePageHtml(title: string, message: string): string {
  const tree: Root = {
    type: 'root',
    children: [{ type: 'doctype' }, el('html', { lang: 'en' }, el('head', {}, el('meta', { charSet: 'utf-8' }), el('title', {}, title)), el('body', {}, el('h1', {}, title), el('p', {}, message)))],
  };
  return toHtml(tree);
}

/** A found page's URL on the site. */
const foundPageUrl = (view: FrameView, hit: FoundPage) => `${view.place.siteBasePath}${hit.siteSpace.path}${hit.path.split('/').filter(Boolean).map(encodeURIComponent).join('/')}`;

/** What the search box's script lists as the visitor types: each page's title, URL and where it sits. */
/** What the search box shows as the visitor types: each page found, where it sits, and its best two matching sections with their excerpts. */
export function searchResultsJson(view: FrameView, found: FoundPage[]): Array<{ title: string; url: string; context: string; sections: Array<{ title: string; url: string; excerpt: string }> }> {
  return found.slice(0, 10).map((hit) => {
    const url = foundPageUrl(view, hit);
    return {
      title: hit.title,
      url,
      context: [...(view.siteSpaces.length > 1 ? [hit.siteSpace.title] : []), ...hit.ancestors].join(' › '),
      sections: hit.sections.slice(0, 2).map((section) => ({ title: section.title || hit.title, url: section.id ? `${url}#${encodeURIComponent(section.id)}` : url, excerpt: section.excerpt })),
    };
  });
}

/** The site's search page: a form that works without script, and what it found. */
export function searchResultsHtml(view: FrameView, query: string, found: FoundPage[]): string {
  const pageUrl = (hit: FoundPage) => foundPageUrl(view, hit);
  return sitePageHtml(frameOf(view), {
    title: query ? `Search: ${query}` : 'Search',
    content: [
      el('h1', {}, 'Search'),
      el(
        'form',
        { role: 'search', method: 'get', action: `${view.place.siteBasePath}~search`, ariaLabel: 'Search the pages' },
        el('input', { type: 'search', name: 'q', value: query, ariaLabel: 'Search the site', required: true }),
        el('button', { type: 'submit' }, 'Search'),
      ),
      query ? el('p', { role: 'status' }, found.length === 0 ? `Nothing found for “${query}”.` : `${found.length} ${found.length === 1 ? 'page' : 'pages'} found for “${query}”.`) : null,
      el(
        'ol',
        { className: ['results'] },
        found.map((hit) =>
          el(
            'li',
            {},
            el('a', { href: pageUrl(hit) }, hit.title),
            hit.ancestors.length || view.siteSpaces.length > 1 ? el('p', {}, [hit.siteSpace.title, ...hit.ancestors].join(' › ')) : null,
            hit.sections
              .slice(0, 3)
              .map((section) => el('p', {}, section.id ? el('a', { href: `${pageUrl(hit)}#${encodeURIComponent(section.id)}` }, section.title) : null, section.id ? ': ' : null, section.excerpt)),
          ),
        ),
      ),
    ],
  });
}

/**
 * The site's question page (docs/ask.md): a form that works without script, and the answer. A
 * quoted answer shows each passage under a link to its page; a model's answer its paragraphs,
 * as text, then the pages it cites.
 */
export function askHtml(view: FrameView, question: string, answer: Answer | undefined): string {
  const pageUrl = (source: { spaceId: string; path: string }) => {
    const siteSpace = view.siteSpaces.find((candidate) => candidate.spaceId === source.spaceId);
    return siteSpace ? `${view.place.siteBasePath}${siteSpace.path}${source.path.split('/').filter(Boolean).map(encodeURIComponent).join('/')}` : undefined;
  };
  const link = (source: { spaceId: string; path: string; sectionId?: string }, text: string) => {
    const href = pageUrl(source);
    return href ? el('a', { href: source.sectionId ? `${href}#${encodeURIComponent(source.sectionId)}` : href }, text) : text;
  };
  const answered = (found: Answer) => {
    if (found.method === 'quoted' && found.quotes.length > 0) {
      return found.quotes.map((quote) => el('figure', { className: ['quote'] }, el('blockquote', {}, el('p', {}, quote.passage)), el('figcaption', {}, link(quote, quote.title))));
    }
    const paragraphs = found.markdown.split(/\n{2,}/).map((paragraph) => el('p', {}, paragraph.trim()));
    const sources = found.sources.length
      ? [
          el('h2', {}, 'Sources'),
          el(
            'ol',
            {},
            found.sources.map((source) => el('li', {}, link(source, source.title))),
          ),
        ]
      : [];
    return [...paragraphs, ...sources];
  };
  return sitePageHtml(frameOf(view), {
    title: question ? `Ask: ${question}` : 'Ask',
    content: [
      el('h1', {}, 'Ask the documentation'),
      el(
        'form',
        { method: 'get', action: `${view.place.siteBasePath}~ask`, ariaLabel: 'Ask a question', className: ['ask'] },
        el('input', { type: 'text', name: 'q', value: question, ariaLabel: 'Your question', required: true, maxLength: 512 }),
        el('button', { type: 'submit' }, 'Ask'),
      ),
      answer
        ? el('section', { className: ['answer'], ariaLive: 'polite' }, answered(answer))
        : el('p', {}, 'Answers quote the pages of this site, or are written from them, and say which: nothing is made up.'),
    ],
  });
}
