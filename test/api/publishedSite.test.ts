import http from 'node:http';
import { SignJWT } from 'jose';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { siteMaker } from '../helpers/sites.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('published sites: Quire renders them for readers, crawlers and agents');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
});

const sites = () => `/v1/orgs/${fx.org.id}/sites`;

const { space, publishedSite } = siteMaker(() => ({ t, fx }));

/** Changes made through a change request, merged. */
async function merged(spaceId: string, changes: unknown[]) {
  const changeRequest = (await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: fx.admin.token, body: { subject: 'Edit' } })).body;
  const written = await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content`, { token: fx.admin.token, body: { changes } });
  assert.ok(written.status < 300, JSON.stringify(written.body));
  const merge = await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/merge`, { token: fx.admin.token });
  assert.is(merge.body.result, 'merge', JSON.stringify(merge.body));
}

/** A reader's request: no API token, redirects not followed. */
async function visit(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(new URL(url, t.url), { headers, redirect: 'manual' });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

type ParsedElement = DefaultTreeAdapterMap['element'];

/** Every element of a parsed page, as a browser would build them. */
function elementsOf(node: DefaultTreeAdapterMap['parentNode']): ParsedElement[] {
  return node.childNodes.flatMap((child) => ('tagName' in child ? [child, ...elementsOf('content' in child ? (child as DefaultTreeAdapterMap['template']).content : child)] : []));
}

const links = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!.replace(/&#x26;|&amp;/g, '&'));

test('the published URL shows the site: its first page from its Document, the sidebar, the outline; every sidebar link leads to a rendered page', async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Acme docs', [guide.id]);
  const home = await visit(site.urls.published);
  assert.is(home.status, 200, home.body);
  assert.match(home.headers.get('content-type') ?? '', 'text/html');
  assert.match(home.body, /^<!doctype html><html lang="en">/);
  assert.match(home.body, '<title>Introduction | Acme docs</title>');
  assert.match(home.body, '<h1>Introduction</h1>');
  assert.match(home.body, '<meta name="description" content="What this documentation covers">');
  assert.match(home.body, /<aside class="hint hint-info"|<a href="[^"]*quick-start">quick start<\/a>/);
  const base = new URL(site.urls.published).pathname;
  assert.ok(links(home.body).includes(`${base}quick-start`), 'the page links to the quick start by its URL on the site');
  assert.ok(links(home.body).includes(`${base}quick-start/configuration`), 'the sidebar lists nested pages');
  assert.match(home.body, /<img src="[^"]*~files\/[^"]*logo\.png" alt="[^"]*" width="\d+" height="\d+" loading="lazy"/, 'images carry their size');

  for (const href of new Set(links(home.body).filter((href) => href.startsWith(base) && !href.includes('~search')))) {
    const page = await visit(href);
    assert.is(page.status, 200, `${href}: ${page.status}`);
  }
  const faq = await visit(`${base}faq`);
  assert.match(faq.body, '<h2 id="where-do-i-start"><a href="#where-do-i-start" class="anchor">Where do I start?</a></h2>');
  assert.match(faq.body, /<a href="[^"]*faq" aria-current="page">FAQ<\/a>/);
  assert.match(faq.body, /rel="prev"/);
  assert.match(faq.body, /<p class="updated">Last updated <time datetime="\d{4}-\d\d-\d\dT[^"]+">[^<]+<\/time><\/p>/);
  assert.match((await visit(`${base}quick-start`)).body, '<meta name="description" content="It takes five minutes.">', "without a description of its own, the first paragraph's start");
  const configuration = await visit(`${base}quick-start/configuration`);
  assert.match(configuration.body, /<nav class="breadcrumbs"[^>]*><ol><li><a href="[^"]*quick-start">Quick start<\/a><\/li><\/ol><\/nav>/);
  assert.match(configuration.body, '<code class="language-yaml"><span class="hljs-attr">port:</span> <span class="hljs-number">3000</span></code>', 'code highlighted on the server');
  const stylesheet = /<link rel="stylesheet" href="([^"]+)">/.exec(home.body)![1]!;
  const css = await visit(stylesheet);
  assert.is(css.status, 200);
  assert.match(css.headers.get('cache-control') ?? '', 'immutable');
  const image = /<img src="([^"]+)"/.exec(home.body)![1]!;
  const bytes = await visit(image);
  assert.is(bytes.status, 200);
  assert.is(bytes.headers.get('content-type'), 'image/png');
});

