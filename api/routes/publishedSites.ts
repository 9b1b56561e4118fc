import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type Koa from 'koa';
import { DomainError } from '../../domain/common/errors.js';
import {
  looksLikeShareKey,
  publishedRevisions,
  readPublishedDocument,
  readPublishedPage,
  revisionShape,
  searchPublishedSite,
  answerOnSite,
  shareKeyInPath,
  siteOfPublishedUrl,
  type PublishedPageView,
  type PublishedRedirect,
} from '../../domain/publishing/index.js';
import { readSpaceFile, readSpaceRevision } from '../../domain/spaces/index.js';
import type { RevisionPage } from '../../engine/index.js';
import { contentDeps, type AppContext } from '../context.js';
import { badRequest, isWorkTooCostly } from '../errors.js';
import { serveSiteMcp } from '../sites/siteMcp.js';
import { EncodedCache, encodedOnce, type ContentEncoding } from '../encodedCache.js';
import { llmsFullTxt, llmsTxt, markdownTwin, robotsTxt, sitemapXml } from '../sites/pages/agentFiles.js';
import { countsOf, pageOfSite, referrerHost, searchWords, type SiteEvent } from '../../domain/insights/index.js';
import { jsonBody } from '../middleware/jsonBody.js';
import { findSiteByIdCached } from '../../storage/sites.js';
import { recordSiteAnswer } from '../../domain/answers/index.js';
import { askHtml, isIndexable, messagePageHtml, notFoundHtml, renderPublishedPage, searchResultsHtml, searchResultsJson, tooLargePageHtml } from '../sites/pages/publishedPage.js';
import { siteAssets } from '../sites/pages/siteAssets.js';
import mime from 'mime-types';

/**
 * The published sites, beside `/v1`: `GET /sites/<siteId>/<page path>` (or the page path on a
 * site's own hostname, below its basename) renders the page a reader
 * asked for (resolvePublishedUrl's rules: visibility, share links, visitor auth, conditions,
 * redirects), with its `.md` twin, `llms.txt`, `llms-full.txt`, `sitemap.xml`, `robots.txt`,
 * a search page (`~search?q=`), the files pages show (`~files/…`) and the stylesheet (`~assets/…`).
 */
export async function publishedSites(ctx: AppContext, next: Koa.Next) {
  const found = await siteOfRequest(ctx);
  if (!found) return next();
  const { siteBasePath, origin } = found;
  const isMcp = ctx.path === `${siteBasePath}~mcp`;
  if (ctx.path === `${siteBasePath}~insights`) return countReaderEvent(ctx, found);
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && !isMcp) return next();
  if (!ctx.path.startsWith(siteBasePath)) return void ctx.redirect(`${siteBasePath}${ctx.querystring ? `?${ctx.querystring}` : ''}`);
  // An agent's MCP client keeps the URL it was given: its credentials stay in it.
  if (!isMcp && (moveCredentialsToCookies(ctx, siteBasePath) || (await moveShareKeyToCookie(ctx, found)))) return;
  try {
    await serve(ctx, { siteBasePath, origin }, ctx.path.slice(siteBasePath.length));
  } catch (error) {
    if (!(error instanceof DomainError) || (error.code !== 'not_found' && error.code !== 'unauthenticated')) throw error;
    ctx.status = error.code === 'not_found' ? 404 : 401;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = error.code === 'not_found' ? messagePageHtml('Not found', 'No published site answers at this address.') : messagePageHtml('Sign in needed', error.message);
  }
}

/** Where a request's site lives: its id, its base path, and the origin its absolute URLs are made with. */
interface SiteAddress {
  siteId: string;
  siteBasePath: string;
  origin: string;
}

const hostnames = new Map<string, string>();
/** A base URL's hostname, parsed once. */
const hostnameOf = (base: string) => hostnames.get(base) ?? hostnames.set(base, new URL(base).hostname).get(base)!;

/** Paths that stay the API's whatever the host: the API, the git remote, metrics, sign-in. */
const serverPaths = /^\/(v1|git|metrics|auth)(\/|$)/;

/**
 * `/sites/<id>/…` on this server's own host; on another host, the site whose custom hostname it
 * is (under the site's basename), so a docs domain pointed at Quire shows its site at its root.
 */
