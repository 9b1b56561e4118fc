import type { Element, ElementContent, Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import type { RevisionPage } from '../../../engine/index.js';
import { colorVariables } from './colors.js';
import { el, safeHref, type Child, type OutlineEntry } from '../../../domain/documents/index.js';
import { sidebarHtml } from './navigation.js';
import { siteIconName, siteStylesheetName } from './siteStyles.js';
import { siteScriptName } from './siteScript.js';

type Customization = Record<string, unknown>;

/** A link the site's navigation shows: a section tab or a variant. */
export interface NavigationLink {
  title: string;
  href: string;
  current: boolean;
}

/** What every page of a site shares: its customization, structure and the site space being read. */
export interface SiteFrame {
  siteTitle: string;
  customization: Customization;
  siteBasePath: string;
  /** The URL path of the site space being read. */
  basePath: string;
  sections: NavigationLink[];
  variants: NavigationLink[];
  /** The site space's page tree, and the page being read. */
  pages: RevisionPage[];
  current?: RevisionPage;
  /** Whether search engines may index the page (a public site's published content only). */
  indexable: boolean;
  /** Whether readers' reads are counted here: not in a preview (the app's, a change request's). */
  counted: boolean;
  /** A customization's content reference (header, footer and banner links) as a URL, if it leads anywhere. */
  linkTo(ref: unknown): string | undefined;
}

/** The main column of a page. */
export interface PageBody {
  title: string;
  /** For search engines' snippets (`<meta name="description">`). */
  description?: string;
  content: Child[];
  outline?: OutlineEntry[];
  canonicalUrl?: string;
  markdownUrl?: string;
  /** The page being read, which the sites' script reports as read (`~insights`, docs/insights.md). */
  reading?: { space: string; page: string };
}

const object = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const string = (value: unknown) => (typeof value === 'string' ? value : '');

/** A whole HTML page of the site, serialised once from its tree. */
export function sitePageHtml(frame: SiteFrame, body: PageBody): string {
  const tree: Root = {
    type: 'root',
    children: [{ type: 'doctype' }, el('html', { lang: string(object(frame.customization.internationalization).locale) || 'en' }, head(frame, body), bodyOf(frame, body))],
  };
  // The one raw node is the sidebar, serialised from its own trees (sidebarHtml): nothing else is raw.
  return toHtml(tree, { allowDangerousHtml: true });
}

function head(frame: SiteFrame, body: PageBody): Element {
  const styling = object(frame.customization.styling);
  const favicon = object(object(frame.customization.favicon).icon);
  const faviconUrl = safeWebUrl(string(favicon.light));
  return el(
    'head',
    {},
    el('meta', { charSet: 'utf-8' }),
    el('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
    el('title', {}, body.title === frame.siteTitle ? body.title : `${body.title} | ${frame.siteTitle}`),
    body.description ? el('meta', { name: 'description', content: body.description }) : null,
    frame.indexable ? null : el('meta', { name: 'robots', content: 'noindex, nofollow' }),
    body.canonicalUrl ? el('link', { rel: ['canonical'], href: body.canonicalUrl }) : null,
    body.markdownUrl ? el('link', { rel: ['alternate'], type: 'text/markdown', href: body.markdownUrl }) : null,
    el('link', { rel: ['alternate'], type: 'text/plain', href: `${frame.siteBasePath}llms.txt`, title: 'llms.txt' }),
    el('link', { rel: ['icon'], href: faviconUrl ?? `${frame.siteBasePath}~assets/${siteIconName}` }),
    el('link', { rel: ['stylesheet'], href: `${frame.siteBasePath}~assets/${siteStylesheetName}` }),
    el('style', {}, colorVariables(styling)),
    el('script', { src: `${frame.siteBasePath}~assets/${siteScriptName}`, defer: true }),
  );
}

function bodyOf(frame: SiteFrame, body: PageBody): Element {
  return el(
    'body',
    // Where the sites' script reports reads (a static export drops these with the script).
    frame.counted ? { dataInsights: `${frame.siteBasePath}~insights`, ...(body.reading && { dataSpace: body.reading.space, dataPage: body.reading.page }) } : {},
    el('a', { href: '#content', className: ['skip'] }, 'Skip to content'),
    siteHeader(frame),
    banner(frame),
    frame.sections.length > 1 ? el('nav', { className: ['sections'], ariaLabel: 'Sections' }, frame.sections.map(navigationLink)) : null,
    el(
      'div',
      { className: ['layout'] },
      el('nav', { className: ['toc'], ariaLabel: 'Pages' }, variantSwitcher(frame.variants), {
        type: 'raw',
        value: sidebarHtml(frame.pages, frame.basePath, frame.current),
      } as unknown as ElementContent),
      el('main', { id: 'content' }, body.outline && body.outline.length > 1 ? compactOutline(body.outline) : null, body.content),
      body.outline && body.outline.length > 1 ? outline(body.outline) : null,
    ),
    siteFooter(frame),
  );
}

function siteHeader(frame: SiteFrame): Element {
  const header = object(frame.customization.header);
  const logo = safeWebUrl(string(object(header.logo).light));
  const links = Array.isArray(header.links) ? header.links.map(object) : [];
  return el(
    'header',
    { className: ['site'] },
    el('a', { href: frame.siteBasePath, className: ['title'] }, logo ? el('img', { src: logo, alt: '', width: 28, height: 28 }) : null, frame.siteTitle),
    // On a phone the pages are behind this switch (no script needed); on a wide screen it isn't shown.
    el('input', { type: 'checkbox', id: 'menu-switch', className: ['menu-input'], ariaLabel: 'Show the pages' }),
    el('label', { htmlFor: 'menu-switch', className: ['menu-label'] }, 'Menu'),
    links.length
      ? el(
          'nav',
          { className: ['links'], ariaLabel: 'Links' },
          links.map((link) => contentLink(frame, link.to, string(link.title))),
        )
      : null,
    el(
      'form',
      { role: 'search', method: 'get', action: `${frame.siteBasePath}~search`, ariaLabel: 'Site search', dataLive: '' },
      el('input', { type: 'search', name: 'q', placeholder: 'Search…', ariaLabel: 'Search the site', required: true }),
      el('button', { type: 'submit' }, 'Search'),
    ),
    // Answers need the server: a static export leaves this link out (staticPages.ts).
    el('a', { href: `${frame.siteBasePath}~ask`, className: ['ask'], dataNeedsServer: '' }, 'Ask'),
    ...(object(frame.customization.themes).toggeable === false
      ? []
      : [
          el('input', { type: 'checkbox', id: 'theme-switch', className: ['theme-input'], ariaLabel: 'Switch between light and dark themes' }),
          el('label', { htmlFor: 'theme-switch', className: ['theme-label'] }, 'Theme'),
        ]),
  );
}

function banner(frame: SiteFrame): Element | null {
  const announcement = object(frame.customization.announcement);
  if (announcement.enabled !== true || !string(announcement.message)) return null;
  const link = object(announcement.link);
  return el(
    'div',
    { className: ['banner', `banner-${string(announcement.style) || 'info'}`], role: 'region', ariaLabel: 'Announcement' },
    string(announcement.message),
    link.to ? [' ', contentLink(frame, link.to, string(link.title))] : null,
  );
}

function siteFooter(frame: SiteFrame): Element {
  const footer = object(frame.customization.footer);
  const groups = Array.isArray(footer.groups) ? footer.groups.map(object) : [];
  return el(
    'footer',
    { className: ['site'] },
    groups.map((group) =>
      el(
        'div',
        {},
        el('strong', {}, string(group.title)),
        el(
          'ul',
          {},
          (Array.isArray(group.links) ? group.links.map(object) : []).map((link) => el('li', {}, contentLink(frame, link.to, string(link.title)))),
        ),
      ),
    ),
    footer.copyright ? el('p', {}, string(footer.copyright)) : null,
    el('p', {}, 'Published with Quire'),
  );
}

function variantSwitcher(variants: NavigationLink[]): Element | null {
  if (variants.length < 2) return null;
  const current = variants.find((variant) => variant.current);
  return el(
    'details',
    { className: ['variants'] },
    el('summary', {}, current?.title ?? 'Versions'),
    el(
      'ul',
      {},
      variants.map((variant) => el('li', {}, navigationLink(variant))),
    ),
  );
}

/** The outline on a narrow screen: a disclosure above the page (shown only where the side one isn't). */
function compactOutline(entries: OutlineEntry[]): Element {
  return el(
    'details',
    { className: ['outline-compact'] },
    el('summary', {}, 'On this page'),
    el(
      'ul',
      {},
      entries.map((entry) => el('li', { className: [`l${entry.level}`] }, el('a', { href: `#${entry.id}` }, entry.title))),
    ),
  );
}

function outline(entries: OutlineEntry[]): Element {
  return el(
    'aside',
    { className: ['outline'], ariaLabelledBy: 'outline-title' },
    el('h2', { id: 'outline-title' }, 'On this page'),
    el(
      'ul',
      {},
      entries.map((entry) => el('li', { className: [`l${entry.level}`] }, el('a', { href: `#${entry.id}` }, entry.title))),
    ),
  );
}

const navigationLink = (link: NavigationLink): ElementContent => el('a', { href: link.href, ...(link.current ? { ariaCurrent: 'page' } : {}) }, link.title);

function contentLink(frame: SiteFrame, to: unknown, title: string): ElementContent {
  const href = frame.linkTo(to);
  return href ? el('a', { href }, title) : el('span', {}, title);
}

/** An image a customization points at: web URLs only. */
function safeWebUrl(url: string): string | undefined {
  return /^https?:\/\//i.test(url) ? safeHref(url) : undefined;
}