test('a page revalidates with its ETag; the site root without a slash redirects; an unknown page is a 404 page with search; an unpublished site answers nothing', async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Docs', [guide.id]);
  const first = await visit(site.urls.published);
  const etag = first.headers.get('etag')!;
  assert.ok(etag);
  assert.match(first.headers.get('cache-control') ?? '', 'must-revalidate');
  // A browser's revalidation (fetch would add `no-cache`, which asks for a full answer).
  const again = await visit(site.urls.published, { 'if-none-match': etag, 'cache-control': 'max-age=0' });
  assert.is(again.status, 304);
  const siteSpace = (await t.call('GET', `${sites()}/${site.id}/site-spaces`, { token: fx.admin.token })).body.items[0].id as string;
  const pages = (await t.call('GET', `/v1/spaces/${guide.id}/content/pages`, { token: fx.admin.token })).body.pages as Array<{ id: string; path: string; pages: Array<{ id: string; path: string }> }>;
  const configuration = pages.flatMap((page) => [page, ...page.pages]).find((page) => page.path === 'quick-start/configuration')!;
  const redirect = await t.call('POST', `${sites()}/${site.id}/redirects`, {
    token: fx.admin.token,
    body: { source: '/setup', destination: { kind: 'site-page', siteSpaceId: siteSpace, pageId: configuration.id } },
  });
  assert.is(redirect.status, 201, JSON.stringify(redirect.body));
  const moved = await visit(`${site.urls.published}setup`);
  assert.is(moved.status, 302, "the site's redirect list sends an old path on");
  assert.is(moved.headers.get('location'), `${site.urls.published}quick-start/configuration`);
  const bare = await visit(site.urls.published.replace(/\/$/, ''));
  assert.is(bare.status, 302);
  assert.is(bare.headers.get('location'), new URL(site.urls.published).pathname);
  const missing = await visit(`${site.urls.published}no/such/page`);
  assert.is(missing.status, 404);
  assert.match(missing.body, '<h1>Page not found</h1>');
  assert.match(missing.body, /<form role="search" method="get" action="[^"]*~search" aria-label="Search the pages">/);
  assert.is((await t.call('POST', `${sites()}/${site.id}/unpublish`, { token: fx.admin.token })).status, 200);
  assert.is((await visit(site.urls.published)).status, 404);
  assert.is((await visit(`${site.urls.published}llms.txt`)).status, 404);
});

test("a merge that changes one page's text renders that page again and no other (the others keep their ETag)", async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Docs', [guide.id]);
  const etagOf = async (path: string) => (await visit(`${site.urls.published}${path}`)).headers.get('etag');
  const before = { faq: await etagOf('faq'), quickStart: await etagOf('quick-start'), home: await etagOf('') };
  const pages = (await t.call('GET', `/v1/spaces/${guide.id}/content/pages`, { token: fx.admin.token })).body.pages as Array<{ id: string; path: string }>;
  const faq = pages.find((page) => page.path === 'faq')!;
  await merged(guide.id, [{ operation: 'update_page', page: faq.id, document: { markdown: '## Where do I start?\n\nWith the [introduction](README.md), then the quick start.\n' } }]);
  assert.match((await visit(`${site.urls.published}faq`)).body, 'then the quick start');
  assert.is.not(await etagOf('faq'), before.faq);
  assert.is(await etagOf('quick-start'), before.quickStart);
  assert.is(await etagOf(''), before.home);
});

