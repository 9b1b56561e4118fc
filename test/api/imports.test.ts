import AdmZip from 'adm-zip';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configureIntegrations, integrations } from '../../domain/common/integrations.js';
import { assertErrorIs, organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

// Imports (0.202.0's import runs, and the upload URL files are sent to): a website's pages and a
// zip of markdown, written into a space by a real Temporal job; a run cancelled stops.
const test = suite('content imports');
let t: TestServer;
let fx: OrganizationFixture;
let site: http.Server;
let siteUrl = '';
let slow: () => void = () => undefined;
const allowPrivate = integrations().allowPrivateFetch;

const pages: Record<string, string> = {
  '/docs/': `<!doctype html><html><head><title>Acme docs</title></head><body><nav><a href="/docs/guide.html">Guide</a></nav>
    <main><h1>Welcome</h1><p>Acme makes <strong>rockets</strong>. Read the <a href="guide.html">guide</a>.</p><a href="/elsewhere.html">Not ours</a><a href="https://example.com/">Out</a></main><footer>© Acme</footer></body></html>`,
  '/docs/guide.html': `<!doctype html><html><head><title>Guide | Acme</title></head><body><main><h1>Guide</h1><h2>Sizes</h2>
    <table><thead><tr><th>Model</th><th>Height</th></tr></thead><tbody><tr><td>Mini</td><td>2 m</td></tr></tbody></table><pre><code>launch --now</code></pre></main></body></html>`,
  '/elsewhere.html': '<html><body><h1>Elsewhere</h1></body></html>',
};

test.before(
  reportingErrors(async () => {
    site = http.createServer((request, response) => {
      const body = pages[request.url ?? ''];
      const answer = () => {
        if (!body) return response.writeHead(404).end();
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
      };
      // The slow site holds its answers until released: a run can be cancelled meanwhile.
      if (request.url?.startsWith('/slow/')) slow = answer;
      else answer();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    configureIntegrations({ allowPrivateFetch: true });
    t = await startTestServer({}, { worker: true });
    fx = await organizationWithMembers(t);
  }),
);
test.after(async () => {
  configureIntegrations({ allowPrivateFetch: allowPrivate });
  await t?.close();
  site?.closeAllConnections();
  site?.close();
});

const imports = () => `/v1/org/${fx.org.id}/imports`;
const newSpace = async (title: string) => (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title } })).body as { id: string };
const finished = (id: string) =>
  until(
    'the import to finish',
    async () => {
      const run = await t.call('GET', `${imports()}/${id}`, { token: fx.editor.token });
      return run.body.status === 'pending' || run.body.status === 'in-progress' ? undefined : run.body;
    },
    60_000,
  );

test("a website's pages below its folder become pages of the space, as markdown", async () => {
  const space = await newSpace('Imported site');
  const started = await t.call('POST', imports(), { token: fx.editor.token, body: { source: { type: 'website', url: `${siteUrl}/docs/` }, target: { space: space.id } } });
  assert.is(started.status, 201, JSON.stringify(started.body));
  assert.is(started.body.status, 'pending');
  const run = await finished(started.body.id);
  assert.is(run.status, 'completed', JSON.stringify(run));
  assert.equal(
    run.pages.map((page: { sourceURL: string; status: string }) => [page.sourceURL, page.status]),
    [
      [`${siteUrl}/docs/`, 'complete'],
      [`${siteUrl}/docs/guide.html`, 'complete'],
    ],
    'the page outside the folder and the other site are not followed',
  );
  // After the page a new space starts with.
  const content = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ id: string; title: string }>;
  assert.equal(
    content.map((page) => page.title),
    ['Untitled', 'Welcome', 'Guide'],
  );
  assert.equal(
    run.pages.map((page: { id: string }) => page.id),
    [content[1]!.id, content[2]!.id],
  );
  const guide = await t.call('GET', `/v1/spaces/${space.id}/content/page/${content[2]!.id}?format=markdown`, { token: fx.reader.token });
  assert.match(guide.body.markdown, /\| Model \| Height \|/);
  assert.match(guide.body.markdown, /launch --now/);
  const welcome = await t.call('GET', `/v1/spaces/${space.id}/content/page/${content[1]!.id}?format=markdown`, { token: fx.reader.token });
  assert.match(welcome.body.markdown, /Acme makes \*\*rockets\*\*/);
  assert.not.match(welcome.body.markdown, /© Acme|Welcome\n/, 'no footer, and the title is the page’s, not a heading again');
  const listed = await t.call('GET', `${imports()}?space=${space.id}`, { token: fx.reader.token });
  assert.equal(
    listed.body.items.map((item: { id: string }) => item.id),
    [started.body.id],
  );
  const active = await t.call('GET', `${imports()}?space=${space.id}&status=active`, { token: fx.reader.token });
  assert.equal(active.body.items, [], '`active`: pending or under way, which a finished run is not');
  const completed = await t.call('GET', `${imports()}?space=${space.id}&status=completed`, { token: fx.reader.token });
  assert.equal(
    completed.body.items.map((item: { id: string }) => item.id),
    [started.body.id],
  );
});

