import { readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';
import { until } from '../helpers/poll.js';
import { assertNewerResponse } from '../helpers/upstream.js';

/**
 * The requests GitBook's renderer (GitbookIO/gitbook, packages/gitbook/src/lib/data/lookup.ts and
 * api.ts, read at its commit 49c993f) makes to show a published site, replayed with the parameters
 * it sends (its cache-busting field, `restrictTo`, `format.markdown.refs`, `dereferenced`, …):
 * each is answered in both specs' shapes: t.call checks every answer against 0.146.0's schema (or
 * 0.202.0's for the operations 0.146.0 lacks), and each is checked against 0.202.0's here, the
 * version the renderer is built on (docs/decisions/sites.md, "Published content lookups and site tokens").
 */
const test = suite("the renderer's requests, as GitBook's renderer sends them, answered");
let t: TestServer;
let fx: OrganizationFixture;
// With the worker: OpenAPI specs are processed as jobs.
withOrganization(
  test,
  (setup) => {
    ({ t, fx } = setup);
  },
  { worker: true },
);

async function renderer(method: string, path: string, token: string | undefined, body?: unknown) {
  const response = await t.call(method, path, { ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}), ...(body !== undefined ? { body } : {}) });
  assert.ok(response.status >= 200 && response.status < 300, `${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  // The renderer is built on 0.202.0: its answers are in 0.202.0's shapes too.
  if (response.body !== undefined && response.body !== '') assertNewerResponse(method, path, response.status, response.body);
  return response.body;
}

test('a page view, its markdown twin and search, with the site token the lookup minted', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Guide', template: { id: 'getting-started' } } })).body;
  const site = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Docs', spaces: [space.id] } })).body;
  const published = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.id}/publish`, { token: fx.admin.token })).body;
  const siteSpace = (await t.call('GET', `/v1/orgs/${fx.org.id}/sites/${site.id}/site-spaces`, { token: fx.admin.token })).body.items[0].id as string;

  // lookup.ts: the URL, the visitor's payload, redirectOnError, and the cache-busting field no spec has.
  const lookup = await renderer('POST', '/v1/urls/published', undefined, {
    url: `${published.urls.published}quick-start`,
    visitor: { type: 'human', unsignedClaims: {} },
    redirectOnError: true,
    cacheBust: 'a1',
  });
  const token = lookup.apiToken as string;
  const org = `/v1/orgs/${lookup.organization}`;
  const spacePath = `/v1/spaces/${lookup.space}`;

  // api.ts, a page view.
  await renderer('GET', `${org}/sites/${lookup.site}/published`, token);
  await renderer('GET', `${spacePath}`, token);
  const revision = (await renderer('GET', `${spacePath}/revisions/${space.revision}?metadata=true`, token)) as { pages: Array<{ id: string; path: string }> };
  const page = revision.pages.find((candidate) => candidate.path === lookup.pathname)!;
  await renderer('GET', `${spacePath}/revisions/${space.revision}/path/${lookup.pathname}`, token);
  await renderer('GET', `${spacePath}/revisions/${space.revision}/page/${page.id}/document?evaluated=deterministic-only&dereferenced=reusable-contents`, token);
  await renderer('GET', `${spacePath}/revisions/${space.revision}/page/${page.id}/meta-links`, token);
  await renderer('GET', `${spacePath}/revisions/${space.revision}/changes?computed=false&metadata=false`, token);

  // The markdown twin (`.md` and llms.txt read pages this way).
  const twin = (await renderer('GET', `${spacePath}/revisions/${space.revision}/page/${page.id}?format=markdown&format.markdown.refs=stable`, token)) as { markdown: string };
  assert.match(twin.markdown, /\/pages\/[A-Za-z0-9]+/, 'references by id');

  // Search from the page's search box: the renderer's newer scope shape (restrictTo) and the older mode form.
  const current = (await renderer('POST', `${org}/sites/${lookup.site}/search`, token, {
    query: 'configuration',
    scope: { mode: 'default', currentSiteSpace: siteSpace, restrictTo: 'currentSiteSpace' },
  })) as { items: Array<{ id: string }> };
  assert.equal(
    current.items.map((item) => item.id),
    [space.id],
  );
  const others = (await renderer('POST', `${org}/sites/${lookup.site}/search`, token, {
    query: 'configuration',
    scope: { mode: 'default', currentSiteSpace: siteSpace, restrictTo: 'otherSiteSpaces' },
  })) as { items: unknown[] };
  assert.equal(others.items, [], 'the current site space left out');
  await renderer('POST', `${org}/sites/${lookup.site}/search`, token, { query: 'configuration', mode: 'current', siteSpaceId: siteSpace });
});

