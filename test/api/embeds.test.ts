import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';
import { configureIntegrations } from '../../domain/common/integrations.js';

const test = suite('embeds: a URL as a link card, from the Open Graph tags of the page it serves');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
});

let source: Server;
let origin = '';
const hits = new Map<string, number>();
const pages: Record<string, { type: string; body: string; status?: number }> = {
  '/article': {
    type: 'text/html; charset=utf-8',
    body: '<!doctype html><html><head><title>Plain title</title><meta property="og:title" content="  The  article\n title "><meta property="og:site_name" content="Example News"><link rel="shortcut icon" href="/static/icon.png"></head><body><p>Text</p></body></html>',
  },
  '/bare': { type: 'text/html', body: '<html><head><title>Only a title</title></head></html>' },
  // Elements before </head> are read (a <div> there opens the body): 50,000 nested in the part that is parsed.
  '/deep': { type: 'text/html', body: `<html><head><title>Deep</title>${'<div>'.repeat(50_000)}</head><body></body></html>` },
  '/json': { type: 'application/json', body: '{"not":"html"}' },
  '/gone': { type: 'text/html', body: 'gone', status: 404 },
};

test.before(async () => {
  configureIntegrations({ allowPrivateFetch: true });
  source = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const page = pages[path];
    if (!page) return void response.writeHead(404).end();
    response.writeHead(page.status ?? 200, { 'content-type': page.type }).end(page.body);
  });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
});
test.after(() => {
  configureIntegrations({ allowPrivateFetch: false });
  source.closeAllConnections();
  source.close();
});

const embed = (url: string, token = fx.reader.token) => t.call('GET', `/v1/urls/embed?url=${encodeURIComponent(url)}`, { token });

test('Open Graph tags first, then the title; the icon resolved from the page; kept an hour', async () => {
  const article = await embed(`${origin}/article`);
  assert.is(article.status, 200, JSON.stringify(article.body));
  assert.equal(article.body, { type: 'link', title: 'The article title', site: 'Example News', icon: `${origin}/static/icon.png` });
  assert.equal((await embed(`${origin}/bare`)).body, { type: 'link', title: 'Only a title', site: '127.0.0.1', icon: `${origin}/favicon.ico` });
  await embed(`${origin}/article`);
  assert.is(hits.get('/article'), 1, 'the second ask is answered from the cache');
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Guide' } })).body;
  const inSpace = await t.call('GET', `/v1/spaces/${space.id}/embed?url=${encodeURIComponent(`${origin}/article`)}`, { token: fx.reader.token });
  assert.equal([inSpace.status, inSpace.body.title], [200, 'The article title']);
});

test('a page that nests 50,000 elements where its tags are read, one that is not HTML or is gone: a card named after the URL, never a crash', async () => {
  assert.equal((await embed(`${origin}/deep`)).body.title, 'Deep');
  for (const path of ['/json', '/gone']) assert.equal((await embed(`${origin}${path}`)).body, { type: 'link', title: `${origin}${path}`, site: '127.0.0.1' });
});

test('only users ask; only http(s) URLs; the outbound guard still refuses private addresses when not lifted', async () => {
  assert.is((await t.call('GET', `/v1/urls/embed?url=${encodeURIComponent(`${origin}/article`)}`)).status, 401);
  assert.is((await embed('file:///etc/passwd')).status, 400);
  assert.is((await embed('not a url')).status, 400);
  configureIntegrations({ allowPrivateFetch: false });
  try {
    const refused = await embed(`${origin}/bare?private`);
    assert.is(refused.status, 400);
    assert.match(refused.body.error.message, 'is not a public address');
  } finally {
    configureIntegrations({ allowPrivateFetch: true });
  }
});

test.run();