async function siteOfRequest(ctx: AppContext): Promise<SiteAddress | undefined> {
  const requestPath = ctx.path;
  const own = /^\/sites\/([A-Za-z0-9_-]+)(?:\/|$)/.exec(requestPath);
  if (own) return { siteId: own[1]!, siteBasePath: `/sites/${own[1]}/`, origin: ctx.urls.base };
  // The cheap test first: every API request is one of these.
  if (serverPaths.test(requestPath) || ctx.hostname === hostnameOf(ctx.urls.base)) return undefined;
  // A hostname and a port, nothing else: the header as sent (Koa reads `evil.example@docs.example.com` as docs.example.com).
  if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(ctx.get('host'))) return undefined;
  const found = await siteOfPublishedUrl(contentDeps(ctx), `${ctx.protocol}://${ctx.hostname}${ctx.path}`, ctx.urls.base);
  // The site's own hostname, never the Host header's port: a cached page's links are everyone's.
  return found && { siteId: found.site.id, siteBasePath: found.siteBasePath, origin: `${ctx.protocol}://${found.site.hostname ?? ctx.hostname}` };
}

/** Query parameters that carry a visitor's credentials, and the cookies they move into. */
const credentials = { share: 'quire_share', preview: 'quire_preview', jwt_token: 'quire_visitor' } as const;

/**
 * A share key, site preview key or visitor token in the URL is moved into an httpOnly cookie
 * scoped to the site, and the visitor sent to the same URL without it: the secret stays out of
 * history, bookmarks, logs and Referer headers.
 */
function moveCredentialsToCookies(ctx: AppContext, siteBasePath: string): boolean {
  const query = new URLSearchParams(ctx.querystring);
  const carried = Object.keys(credentials).filter((name) => query.has(name)) as Array<keyof typeof credentials>;
  if (carried.length === 0) return false;
  for (const name of carried) {
    keepCredential(ctx, name, query.get(name) ?? '', siteBasePath);
    query.delete(name);
  }
  ctx.set('Cache-Control', 'no-store');
  ctx.redirect(`${onThisSite(ctx.path)}${query.size ? `?${query}` : ''}`);
  return true;
}

/** A path to redirect to on this host: `//evil.example` would be another host's (a protocol-relative URL). */
const onThisSite = (path: string) => `/${path.replace(/^\/+/, '')}`;

/**
 * A share key given as the path's first segment (GitBook's form, which its renderer needs) is
 * moved into the cookie too, and the reader sent to the same page without it: this renderer's
 * links and assets hang off the site's base.
 */
async function moveShareKeyToCookie(ctx: AppContext, { siteBasePath, origin }: SiteAddress): Promise<boolean> {
  const [first = '', ...rest] = ctx.path.slice(siteBasePath.length).split('/');
  if (!looksLikeShareKey(first)) return false;
  const key = await shareKeyInPath(contentDeps(ctx), `${origin}${ctx.path}`, ctx.urls.base);
  if (!key) return false;
  keepCredential(ctx, 'share', key, siteBasePath);
  ctx.set('Cache-Control', 'no-store');
  ctx.redirect(`${onThisSite(`${siteBasePath}${rest.join('/')}`)}${ctx.querystring ? `?${ctx.querystring}` : ''}`);
  return true;
}

const keepCredential = (ctx: AppContext, name: keyof typeof credentials, value: string, siteBasePath: string) =>
  ctx.cookies.set(credentials[name], value, { path: siteBasePath, httpOnly: true, sameSite: 'lax', secure: ctx.protocol === 'https', overwrite: true });

/** The URL resolvePublishedUrl reads for a path of the site, the visitor's credentials (cookies, or the query an MCP client keeps) put back as the parameters they came as. */
function lookupUrl(ctx: AppContext, origin: string, path: string): string {
  const url = new URL(path, origin);
  for (const name of ['share', 'preview'] as const) {
    const value = ctx.cookies.get(credentials[name]) ?? new URLSearchParams(ctx.querystring).get(name);
    if (value) url.searchParams.set(name, value);
  }
  return url.toString();
}

const visitorOf = (ctx: AppContext) => {
  const jwt = ctx.cookies.get(credentials.jwt_token) ?? new URLSearchParams(ctx.querystring).get('jwt_token') ?? undefined;
  return jwt ? { jwt, redirectOnError: true } : {};
};

const activeTypes = /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|text\/javascript|application\/javascript)\b/;

const siteFiles = new Set(['llms.txt', 'llms-full.txt', 'sitemap.xml', 'robots.txt']);