test('a zip of markdown, sent to its upload URL once, becomes pages of a change request', async () => {
  const space = await newSpace('Imported archive');
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Import' } })).body;
  const zip = new AdmZip();
  zip.addFile('README.md', Buffer.from('# Introduction\n\nWhat this is.\n'));
  zip.addFile('guides/setup.md', Buffer.from('# Setting up\n\nRun `make`.\n'));
  zip.addFile('.git/config', Buffer.from('[core]'));
  zip.addFile('logo.png', Buffer.from('not a page'));
  const bytes = new Uint8Array(zip.toBuffer());
  const asked = await t.call('POST', `/v1/orgs/${fx.org.id}/storage/upload`, {
    token: fx.editor.token,
    body: { file: { name: 'docs.zip', type: 'application/zip', size: bytes.length }, kind: 'import_file' },
  });
  assert.is(asked.status, 201, JSON.stringify(asked.body));
  assertErrorIs(
    await t.call('POST', imports(), { token: fx.editor.token, body: { source: { type: 'file', files: [asked.body.key] }, target: { space: space.id } } }),
    400,
    `"source.files": ${asked.body.key} has not been sent to its upload URL yet`,
  );
  const tampered = await fetch(
    asked.body.url.replace(/signature=./, (match: string) => (match.endsWith('A') ? 'signature=B' : 'signature=A')),
    { method: 'PUT', body: bytes },
  );
  assert.is(tampered.status, 403);
  assert.is((await fetch(asked.body.url, { method: 'PUT', body: new Uint8Array(Buffer.concat([bytes, Buffer.from('more')])) })).status, 400, 'more than was asked for');
  assert.is((await fetch(asked.body.url, { method: 'PUT', body: bytes })).status, 204);
  assert.is((await fetch(asked.body.url, { method: 'PUT', body: bytes })).status, 409, 'an upload URL is used once');

  const started = await t.call('POST', imports(), {
    token: fx.editor.token,
    body: { source: { type: 'file', files: [asked.body.key] }, target: { space: space.id, changeRequest: changeRequest.id } },
  });
  assert.is(started.status, 201, JSON.stringify(started.body));
  const run = await finished(started.body.id);
  assert.is(run.status, 'completed', JSON.stringify(run));
  const inChangeRequest = (await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ title: string }>;
  assert.equal(
    inChangeRequest.map((page) => page.title),
    ['Untitled', 'Introduction', 'Setting up'],
    'README first; the hidden folder and the image are no pages',
  );
  const own = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ title: string }>;
  assert.equal(
    own.map((page) => page.title),
    ['Untitled'],
    'the space itself is untouched',
  );
});

test('a run is refused where its caller may not write, and a cancelled run writes nothing more', async () => {
  const space = await newSpace('Guarded');
  assertErrorIs(
    await t.call('POST', imports(), { token: fx.reader.token, body: { source: { type: 'website', url: `${siteUrl}/docs/` }, target: { space: space.id } } }),
    403,
    `Importing into space ${space.id} needs the edit role on it; you have read`,
  );
  assertErrorIs(await t.call('POST', imports(), { token: fx.editor.token, body: { source: { type: 'website', url: `${siteUrl}/docs/` }, target: { space: 'nope' } } }), 404, 'Space nope not found');
  assertErrorIs(
    await t.call('POST', `/v1/orgs/${fx.org.id}/storage/upload`, { token: fx.editor.token, body: { file: { name: 'f.ttf', type: 'font/ttf', size: 10 }, kind: 'customization_font' } }),
    400,
    /"kind": Quire keeps uploads for imports only.*/,
  );

  const started = await t.call('POST', imports(), { token: fx.editor.token, body: { source: { type: 'website', url: `${siteUrl}/slow/` }, target: { space: space.id } } });
  assert.is(started.status, 201);
  await until(
    'the job to ask the slow site',
    async () => ((await t.call('GET', `${imports()}/${started.body.id}`, { token: fx.editor.token })).body.status === 'in-progress' ? true : undefined),
    30_000,
  );
  const cancelled = await t.call('POST', `${imports()}/${started.body.id}/cancel`, { token: fx.editor.token });
  assert.is(cancelled.status, 200, JSON.stringify(cancelled.body));
  assert.is(cancelled.body.status, 'cancelled');
  slow();
  const run = await finished(started.body.id);
  assert.is(run.status, 'cancelled', 'the job, answered after, leaves the run cancelled');
  const left = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ title: string }>;
  assert.equal(
    left.map((page) => page.title),
    ['Untitled'],
    'nothing was imported',
  );
  assertErrorIs(
    await t.call('POST', `${imports()}/${started.body.id}/cancel`, { token: fx.editor.token }),
    400,
    `Import run ${started.body.id} is cancelled: only a pending or running import can be cancelled`,
  );
});

test.run();