test('steppers, expandables, math (as MathML), Mermaid (as code), cards, and an OpenAPI block whose spec the organization lacks', async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Rich', [guide.id]);
  const pages = (await t.call('GET', `/v1/spaces/${guide.id}/content/pages`, { token: fx.admin.token })).body.pages as Array<{ id: string; path: string }>;
  const faq = pages.find((page) => page.path === 'faq')!;
  const markdown = [
    'Energy: $$E = mc^2$$, for $5.',
    '$$\n\\frac{a}{b}\n$$',
    '{% stepper %}\n{% step %}\n### Install\n\nRun it.\n{% endstep %}\n\n{% step %}\n### Start\n\nOpen it.\n{% endstep %}\n{% endstepper %}',
    '<details>\n\n<summary>Why &amp; how</summary>\n\nHidden **text**.\n\n</details>',
    '```mermaid\ngraph TD; A-->B\n```',
    '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td><strong>Quick</strong> start</td><td><a href="quick-start.md">quick-start.md</a></td></tr><tr><td>Nowhere</td><td><a href="javascript:alert(1)">x</a></td></tr></tbody></table>',
    '{% openapi-operation spec="unknown" path="/pets" method="get" %}\n{% endopenapi-operation %}',
  ].join('\n\n');
  await merged(guide.id, [{ operation: 'update_page', page: faq.id, document: { markdown } }]);
  const page = (await visit(`${site.urls.published}faq`)).body;
  assert.match(
    page,
    /<p>Energy: <span class="math-formula"><span class="katex"><math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML">.*?<annotation encoding="application\/x-tex">E = mc\^2<\/annotation>.*?, for \$5\.<\/p>/,
  );
  assert.match(page, /<div class="math"><span class="math-formula"><span class="katex"><math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML" display="block"><semantics><mrow><mfrac>/);
  assert.match(page, /<ol class="stepper"><li><h2 id="install">.*?<\/li><li><h2 id="start">.*?Open it\.<\/p><\/li><\/ol>/);
  assert.match(page, /<details class="expandable"><summary>Why &#x26; how<\/summary><p>Hidden <strong>text<\/strong>\.<\/p><\/details>/);
  assert.match(page, /<code class="language-mermaid">graph TD; A-->B<\/code>/);
  const base = new URL(site.urls.published).pathname;
  assert.match(
    page,
    `<div class="cards cards-medium"><a class="cards-card" href="${base}quick-start"><div class="card-body"><div>Quick start</div></div></a><div class="cards-card"><div class="card-body"><div>Nowhere</div></div></div></div>`,
  );
  assert.match(page, '<p class="card openapi">GET /pets</p>', 'an unknown spec leaves the operation named, not drawn');
  assert.not.match(page, 'javascript:');
});

test('agents: a .md twin of every page, text/markdown on the page URL, llms.txt, llms-full.txt; crawlers: robots.txt and sitemap.xml', async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Docs', [guide.id]);
  const base = site.urls.published;
  const twin = await visit(`${base}quick-start.md`);
  assert.is(twin.status, 200);
  assert.match(twin.headers.get('content-type') ?? '', 'text/markdown');
  assert.match(twin.body, /^# Quick start\n\n\{% hint style="info" %\}/);
  const negotiated = await visit(`${base}quick-start`, { accept: 'text/markdown' });
  assert.is(negotiated.body, twin.body);
  assert.match(negotiated.headers.get('vary') ?? '', 'Accept');
  assert.match((await visit(`${base}quick-start`)).headers.get('link') ?? '', 'rel="llms-txt"');
  assert.match((await visit(`${base}index.md`)).body, /^# Introduction\n\nWelcome!/);

  const llms = await visit(`${base}llms.txt`);
  assert.is(llms.status, 200);
  assert.match(llms.body, /^# Docs\n/);
  assert.match(llms.body, `- [Introduction](${base}index.md): What this documentation covers`);
  const lines = llms.body.split('\n').filter((line) => line.startsWith('- '));
  assert.is(lines.length, 4);
  for (const line of lines) {
    const url = /\]\(([^)]+)\)/.exec(line)![1]!;
    assert.is((await visit(url)).status, 200, url);
  }
  const full = await visit(`${base}llms-full.txt`);
  assert.match(full.body, '# Configuration\n\nEvery setting lives in one file.');
  const robots = await visit(`${base}robots.txt`);
  assert.is(robots.body, `User-agent: *\nAllow: /\n\nSitemap: ${base}sitemap.xml\n`);
  const sitemap = await visit(`${base}sitemap.xml`);
  assert.is((sitemap.body.match(/<loc>/g) ?? []).length, 4);
  assert.match(sitemap.body, `<loc>${base}quick-start/configuration</loc>`);
});

test('search works without script: a form GET to the site search page lists pages and sections found', async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Docs', [guide.id]);
  const found = await visit(`${site.urls.published}~search?q=setting`);
  assert.is(found.status, 200);
  assert.match(found.body, '1 page found for “setting”.');
  assert.match(found.body, /<a href="[^"]*quick-start\/configuration">Configuration<\/a>/);
  assert.match(found.headers.get('x-robots-tag') ?? '', 'noindex');
  const none = await visit(`${site.urls.published}~search?q=zzzzqqq`);
  assert.match(none.body, 'Nothing found for “zzzzqqq”.');
});