async function serve(ctx: AppContext, { siteBasePath, origin }: Omit<SiteAddress, 'siteId'>, rest: string) {
  if (rest.startsWith('~assets/')) return serveAsset(ctx, rest.slice('~assets/'.length));
  const deps = contentDeps(ctx);
  const lookup = (path: string) => readPublishedPage(deps, { url: lookupUrl(ctx, origin, path), publicBase: ctx.urls.base, visitor: visitorOf(ctx) });
  if (siteFiles.has(rest) || rest === '~search' || rest === '~search.json' || rest === '~ask' || rest === '~mcp' || rest.startsWith('~files/')) {
    const root = await lookup(siteBasePath);
    if ('redirect' in root) return redirect(ctx, root);
    if (rest === '~mcp') return serveSiteMcp(ctx, { root, origin, lookupUrl: (path) => lookupUrl(ctx, origin, path), visitor: visitorOf(ctx) });
    if (rest.startsWith('~files/')) return serveFile(ctx, root, rest.slice('~files/'.length));
    if (rest === '~search' || rest === '~search.json') return serveSearch(ctx, root, rest.endsWith('.json'));
    if (rest === '~ask') return serveAsk(ctx, root);
    return serveSiteFile(ctx, root, rest, origin);
  }
  const wantsMarkdown = rest.endsWith('.md') || ctx.accepts('text/html', 'text/markdown') === 'text/markdown';
  const pagePath = rest.endsWith('.md') ? ctx.path.slice(0, -'.md'.length).replace(/\/index$/, '/') : ctx.path;
  const view = await lookup(pagePath);
  if ('redirect' in view) return redirect(ctx, view);
  ctx.vary('Accept');
  cacheHeaders(ctx, view);
  if (!view.page) {
    ctx.status = 404;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = notFoundHtml(view);
    return;
  }
  ctx.set('Link', `<${siteBasePath}llms.txt>; rel="llms-txt"`);
  if (wantsMarkdown) return send(ctx, 'text/markdown; charset=utf-8', markdownTwin(view.page));
  const page = { ...view, page: view.page };
  try {
    await sendRendered(ctx, 'text/html; charset=utf-8', renderedKey(page), async () => renderPublishedPage(page, await readPublishedDocument(deps, page, page.page)));
  } catch (error) {
    if (!isWorkTooCostly(error)) throw error;
    // Past the pool's time limit: the page's frame and a link to its markdown, not kept (a busy moment may have caused it).
    ctx.remove('Content-Encoding');
    ctx.remove('ETag');
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 200;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = tooLargePageHtml(page);
  }
}

function redirect(ctx: AppContext, to: PublishedRedirect) {
  ctx.set('Cache-Control', 'no-store');
  ctx.redirect(to.redirect);
  if (to.status) ctx.status = to.status;
}

/**
 * Rendered pages: a page depends on its own markdown (its blob), on what the revision's other
 * pages, files and reusable contents look like from it (titles, paths, kinds: the sidebar, links,
 * previous/next), on when it last changed, and on the frame around it (the path it is shown under,
 * the visitor's claims, the site's structure and customization, the organization's OpenAPI
 * versions its blocks are drawn from). Not on the commit: a merge that
 * changes one page's text renders that page again, and no other.
 */
const renderedPages = new EncodedCache('rendered site pages');

function renderedKey(view: PublishedPageView & { page: RevisionPage }): string {
  const { place } = view;
  const frame = JSON.stringify([
    place.basePath,
    place.claims,
    place.site.visibility,
    place.site.title,
    place.preview ?? null,
    place.sitePreview ? 1 : 0,
    view.customization,
    view.siteSpaces,
    view.structure.sections.map((section) => [section.id, section.title]),
    view.openapi.map((spec) => spec.versionId),
  ]);
  return `${place.siteSpace.spaceId}:${view.page.id}:${view.page.oid}:${revisionShape(view.revision)}:${view.updatedAt?.getTime() ?? ''}:${createHash('sha1').update(frame).digest('base64url')}`;
}

/** A cached body, compressed as the client accepts, its ETag derived from its key: a matching revalidation answers 304 before anything is rendered. */
async function sendRendered(ctx: AppContext, type: string, key: string, render: () => Promise<string>) {
  ctx.type = type;
  ctx.status = 200;
  ctx.vary('Accept-Encoding');
  // Weak: the same page in another encoding is another byte sequence, but the same page.
  ctx.etag = `W/"${createHash('sha1').update(key).digest('base64url')}"`;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  const encoding = (ctx.acceptsEncodings('br', 'gzip', 'identity') || 'identity') as ContentEncoding;
  if (encoding !== 'identity') ctx.set('Content-Encoding', encoding);
  ctx.body = await renderedPages.get(key, encoding, render);
}

