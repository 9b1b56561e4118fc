import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';
import { assertNewerResponse } from '../helpers/upstream.js';

/**
 * The requests GitBook's renderer (GitbookIO/gitbook, packages/gitbook/src/lib/data/lookup.ts and
 * api.ts, read at its commit 49c993f) makes to show a published site, replayed with the parameters
 * it sends (its cache-busting field, `restrictTo`, `format.markdown.refs`, `dereferenced`, …):
 * each is answered in both specs' shapes: t.call checks every answer against 0.146.0's schema (or
 * 0.202.0's for the operations 0.146.0 lacks), and each is checked against 0.202.0's here, the
 * version the renderer is built on (docs/decisions.md, "Published content lookups and site tokens").
 */
const test = suite('the renderer\'s requests, as GitBook\'s renderer sends them, answered');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
});

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
  const lookup = await renderer('POST', '/v1/urls/published', undefined, { url: `${published.urls.published}quick-start`, visitor: { type: 'human', unsignedClaims: {} }, redirectOnError: true, cacheBust: 'a1' });
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
  const current = (await renderer('POST', `${org}/sites/${lookup.site}/search`, token, { query: 'configuration', scope: { mode: 'default', currentSiteSpace: siteSpace, restrictTo: 'currentSiteSpace' } })) as { items: Array<{ id: string }> };
  assert.equal(current.items.map((item) => item.id), [space.id]);
  const others = (await renderer('POST', `${org}/sites/${lookup.site}/search`, token, { query: 'configuration', scope: { mode: 'default', currentSiteSpace: siteSpace, restrictTo: 'otherSiteSpaces' } })) as { items: unknown[] };
  assert.equal(others.items, [], 'the current site space left out');
  await renderer('POST', `${org}/sites/${lookup.site}/search`, token, { query: 'configuration', mode: 'current', siteSpaceId: siteSpace });
});

test.run();
