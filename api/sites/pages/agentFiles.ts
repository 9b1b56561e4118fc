import type { PublishedPageView, VisibleSiteSpace } from '../../../domain/publishing/index.js';
import { type Revision, type RevisionPage, splitTitleHeading } from '../../../engine/index.js';
import { readingOrder } from './navigation.js';
import { isIndexable } from './publishedPage.js';

/** A visible site space's published revision: what the site's listings are made of. */
export interface SiteSpaceListing {
  siteSpace: VisibleSiteSpace;
  revision: Revision;
}

type ListingView = Pick<PublishedPageView, 'place' | 'customization'>;

const pageUrl = (view: ListingView, origin: string, siteSpace: VisibleSiteSpace, page: RevisionPage, suffix = '') =>
  new URL(`${view.place.siteBasePath}${siteSpace.path}${page.path ? page.path.split('/').map(encodeURIComponent).join('/') + suffix : suffix ? `index${suffix}` : ''}`, origin).toString();

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const siteTitle = (view: ListingView) => (typeof view.customization.title === 'string' ? view.customization.title : view.place.site.title);
const descriptionOf = (page: RevisionPage) => (typeof page.meta.description === 'string' ? oneLine(page.meta.description) : '');

/** A page as markdown: its title as the heading, then its body as stored. */
export function markdownTwin(page: RevisionPage): string {
  return `# ${page.title}\n\n${splitTitleHeading(page.markdown ?? '').text}`;
}

/** `llms.txt` (llmstxt.org): the site's title, then each site space's pages, one line each, pointing at their `.md` twins. */
export function llmsTxt(view: ListingView, listings: SiteSpaceListing[], origin: string): string {
  const lines = [`# ${oneLine(siteTitle(view))}`, ''];
  for (const { siteSpace, revision } of listings) {
    if (listings.length > 1) lines.push(`## ${oneLine(siteSpace.title)}`, '');
    for (const page of readingOrder(revision.pages)) {
      const description = descriptionOf(page);
      lines.push(`- [${oneLine(page.title).replace(/[[\]]/g, '\\$&')}](${pageUrl(view, origin, siteSpace, page, '.md')})${description ? `: ${description}` : ''}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** `llms-full.txt`: every page's markdown, one after the other, produced as it is sent. */
export function* llmsFullTxt(view: ListingView, listings: SiteSpaceListing[], origin: string): Generator<string> {
  yield `# ${oneLine(siteTitle(view))}\n\n`;
  for (const { siteSpace, revision } of listings) {
    for (const page of readingOrder(revision.pages)) yield `<!-- ${pageUrl(view, origin, siteSpace, page).replace(/--/g, '-%2D')} -->\n${markdownTwin(page)}\n\n`;
  }
}

/** `robots.txt`: a public site may be crawled (its sitemap named); anything else asks crawlers to stay out. */
export function robotsTxt(view: ListingView, origin: string): string {
  if (!isIndexable(view)) return 'User-agent: *\nDisallow: /\n';
  return `User-agent: *\nAllow: /\n\nSitemap: ${new URL(`${view.place.siteBasePath}sitemap.xml`, origin).toString()}\n`;
}

const xmlText = (value: string) => value.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

/** `sitemap.xml`: every listed page of a public site (none for any other). */
export function sitemapXml(view: ListingView, listings: SiteSpaceListing[], origin: string): string {
  const urls = isIndexable(view)
    ? listings.flatMap(({ siteSpace, revision }) => readingOrder(revision.pages).map((page) => `<url><loc>${xmlText(pageUrl(view, origin, siteSpace, page))}</loc></url>`))
    : [];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}