/** Who may keep a copy: shared caches for a public site's published content; nobody for what credentials unlocked. */
function cacheHeaders(ctx: AppContext, view: Pick<PublishedPageView, 'place'>) {
  const { place } = view;
  const personal = place.site.visibility !== 'public' && place.site.visibility !== 'unlisted';
  ctx.set('Cache-Control', personal || place.sitePreview || place.preview ? 'private, no-store' : 'public, max-age=0, must-revalidate');
  if (!isIndexable(view)) ctx.set('X-Robots-Tag', 'noindex, nofollow');
  ctx.set(
    'Content-Security-Policy',
    // A preview may be framed by this site's own pages (the app's live preview of a customization); nothing else is.
    `default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; form-action 'self'; base-uri 'none'; frame-ancestors ${place.sitePreview ? "'self'" : "'none'"}`,
  );
}

/** A reader who asked not to be tracked (Do Not Track, Global Privacy Control) is counted nowhere. */
const asksNotToBeTracked = (ctx: AppContext) => ctx.get('dnt') === '1' || ctx.get('sec-gpc') === '1';

/** An event the server itself sees (a search, a question), counted as the site's script counts its own. */
function countOnServer(ctx: AppContext, root: PublishedPageView, event: Omit<SiteEvent, 'siteSpace'>) {
  if (asksNotToBeTracked(ctx)) return;
  ctx.insights.record(countsOf(root.place.site.id, [{ ...event, url: ctx.path, siteSpace: root.place.siteSpace.id }]));
}

const readerEvents = new Set(['page_view', 'search_open_result', 'link_click']);
const anId = (value: unknown) => (typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : undefined);

/**
 * `POST <site>/~insights`: what the sites' script reports (a page read, a result or a link
 * followed), as `navigator.sendBeacon` sends it: counted for a published site, nothing kept about
 * the reader; 204 whatever happens to it, as a beacon reads no answer.
 */
async function countReaderEvent(ctx: AppContext, address: SiteAddress) {
  if (ctx.method !== 'POST') {
    ctx.status = 405;
    ctx.set('Allow', 'POST');
    return;
  }
  await jsonBody({ limitBytes: 4096 })(ctx, async () => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const site = await findSiteByIdCached(ctx.db, address.siteId);
    if (typeof body.type !== 'string' || !readerEvents.has(body.type)) throw badRequest(`"type" must be one of ${[...readerEvents].join(', ')}`);
    if (site?.published && !asksNotToBeTracked(ctx)) {
      const detail =
        body.type === 'page_view'
          ? referrerHost(typeof body.referrer === 'string' ? body.referrer : undefined)
          : typeof body.query === 'string'
            ? searchWords(body.query)
            : typeof body.href === 'string'
              ? body.href.slice(0, 512)
              : '';
      // Only what is the site's own is counted: its paths, its spaces' pages (anyone may send a beacon).
      const path = typeof body.path === 'string' && body.path.startsWith(address.siteBasePath) ? body.path.slice(0, 512) : '';
      const reading = await pageOfSite(contentDeps(ctx), site.id, anId(body.space), anId(body.page));
      if (body.type !== 'page_view' || reading) {
        const target = body.type === 'page_view' ? detail : detail.startsWith(address.siteBasePath) || body.type === 'search_open_result' ? detail : '';
        ctx.insights.record(countsOf(site.id, [{ type: body.type as SiteEvent['type'], url: path, space: reading?.space, page: reading?.page, detail: target }]));
        // The visitor segments: no cookie is set, so a reader is their address and browser, a session their day; only sketched, never kept.
        if (body.type === 'page_view') {
          const reader = `${ctx.ip}|${ctx.get('user-agent')}`;
          ctx.insights.recordVisits([{ siteId: site.id, day: new Date().toISOString().slice(0, 10), claims: {}, visitor: reader, session: `${reader}|${new Date().toISOString().slice(0, 10)}` }]);
        }
      }
    }
    ctx.status = 204;
  });
}

/** A body with an ETag: a revalidation that matches answers 304 without it. */
function send(ctx: AppContext, type: string, body: string) {
  ctx.type = type;
  ctx.status = 200;
  ctx.etag = createHash('sha1').update(body).digest('base64url');
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = body;
}

