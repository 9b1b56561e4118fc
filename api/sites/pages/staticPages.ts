import path from 'node:path';
import type { Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { defaultTreeAdapter, html as parse5Html, parse, serialize, type DefaultTreeAdapterMap } from 'parse5';
import { el } from '../../../domain/documents/index.js';

type ParentNode = DefaultTreeAdapterMap['parentNode'];
type Element = DefaultTreeAdapterMap['element'];

/**
 * Where a URL path of the live site (below its base, percent-encoded, no query or fragment) is
 * written in a static export: pages as `<path>/index.html` (so a folder served by any web server
 * or opened from disk finds them), the search page as `search/index.html`, files as they are.
 */
export function staticFileOf(rest: string): string {
  if (rest === '~search') return 'search/index.html';
  if (rest.startsWith('~assets/') || rest.startsWith('~files/') || /\.(md|txt|xml)$/.test(rest)) return rest;
  const trimmed = rest.replace(/\/+$/, '');
  return trimmed ? `${trimmed}/index.html` : 'index.html';
}

/** A live URL of the site as a link relative to the exported file that holds it. */
export function relativeLink(url: string, siteBasePath: string, fromFile: string): string {
  if (!url.startsWith(siteBasePath)) return url;
  const [, rest = '', suffix = ''] = /^([^?#]*)(.*)$/.exec(url.slice(siteBasePath.length)) ?? [];
  const target = staticFileOf(rest);
  const relative = path.posix.relative(path.posix.dirname(fromFile), target);
  return `${relative || path.posix.basename(target)}${suffix}`;
}

/**
 * A page the live site rendered, with every link, image, stylesheet and form to the site made
 * relative to the file it is written to, the canonical link left out and the script's server parts off;
 * an `indexed` page's `main` marked as what Pagefind indexes. The page is
 * re-parsed and re-serialised as a tree: nothing is spliced into it as text.
 */
export function staticHtml(html: string, siteBasePath: string, file: string, options: { indexed: boolean; extraHead?: Element[]; files?: ExportedFiles }): string {
  const document = parse(html);
  const needServer: DefaultTreeAdapterMap['element'][] = [];
  walk(document, (element) => {
    if (element.attrs.some((attribute) => attribute.name === 'data-needs-server')) needServer.push(element);
    // What the live site's script reports to, and its results as the visitor types: no server here.
    element.attrs = element.attrs.filter((attribute) => !['data-insights', 'data-space', 'data-page', 'data-live'].includes(attribute.name));
    for (const attribute of element.attrs) {
      if (attribute.name !== 'href' && attribute.name !== 'src' && attribute.name !== 'action') continue;
      const exported = options.files?.get(attribute.value.replace(/[?#].*$/, ''));
      const target = exported ? (element.tagName === 'img' && attribute.name === 'src' && exported.inline) || exported.url : attribute.value;
      attribute.value = target.startsWith('data:') ? target : relativeLink(target, siteBasePath, file);
    }
    if (element.tagName === 'main' && options.indexed) element.attrs.push({ name: 'data-pagefind-body', value: '' });
    if (element.tagName === 'head') {
      // No server sends the live site's Content-Security-Policy header: the page carries it, first.
      defaultTreeAdapter.insertBefore(element, headElement('meta', { 'http-equiv': 'Content-Security-Policy', content: exportedPagePolicy }), element.childNodes[0]!);
      // The script stays (copy buttons, tabs, the theme kept), its server parts off (`data-live`,
      // `data-insights` gone). The canonical URL names the live server, which a copy served
      // elsewhere may not be beside.
      const dropped = (child: DefaultTreeAdapterMap['childNode']) =>
        'tagName' in child && child.tagName === 'link' && child.attrs.some((attribute) => attribute.name === 'rel' && attribute.value === 'canonical');
      for (const child of element.childNodes.filter(dropped)) defaultTreeAdapter.detachNode(child);
      for (const extra of options.extraHead ?? []) defaultTreeAdapter.appendChild(element, extra);
    }
  });
  for (const element of needServer) defaultTreeAdapter.detachNode(element);
  spaceBetweenBlocks(document);
  return serialize(document);
}

/** Elements a reader sees as blocks of their own: text on either side of one is another word. */
const blockElements = new Set([
  'p',
  'li',
  'dt',
  'dd',
  'pre',
  'summary',
  'details',
  'figure',
  'figcaption',
  'blockquote',
  'aside',
  'div',
  'section',
  'table',
  'tr',
  'td',
  'th',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
]);

/**
 * A line break after every block in the page's `main` (never inside `pre`): the live pages are
 * written without whitespace between tags, and Pagefind reads a page's text as its characters
 * come, so "my-project" in one block and "Docker" in the next would be one word in its excerpts.
 */
function spaceBetweenBlocks(document: ParentNode) {
  const spaced = (node: ParentNode) => {
    for (const child of [...node.childNodes]) {
      if (!('tagName' in child) || child.tagName === 'pre') continue;
      spaced(child);
      if (!blockElements.has(child.tagName)) continue;
      const next = node.childNodes[node.childNodes.indexOf(child) + 1];
      if (next) defaultTreeAdapter.insertTextBefore(node, '\n', next);
      else defaultTreeAdapter.insertText(node, '\n');
    }
  };
  walk(document, (element) => {
    if (element.tagName === 'main') spaced(element);
  });
}

/**
 * What an exported page may load: its own files, Pagefind's index and WebAssembly on the search
 * page, images from the web; never a script or a frame from elsewhere, nor a `javascript:` link.
 */
export const exportedPagePolicy =
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; font-src 'self'; form-action 'self'; base-uri 'none'";

/**
 * Files of the export whose type a browser runs when it opens them (HTML, SVG, XML): written
 * under another name, as downloads, so that no static server serves one as a page of the site.
 * By their live URL: where links to them lead now, and for an SVG shown as an image, the image
 * itself as a `data:` URL (an image runs no script).
 */
export type ExportedFiles = Map<string, { url: string; inline?: string }>;

/** Extensions a browser renders as a document that can run script. */
export const activeFileTypes = /\.(html?|xhtml?|shtml|svgz?|xml|xslt?|mht(ml)?)$/i;

/** An element for `staticHtml`'s extra head content (the search page's Pagefind UI). */
export function headElement(tagName: string, attributes: Record<string, string>): Element {
  return defaultTreeAdapter.createElement(
    tagName,
    parse5Html.NS.HTML,
    Object.entries(attributes).map(([name, value]) => ({ name, value })),
  );
}

function walk(node: ParentNode, visit: (element: Element) => void) {
  for (const child of node.childNodes) {
    if ('tagName' in child) {
      visit(child);
      walk(child.tagName === 'template' ? (child as DefaultTreeAdapterMap['template']).content : child, visit);
    }
  }
}

/** The page a redirect leaves in a static export: a refresh to where it leads, and a link for those who don't follow it. */
export function redirectStubHtml(target: string): string {
  const tree: Root = {
    type: 'root',
    children: [
      { type: 'doctype' },
      el(
        'html',
        { lang: 'en' },
        el(
          'head',
          {},
          el('meta', { httpEquiv: 'Content-Security-Policy', content: exportedPagePolicy }),
          el('meta', { charSet: 'utf-8' }),
          el('title', {}, 'Moved'),
          el('meta', { httpEquiv: 'refresh', content: `0; url=${target}` }),
          el('meta', { name: 'robots', content: 'noindex' }),
        ),
        el('body', {}, el('p', {}, 'This page has moved: ', el('a', { href: target }, target))),
      ),
    ],
  };
  return toHtml(tree);
}

/** The search page's script in an export: Pagefind's UI in the page, started with the query the header's form sent. */
export const staticSearchScript = `window.addEventListener('DOMContentLoaded', () => {
  const main = document.querySelector('main');
  const box = document.createElement('div');
  box.id = 'pagefind-search';
  main.querySelector('form[role=search]')?.remove();
  main.append(box);
  const ui = new PagefindUI({ element: '#pagefind-search', showSubResults: true });
  const query = new URLSearchParams(location.search).get('q');
  if (query) ui.triggerSearch(query);
});
`;