test('an unlisted site is not indexed; a share-link site needs its key (a parameter, or the first path segment), which moves into a cookie scoped to the site; a revoked link stops it', async () => {
  const guide = await space('Guide');
  const unlisted = await publishedSite('Unlisted', [guide.id], 'unlisted');
  const page = await visit(unlisted.urls.published);
  assert.is(page.status, 200);
  assert.match(page.body, '<meta name="robots" content="noindex, nofollow">');
  assert.match(page.headers.get('x-robots-tag') ?? '', 'noindex');
  assert.is((await visit(`${unlisted.urls.published}robots.txt`)).body, 'User-agent: *\nDisallow: /\n');
  assert.not.match((await visit(`${unlisted.urls.published}sitemap.xml`)).body, '<loc>');

  const site = await publishedSite('Partners', [guide.id], 'share-link');
  assert.is((await visit(site.urls.published)).status, 404);
  const link = await t.call('POST', `${sites()}/${site.id}/share-links`, { token: fx.admin.token, body: { name: 'Partners' } });
  const shared = new URL(link.body.urls.published as string);
  shared.pathname += 'faq';
  const handed = await visit(shared.toString());
  assert.is(handed.status, 302);
  const location = handed.headers.get('location')!;
  assert.not.match(location, 'share=');
  assert.is(location, shared.pathname);
  const cookie = handed.headers.get('set-cookie')!;
  assert.match(cookie, `path=/sites/${site.id}/`);
  assert.match(cookie, 'httponly');
  const withCookie = await visit(location, { cookie: cookie.split(';')[0]! });
  assert.is(withCookie.status, 200);
  assert.match(withCookie.headers.get('cache-control') ?? '', 'private, no-store');
  assert.match(withCookie.body, '<meta name="robots" content="noindex, nofollow">');
  // GitBook's form, the key as the first path segment: into the cookie too, then the same page without it.
  const key = shared.searchParams.get('share')!;
  const inPath = await visit(`${shared.pathname.replace(/faq$/, '')}${key}/faq?utm=x`);
  assert.equal([inPath.status, inPath.headers.get('location')], [302, `${shared.pathname}?utm=x`]);
  assert.is(inPath.headers.get('set-cookie')!.split(';')[0], cookie.split(';')[0]);
  assert.is((await visit(`${shared.pathname.replace(/faq$/, '')}not-a-key/faq`)).status, 404);
  assert.match(
    (await visit(`${shared.pathname.replace(/faq$/, '')}${key}//evil.example.com/x`)).headers.get('location') ?? '',
    new RegExp(`^${shared.pathname.replace(/faq$/, '')}/`),
    'on this site, never another host',
  );
  await t.call('PATCH', `${sites()}/${site.id}/share-links/${link.body.id}`, { token: fx.admin.token, body: { active: false } });
  assert.is((await visit(location, { cookie: cookie.split(';')[0]! })).status, 404);
  assert.is((await visit(`${shared.pathname.replace(/faq$/, '')}${key}/faq`)).status, 404, 'a revoked key in the path is no key');
});

