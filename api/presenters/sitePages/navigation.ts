import type { Element } from 'hast';
import type { RevisionPage } from '../../../engine/readRevision.js';
import { el, safeHref } from './hast.js';

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
 * The space's table of contents: groups as headings, pages with subpages as disclosures (open on
 * the way to the current page), the current page marked for assistive technology too.
 */
export function sidebarTree(pages: RevisionPage[], basePath: string, current: RevisionPage | undefined): Element {
  const open = new Set(current ? ancestorsOf(pages, current) : []);
  const items = (list: RevisionPage[]): Element[] =>
    list.filter(listed).map((page) => {
      if (page.kind === 'link') {
        const href = safeHref(page.href ?? '');
        return el('li', {}, href ? el('a', { href }, page.title) : page.title);
      }
      if (page.kind === 'group') return el('li', {}, el('span', { className: ['group'] }, page.title), el('ul', {}, items(page.pages)));
      const link = el('a', { href: pagePath(basePath, page), ...(page === current ? { ariaCurrent: 'page' } : {}) }, page.title);
      const children = page.pages.filter(listed);
      if (children.length === 0) return el('li', {}, link);
      return el('li', {}, link, el('details', { open: open.has(page) || page === current }, el('summary', {}, `${page.title}: subpages`), el('ul', {}, items(children))));
    });
  return el('ul', {}, items(pages));
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
    previous && el('a', { href: pagePath(basePath, previous), rel: 'prev', className: ['previous'] }, `← ${previous.title}`),
    next && el('a', { href: pagePath(basePath, next), rel: 'next', className: ['next'] }, `${next.title} →`),
  );
}

export function breadcrumbs(pages: RevisionPage[], basePath: string, current: RevisionPage): Element | undefined {
  const above = ancestorsOf(pages, current);
  if (above.length === 0) return undefined;
  return el('nav', { className: ['breadcrumbs'], ariaLabel: 'Breadcrumbs' }, el('ol', {}, above.map((page) => el('li', {}, page.kind === 'document' ? el('a', { href: pagePath(basePath, page) }, page.title) : page.title))));
}