/** The sites' own assets, named by their content's hash (cached for good), compressed once as they load. */
const assets = new Map(siteAssets.map((asset) => [asset.name, { type: asset.type, bodies: encodedOnce(asset.body) }]));

function serveAsset(ctx: AppContext, name: string) {
  const asset = assets.get(name);
  if (!asset) throw new DomainError('not_found', `No asset ${name}`);
  ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
  ctx.vary('Accept-Encoding');
  ctx.type = asset.type;
  const encoding = (ctx.acceptsEncodings('br', 'gzip', 'identity') || 'identity') as ContentEncoding;
  if (encoding !== 'identity') ctx.set('Content-Encoding', encoding);
  ctx.body = asset.bodies[encoding];
}

async function serveSiteFile(ctx: AppContext, root: PublishedPageView, name: string, origin: string) {
  cacheHeaders(ctx, root);
  if (name === 'robots.txt') return send(ctx, 'text/plain; charset=utf-8', robotsTxt(root, origin));
  const listings = await publishedRevisions(contentDeps(ctx), root);
  if (name === 'llms.txt') return send(ctx, 'text/plain; charset=utf-8', llmsTxt(root, listings, origin));
  if (name === 'sitemap.xml') return send(ctx, 'application/xml; charset=utf-8', sitemapXml(root, listings, origin));
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = Readable.from(llmsFullTxt(root, listings, origin));
}

/** `~files/<spaceId>/<blob id>/<name>`: a file of a site space the visitor sees, from its published revision. */
async function serveFile(ctx: AppContext, root: PublishedPageView, rest: string) {
  const [spaceId = '', oid = ''] = rest.split('/');
  const previewed = root.place.siteSpace.spaceId === spaceId ? root.revision : undefined;
  const shown = previewed ?? (root.siteSpaces.some((siteSpace) => siteSpace.spaceId === spaceId) ? await readSpaceRevision(contentDeps(ctx), spaceId) : undefined);
  const file = shown?.files.find((candidate) => candidate.oid === oid);
  if (!file) throw new DomainError('not_found', `No file ${oid}`);
  cacheHeaders(ctx, root);
  if (ctx.response.get('Cache-Control').startsWith('public')) ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
  const contentType = mime.lookup(file.name) || 'application/octet-stream';
  // A file that a browser would run (HTML, SVG, scripts) is never shown inline from the site's origin.
  ctx.set('Content-Disposition', `${activeTypes.test(contentType) && !contentType.startsWith('image/') ? 'attachment' : 'inline'}; filename*=UTF-8''${encodeURIComponent(file.name)}`);
  ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  ctx.type = contentType;
  ctx.body = Buffer.from(await readSpaceFile(contentDeps(ctx), spaceId, file.oid));
}

/** The question page: the answer drawn from the site spaces the visitor sees, never cached. */
async function serveAsk(ctx: AppContext, root: PublishedPageView) {
  const question = String(ctx.query.q ?? '')
    .slice(0, 512)
    .trim();
  const answer = question ? await answerOnSite(contentDeps(ctx), root.place.site, root.siteSpaces, question) : undefined;
  if (answer) countOnServer(ctx, root, { type: 'ask_question', detail: searchWords(question), results: answer.sources.length });
  // The question and its answer kept for the site's editors (listSiteQuestions), unless the reader asks not to be tracked.
  if (answer && !asksNotToBeTracked(ctx)) await recordSiteAnswer(ctx.db, { siteId: root.place.site.id, question, answer, channel: 'site' });
  cacheHeaders(ctx, root);
  // An answer may cost a model's call: each one is the asker's alone, kept by nobody.
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Robots-Tag', 'noindex');
  send(ctx, 'text/html; charset=utf-8', askHtml(root, question, answer));
}

async function serveSearch(ctx: AppContext, root: PublishedPageView, asJson: boolean) {
  const query = String(ctx.query.q ?? '').slice(0, 512);
  const found = query.trim() ? await searchPublishedSite(contentDeps(ctx), root.siteSpaces, query, asJson ? 60 : 200) : [];
  // A submitted search is counted, with what it found; the results shown as the visitor types are not (each keystroke's).
  if (!asJson && query.trim()) countOnServer(ctx, root, { type: 'search_type_query', detail: searchWords(query), results: found.length });
  cacheHeaders(ctx, root);
  ctx.set('X-Robots-Tag', 'noindex');
  if (asJson) return void (ctx.body = searchResultsJson(root, found));
  send(ctx, 'text/html; charset=utf-8', searchResultsHtml(root, query, found));
}