test("a site preview URL shows the site's change requests and revisions on the site itself, not indexed nor cached; without it they are not there", async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Previewed', [guide.id]);
  const pages = (await t.call('GET', `/v1/spaces/${guide.id}/content/pages`, { token: fx.admin.token })).body.pages as Array<{ id: string; path: string }>;
  const changeRequest = (await t.call('POST', `/v1/spaces/${guide.id}/change-requests`, { token: fx.admin.token, body: { subject: 'Draft' } })).body;
  const changes = [{ operation: 'update_page', page: pages.find((page) => page.path === 'faq')!.id, document: { markdown: 'Draft answers, not merged yet.\n' } }];
  assert.is((await t.call('POST', `/v1/spaces/${guide.id}/change-requests/${changeRequest.id}/content`, { token: fx.admin.token, body: { changes } })).status, 200);
  const draft = `${site.urls.published}~/changes/${changeRequest.number}/faq`;
  assert.is((await visit(draft)).status, 404, 'no change request for an anonymous visitor');
  assert.not.match((await visit(`${site.urls.published}faq`)).body, 'Draft answers');

  const previewUrl = new URL((await t.call('GET', `${sites()}/${site.id}/publishing/preview`, { token: fx.admin.token })).body.url as string);
  const key = previewUrl.searchParams.get('preview')!;
  const handed = await visit(`${draft}?preview=${key}`);
  assert.is(handed.status, 302);
  const cookie = handed.headers.get('set-cookie')!.split(';')[0]!;
  const shown = await visit(draft, { cookie });
  assert.is(shown.status, 200, shown.body);
  assert.match(shown.body, 'Draft answers, not merged yet.');
  assert.match(shown.headers.get('cache-control') ?? '', 'private, no-store');
  assert.match(shown.headers.get('x-robots-tag') ?? '', 'noindex');
  assert.match(shown.body, '<meta name="robots" content="noindex');
  const base = new URL(site.urls.published).pathname;
  assert.ok(links(shown.body).includes(`${base}~/changes/${changeRequest.number}/quick-start`), 'its links stay in the preview');
  const revision = (await t.call('GET', `/v1/spaces/${guide.id}`, { token: fx.admin.token })).body.revision as string;
  assert.is((await visit(`${site.urls.published}~/revisions/${revision}/faq`, { cookie })).status, 200);
  assert.is((await visit(`${site.urls.published}~/revisions/${'0'.repeat(40)}/faq`, { cookie })).status, 404);
});