test('a page of every block type, nested, as the renderer reads it: every block, inline, text and fragment keyed, each key once', async () => {
  // Every page of the markdown corpus but the empty ones, as one page: hints, tabs, steppers, expandables, tables, figures, lists, code…
  const corpus = new URL('../fixtures/markdown-corpus/', import.meta.url);
  const markdown = readdirSync(corpus)
    .filter((name) => !/empty|only-heading/.test(name))
    .map((name) => readFileSync(new URL(name, corpus), 'utf8').replace(/^# .*\n+/, ''))
    .join('\n\n');
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Every block', template: { id: 'getting-started' } } })).body;
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.admin.token, body: { subject: 'Every block' } })).body;
  const crPath = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`;
  const faq = (await t.call('GET', `${crPath}/content/path/faq`, { token: fx.admin.token })).body;
  // The pages its cards lead to (a cards table's target that leads nowhere is a URL, which 0.202.0's
  // schema can't tell from an image record's: its oneOf then matches twice).
  const changes = [
    { operation: 'update_page', page: faq.id, document: { markdown } },
    ...['Start', 'Next'].map((title) => ({ operation: 'insert_page', title, document: { markdown: `${title}.\n` } })),
  ];
  assert.is((await t.call('POST', `${crPath}/content`, { token: fx.admin.token, body: { changes } })).status, 200);
  assert.is((await t.call('POST', `${crPath}/merge`, { token: fx.admin.token })).status, 200);
  const revision = (await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.admin.token })).body.revision as string;
  const document = (await renderer('GET', `/v1/spaces/${space.id}/revisions/${revision}/page/${faq.id}/document?evaluated=deterministic-only&dereferenced=reusable-contents`, fx.admin.token)) as {
    nodes: Array<Record<string, unknown>>;
  };

  const keys = new Map<string, string>();
  const types = new Set<string>();
  const visit = (node: Record<string, unknown>, where: string) => {
    if (node.object === 'leaf') return;
    const what = `${where} (${String(node.type ?? node.fragment ?? node.object)})`;
    // The renderer's components list children by key (a tabs item without one fails the page).
    assert.type(node.key, 'string', `${what} has a key`);
    assert.not.ok(keys.has(node.key as string), `${what}: its key ${String(node.key)} is ${keys.get(node.key as string)}'s too`);
    keys.set(node.key as string, what);
    if (node.object === 'block' || node.object === 'inline') types.add(node.type as string);
    ((node.nodes ?? node.leaves ?? []) as Array<Record<string, unknown>>).forEach((child, index) => visit(child, `${where}/${index}`));
    ((node.fragments ?? []) as Array<Record<string, unknown>>).forEach((fragment) => visit(fragment, `${where}:${String(fragment.fragment)}`));
  };
  document.nodes.forEach((node, index) => visit(node, String(index)));
  for (const type of [
    'tabs',
    'tabs-item',
    'hint',
    'stepper',
    'stepper-step',
    'expandable',
    'table',
    'images',
    'image',
    'code',
    'code-line',
    'list-unordered',
    'list-ordered',
    'list-tasks',
    'list-item',
    'blockquote',
    'math',
    'embed',
    'file',
    'content-ref',
    'link',
    'inline-image',
    'inline-math',
  ]) {
    assert.ok(types.has(type), `the page holds a ${type}`);
  }
  assert.ok(keys.size > 300, `${keys.size} nodes keyed`);
});

test("a share-link site looked up with its key in the path (the renderer drops the query), and a page's OpenAPI block read from a private spec", async () => {
  const spec = 'openapi: 3.0.3\ninfo: { title: Pets, version: "1" }\npaths:\n  /pets:\n    get:\n      summary: List pets\n      responses:\n        "200": { description: The pets }\n';
  const since = new Date().toISOString();
  assert.is((await t.call('PUT', `/v1/orgs/${fx.org.id}/openapi/pets`, { token: fx.admin.token, body: { source: { text: spec } } })).status, 201);
  await until('the spec to be processed', async () => {
    const found = (await t.call('GET', `/v1/orgs/${fx.org.id}/openapi/pets`, { token: fx.admin.token })).body;
    return found.processingState === 'complete' && found.lastProcessedAt > since && found.lastVersion ? found : undefined;
  });
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Partner API', template: { id: 'getting-started' } } })).body;
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.admin.token, body: { subject: 'API page' } })).body;
  const markdown = 'The pets we sell.\n\n{% openapi-operation spec="pets" path="/pets" method="get" %}\n{% endopenapi-operation %}\n';
  assert.is(
    (
      await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
        token: fx.admin.token,
        body: { changes: [{ operation: 'insert_page', title: 'Pets API', document: { markdown } }] },
      })
    ).status,
    200,
  );
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: fx.admin.token })).body.result, 'merge');
  const site = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Partners', spaces: [space.id], visibility: 'share-link' } })).body;
  await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.id}/publish`, { token: fx.admin.token });
  const link = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.id}/share-links`, { token: fx.admin.token, body: { name: 'Renderer' } })).body;
  const shared = new URL(link.urls.published as string);
  const key = shared.searchParams.get('share')!;

  // lookup.ts strips the query and tries the URL's prefixes: GitBook's share-link form is `<site>/<key>/<path>`.
  const lookup = await renderer('POST', '/v1/urls/published', undefined, {
    url: `${shared.origin}${shared.pathname}${key}/pets-api`,
    visitor: { type: 'human', unsignedClaims: {} },
    redirectOnError: false,
  });
  assert.equal([lookup.shareKey, lookup.pathname], [key, 'pets-api']);
  const token = lookup.apiToken as string;
  const org = `/v1/orgs/${lookup.organization}`;
  const spacePath = `/v1/spaces/${lookup.space}`;
  await renderer('GET', `${org}/sites/${lookup.site}/published?shareKey=${encodeURIComponent(key)}`, token);
  const revision = (await renderer('GET', `${spacePath}`, token)).revision as string;
  const page = (await renderer('GET', `${spacePath}/revisions/${revision}/path/pets-api`, token)) as { id: string };
  const document = await renderer('GET', `${spacePath}/revisions/${revision}/page/${page.id}/document?evaluated=deterministic-only&dereferenced=reusable-contents`, token);
  assert.match(JSON.stringify(document), '"ref":{"kind":"openapi","spec":"pets"}');
  // The block's spec, private: the page names it, so its site token reads it (api.ts, getLatestOpenAPISpecVersionContent).
  const content = (await renderer('GET', `${org}/openapi/pets/versions/latest/content`, token)) as { urls: { source: string; public: string | null }; filesystem: Record<string, unknown> };
  assert.equal(content.urls.public, null, 'a private spec has no public address');
  assert.match(JSON.stringify(content.filesystem), 'List pets');
});

test.run();
