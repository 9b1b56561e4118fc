import type { Element } from 'hast';
import type { RevisionPage } from '../../../engine/index.js';
import { toHtml } from 'hast-util-to-html';
import { el, safeHref } from '../../../domain/documents/index.js';

/** The URL path of a page of the site space being shown. */
export const pagePath = (basePath: string, page: RevisionPage) => `${basePath}${page.path.split('/').filter(Boolean).map(encodeURIComponent).join('/')}`;

const listed = (page: RevisionPage) => page.meta.hidden !== true;

/** The pages a reader walks through in order (previous / next): document pages, hidden ones left out. */
export function readingOrder(pages: RevisionPage[]): RevisionPage[] {
  return pages.filter(listed).flatMap((page) => [...(page.kind === 'document' ? [page] : []), ...(page.kind === 'link' ? [] : readingOrder(page.pages))]);
}

/** The titles of the pages above a page, outermost first. */
export function ancestorsOf(pages: RevisionPage[], target: RevisionPage): RevisionPage[] {
  for (const page of pages) {
    if (page === target) return [];
    const inner = ancestorsOf(page.pages, target);
    if (inner.length > 0 || page.pages.includes(target)) return [page, ...inner];
  }
  return [];
}

/**
 * The space's table of contents as HTML: groups as headings, a page with subpages as one row (its
 * link, and a disclosure of its subpages beside it, open on the way to the current page), the current page marked for assistive technology too.
 * Each top-level entry is built as a tree and serialised on its own; the entries that don't hold
 * the current page are the same on every page of the revision, so they are kept, by page object
 * (a revision shares unchanged pages' objects with its parent's), and a 1,000-page sidebar costs
 * one entry's rendering per page, not a thousand links'.
 */
export function sidebarHtml(pages: RevisionPage[], basePath: string, current: RevisionPage | undefined): string {
  const open = new Set(current ? ancestorsOf(pages, current) : []);
  const entries = pages.filter(listed).map((page) => {
    if (page === current || open.has(page)) return toHtml(sidebarEntry(page, basePath, current, open));
    let byBase = unmarkedEntries.get(page);
    if (!byBase) unmarkedEntries.set(page, (byBase = new Map()));
    let html = byBase.get(basePath);
    if (html === undefined) byBase.set(basePath, (html = toHtml(sidebarEntry(page, basePath, undefined, new Set()))));
    return html;
  });
  return `<ul>${entries.join('')}</ul>`;
}

const unmarkedEntries = new WeakMap<RevisionPage, Map<string, string>>();

function sidebarEntry(page: RevisionPage, basePath: string, current: RevisionPage | undefined, open: Set<RevisionPage>): Element {
  if (page.kind === 'link') {
    const href = safeHref(page.href ?? '');
    return el('li', {}, href ? el('a', { href }, page.title) : page.title);
  }
  const children = page.pages.filter(listed);
  const list = () =>
    el(
      'ul',
      {},
      children.map((child) => sidebarEntry(child, basePath, current, open)),
    );
  if (page.kind === 'group') return el('li', {}, el('span', { className: ['group'] }, page.title), list());
  const link = el('a', { href: pagePath(basePath, page), ...(page === current ? { ariaCurrent: 'page' } : {}) }, page.title);
  if (children.length === 0) return el('li', {}, link);
  // One row: the page's link, and beside it the disclosure of its subpages (its name read by assistive technology only).
  return el(
    'li',
    { className: ['parent'] },
    link,
    el('details', { open: open.has(page) || page === current }, el('summary', {}, el('span', { className: ['visually-hidden'] }, `${page.title}: subpages`)), list()),
  );
}

/** Previous and next pages in reading order. */
export function pagination(pages: RevisionPage[], basePath: string, current: RevisionPage): Element | undefined {
  const order = readingOrder(pages);
  const index = order.indexOf(current);
  if (index < 0) return undefined;
  const previous = order[index - 1];
  const next = order[index + 1];
  if (!previous && !next) return undefined;
  return el(
    'nav',
    { className: ['pagination'], ariaLabel: 'Previous and next pages' },
    previous &&
      el(
        'a',
        { href: pagePath(basePath, previous), rel: 'prev', className: ['previous'] },
        el('span', { className: ['direction'] }, 'Previous'),
        el('span', { className: ['target'] }, `← ${previous.title}`),
      ),
    next && el('a', { href: pagePath(basePath, next), rel: 'next', className: ['next'] }, el('span', { className: ['direction'] }, 'Next'), el('span', { className: ['target'] }, `${next.title} →`)),
  );
}

export function breadcrumbs(pages: RevisionPage[], basePath: string, current: RevisionPage): Element | undefined {
  const above = ancestorsOf(pages, current);
  if (above.length === 0) return undefined;
  return el(
    'nav',
    { className: ['breadcrumbs'], ariaLabel: 'Breadcrumbs' },
    el(
      'ol',
      {},
      above.map((page) => el('li', {}, page.kind === 'document' ? el('a', { href: pagePath(basePath, page) }, page.title) : page.title)),
    ),
  );
}