test('a visitor-auth site sends visitors to sign in, takes their JWT into a cookie, and shows what their claims allow', async () => {
  const guide = await space('Guide');
  const staffOnly = await space('Staff handbook');
  const site = await publishedSite('Private docs', [guide.id], 'visitor-auth');
  const added = await t.call('POST', `${sites()}/${site.id}/site-spaces`, { token: fx.admin.token, body: { spaceId: staffOnly.id } });
  await t.call('PATCH', `${sites()}/${site.id}/site-spaces/${added.body.id}`, { token: fx.admin.token, body: { condition: 'visitor.claims.role == "staff"', path: 'staff' } });
  const auth = await t.call('PATCH', `${sites()}/${site.id}/publishing/auth`, { token: fx.admin.token, body: { backend: 'custom', fallbackURL: 'https://login.example.com/sso' } });
  const sign = (claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(auth.body.privateKey as string));

  const anonymous = await visit(`${site.urls.published}faq`);
  assert.is(anonymous.status, 302);
  assert.is(anonymous.headers.get('location'), 'https://login.example.com/sso?location=%2Ffaq');

  const cookieFor = async (claims: Record<string, unknown>) => {
    const handed = await visit(`${site.urls.published}?jwt_token=${await sign(claims)}`);
    assert.is(handed.status, 302);
    assert.is(handed.headers.get('location'), new URL(site.urls.published).pathname, 'the token leaves the URL');
    return handed.headers.get('set-cookie')!.split(';')[0]!;
  };
  const staff = await cookieFor({ role: 'staff' });
  const staffHome = await visit(site.urls.published, { cookie: staff });
  assert.is(staffHome.status, 200);
  assert.match(staffHome.headers.get('cache-control') ?? '', 'private, no-store');
  assert.match(staffHome.body, `<a href="${new URL(site.urls.published).pathname}staff/">Staff handbook</a>`, 'the variant their claims allow');
  assert.is((await visit(`${site.urls.published}staff/`, { cookie: staff })).status, 200);

  const reader = await cookieFor({ role: 'reader' });
  const readerHome = await visit(site.urls.published, { cookie: reader });
  assert.is(readerHome.status, 200);
  assert.not.match(readerHome.body, 'Staff handbook');
  assert.is((await visit(`${site.urls.published}staff/`, { cookie: reader })).status, 404);
  assert.not.match((await visit(`${site.urls.published}llms.txt`, { cookie: reader })).body, 'staff');
  assert.is((await visit(site.urls.published, { cookie: 'quire_visitor=not.a.jwt' })).status, 302, 'a wrong token: back to sign in');
});

/** A request as a browser on another host name sends it (fetch won't let a caller set Host). */
function visitAs(host: string, pathname: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const server = new URL(t.url);
  return new Promise((resolve, reject) => {
    http
      .get({ host: server.hostname, port: server.port, path: pathname, headers: { host } }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      })
      .on('error', reject);
  });
}

test("a site with its own hostname is served at that host's root, its links and listings on that host; the API stays the API there", async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Docs', [guide.id]);
  const hostname = `docs-${site.id.toLowerCase()}.example.com`;
  const patched = await t.call('PATCH', `${sites()}/${site.id}`, { token: fx.admin.token, body: { hostname } });
  assert.is(patched.status, 200, JSON.stringify(patched.body));
  const home = await visitAs(hostname, '/');
  assert.is(home.status, 200);
  assert.match(home.body, '<h1>Introduction</h1>');
  assert.ok(links(home.body).includes('/quick-start/configuration'), 'links are paths of the hostname');
  assert.is((await visitAs(hostname, '/faq')).status, 200);
  assert.match((await visitAs(hostname, '/llms.txt')).body, `- [FAQ](http://${hostname}/faq.md)`);
  assert.is((await visitAs(hostname, '/v1/')).headers['content-type']?.startsWith('application/json'), true);
  assert.is((await visitAs('unknown.example.com', '/faq')).status, 404);
  // A credential moved into its cookie sends the reader back on this host, never to `//another.host`.
  const moved = await visitAs(hostname, '//evil.example.com/x?share=abc');
  assert.is(moved.status, 302);
  assert.is(moved.headers.location, '/evil.example.com/x');
  // The site's own hostname makes its absolute URLs, whatever port the Host header names; a Host
  // header that is no hostname (`evil@docs…`, which a URL parser reads as docs…) shows no site.
  const ported = await visitAs(`${hostname}:6666`, '/faq');
  assert.is(ported.status, 200);
  assert.match(ported.body, `<link rel="canonical" href="http://${hostname}/faq">`);
  assert.not.match(ported.body, ':6666');
  assert.is((await visitAs(hostname, '/faq')).body, ported.body, 'the page the next reader gets is the same');
  assert.is((await visitAs(`evil.example@${hostname}`, '/faq')).status, 404);
});

test("hidden pages are found by no site search: not the search page, its JSON, nor the MCP server's tool", async () => {
  const guide = await space('Guide');
  await merged(guide.id, [{ operation: 'insert_page', title: 'Zanzibar internals', document: { markdown: '---\nhidden: true\n---\n\nZanzibar secrets nobody lists.\n' } }]);
  const site = await publishedSite('Docs', [guide.id]);
  assert.is((await visit(`${site.urls.published}zanzibar-internals`)).status, 200, 'the page itself still answers at its URL');
  assert.equal(JSON.parse((await visit(`${site.urls.published}~search.json?q=Zanzibar`)).body), []);
  assert.not.match((await visit(`${site.urls.published}~search?q=Zanzibar`)).body, 'Zanzibar internals');
  const client = new Client({ name: 'quire-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${site.urls.published}~mcp`)));
  try {
    const found = await client.callTool({ name: 'search', arguments: { query: 'Zanzibar' } });
    assert.not.match((found.content as Array<{ text: string }>)[0]!.text, 'Zanzibar internals');
  } finally {
    await client.close();
  }
  assert.equal(JSON.parse((await visit(`${site.urls.published}~search.json?q=configuration`)).body).length > 0, true, 'listed pages are still found');
});

test('nothing a writer types runs: titles, bodies, links and customization reach the page as text', async () => {
  const guide = await space('Guide');
  const payload = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
  await merged(guide.id, [
    {
      operation: 'insert_page',
      title: `Attack ${payload}`,
      document: {
        markdown: `# Attack\n\n${payload}\n\n[click](javascript:alert(3)) [data](data:text/html,<script>alert(4)</script>) <svg onload=alert(5)>\n\n![x](javascript:alert(6))\n\n| a |\n|---|\n| ${payload.replace(/\|/g, '')} |\n`,
      },
    },
  ]);
  const site = await publishedSite('Docs', [guide.id]);
  const current = (await t.call('GET', `${sites()}/${site.id}/customization`, { token: fx.admin.token })).body;
  const customized = await t.call('PUT', `${sites()}/${site.id}/customization`, {
    token: fx.admin.token,
    body: {
      ...current,
      title: `T ${payload}`.slice(0, 128),
      announcement: { enabled: true, message: `<script>alert(7)</script>`, style: 'info', link: { title: 'go', to: { kind: 'url', url: 'javascript:alert(8)' } } },
      footer: { groups: [], copyright: payload },
    },
  });
  assert.is(customized.status, 200, JSON.stringify(customized.body));
  const pages = [
    await visit(site.urls.published),
    ...(await Promise.all(
      links((await visit(site.urls.published)).body)
        .filter((href) => /attack/i.test(href))
        .map((href) => visit(href)),
    )),
  ];
  assert.ok(pages.length > 1, 'the attack page is listed');
  for (const page of pages) {
    assert.is(page.status, 200);
    const elements = elementsOf(parse(page.body));
    // The site's own deferred script is the one script element: from its assets, with nothing inline.
    const ownScript = (element: ParsedElement) =>
      element.nodeName === 'script' && element.childNodes.length === 0 && /\/~assets\/site-[0-9a-f]{12}\.js$/.test(element.attrs.find((attribute) => attribute.name === 'src')?.value ?? '');
    assert.equal(
      elements.filter((element) => ['script', 'svg', 'iframe', 'object'].includes(element.nodeName) && !ownScript(element)).map((element) => element.nodeName),
      [],
    );
    const attributes = elements.flatMap((element) => element.attrs);
    assert.equal(
      attributes.filter((attribute) => attribute.name.startsWith('on')),
      [],
    );
    assert.equal(
      attributes.filter((attribute) => ['href', 'src', 'action'].includes(attribute.name) && /^\s*(javascript|data|vbscript):/i.test(attribute.value)),
      [],
    );
    assert.match(page.body, '&#x3C;script>alert(1)&#x3C;/script>');
  }
});

test('a javascript: scheme hidden by a tab, a newline or a control character is no link either: in pages, embeds, swagger blocks and customization', async () => {
  const guide = await space('Guide');
  // As references in markdown (decoded in link targets), and as they are in a block's attributes.
  const markdown = [
    '# Hidden',
    '[tab](java&#9;script:alert(1)) [newline](java&#10;script:alert(2)) [control](&#1;javascript:alert(3)) [mixed](JaVa&#13;ScRiPt:alert(4))',
    '{% embed url="java\tscript:alert(5)" %}',
    '{% swagger src="java\tscript:alert(6)" path="/pets" method="get" %}\n{% swagger-description %}\nPets.\n{% endswagger-description %}\n{% endswagger %}',
  ].join('\n\n');
  await merged(guide.id, [{ operation: 'insert_page', title: 'Hidden', document: { markdown } }]);
  const site = await publishedSite('Docs', [guide.id]);
  const current = (await t.call('GET', `${sites()}/${site.id}/customization`, { token: fx.admin.token })).body;
  const customized = await t.call('PUT', `${sites()}/${site.id}/customization`, {
    token: fx.admin.token,
    body: { ...current, announcement: { enabled: true, message: 'Read this', style: 'info', link: { title: 'go', to: { kind: 'url', url: 'java\tscript:alert(7)' } } } },
  });
  assert.is(customized.status, 200, JSON.stringify(customized.body));
  const page = await visit(`${site.urls.published}hidden`);
  assert.is(page.status, 200);
  assert.match(page.body, 'Read this');
  // What a browser makes of each link: tabs and newlines dropped, controls and spaces around trimmed.
  const asBrowsed = (value: string) => value.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '');
  const attributes = elementsOf(parse(page.body)).flatMap((element) => element.attrs);
  assert.equal(
    attributes.filter((attribute) => ['href', 'src', 'action'].includes(attribute.name) && /^(javascript|data|vbscript):/i.test(asBrowsed(attribute.value))),
    [],
  );
});

test('agents: the site is an MCP server (Streamable HTTP) whose tools list, search and read its pages, as the visitor may', async () => {
  const guide = await space('Guide');
  const site = await publishedSite('Docs', [guide.id]);
  const client = new Client({ name: 'quire-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${site.urls.published}~mcp`)));
  const tools = await client.listTools();
  assert.equal(tools.tools.map((tool) => tool.name).sort(), ['list_pages', 'read_page', 'search']);
  const textOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as Array<{ type: string; text: string }>)[0]!.text;
  const listed = await client.callTool({ name: 'list_pages', arguments: {} });
  assert.match(textOf(listed), `- [Configuration](${site.urls.published}quick-start/configuration.md)`);
  const found = await client.callTool({ name: 'search', arguments: { query: 'setting' } });
  assert.match(textOf(found), '- Configuration (path: "quick-start/configuration")');
  const page = await client.callTool({ name: 'read_page', arguments: { path: 'quick-start/configuration' } });
  assert.match(textOf(page), /^# Configuration\n\nEvery setting lives in one file\./);
  const missing = await client.callTool({ name: 'read_page', arguments: { path: 'no/such/page' } });
  assert.is(missing.isError, true);
  await client.close();

  const hidden = await publishedSite('Partners', [guide.id], 'share-link');
  const refused = new Client({ name: 'quire-test', version: '1.0.0' });
  await refused.connect(new StreamableHTTPClientTransport(new URL(`${hidden.urls.published}~mcp`))).then(
    () => assert.unreachable('a share-link site without its key answers no agent'),
    () => undefined,
  );
  const link = await t.call('POST', `${sites()}/${hidden.id}/share-links`, { token: fx.admin.token, body: { name: 'Agent' } });
  const shared = new URL(link.body.urls.published as string);
  const agent = new Client({ name: 'quire-test', version: '1.0.0' });
  await agent.connect(new StreamableHTTPClientTransport(new URL(`${shared.origin}${shared.pathname}~mcp${shared.search}`)));
  assert.match(textOf(await agent.callTool({ name: 'read_page', arguments: { path: 'faq' } })), /^# FAQ/);
  await agent.close();
});

test.run();
