import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';
import { inspectJobs, testTemporalSettings } from '../helpers/temporal.js';
import type { TemporalSettings } from '../../workflows/settings.js';

const test = suite('renderer revalidation: published content changes are posted to the configured renderer, signed, retried');
let t: TestServer;
let fx: OrganizationFixture;
let renderer: http.Server;
const secret = 'renderer-shared-secret';
const received: Array<{ tags: string[]; signatureValid: boolean }> = [];
/** How many of the next posts the renderer answers 503, as if it were restarting. */
let failNext = 0;
let temporal: TemporalSettings;

test.before(
  reportingErrors(async () => {
    renderer = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        if (request.url !== '/~gitbook/revalidate' || request.method !== 'POST') return void response.writeHead(404).end();
        if (failNext > 0) {
          failNext -= 1;
          return void response.writeHead(503).end();
        }
        const expected = createHmac('sha256', secret).update(body).digest('hex');
        received.push({ tags: (JSON.parse(body) as { tags: string[] }).tags, signatureValid: request.headers['x-gitbook-signature'] === expected });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"revalidated":true}');
      });
    });
    await new Promise<void>((resolve) => renderer.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(renderer.address() as AddressInfo).port}`;
    temporal = { ...(await testTemporalSettings()), renderer: { url, secret } };
    t = await startTestServer({ temporal }, { worker: true });
    fx = await organizationWithMembers(t);
  }),
);
test.after(async () => {
  await t?.close();
  renderer?.close();
});

const posted = (tags: string[]) => until(`the renderer to be told ${tags.join(', ')}`, () => received.find((post) => JSON.stringify(post.tags) === JSON.stringify(tags)), 30_000, 25);

test("publishing, a new revision of a published space, a change of the site's structure and unpublishing are each posted with the tags they make stale", async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Shown' } })).body;
  const site = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Docs', spaces: [space.id] } })).body;
  assert.is((await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.id}/publish`, { token: fx.admin.token })).status, 200);
  const publication = await posted([`site:${site.id}`]);
  assert.ok(publication.signatureValid, 'signed with the shared secret');

  assert.is((await t.call('POST', `/v1/spaces/${space.id}/content/template`, { token: fx.admin.token, body: { id: 'getting-started' } })).status, 201);
  assert.ok((await posted([`site:${site.id}`, `space:${space.id}`])).signatureValid);

  received.length = 0;
  const variant = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Variant' } })).body;
  assert.is((await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.id}/site-spaces`, { token: fx.admin.token, body: { spaceId: variant.id } })).status, 201);
  await posted([`site:${site.id}`]);

  const unshown = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Unshown' } })).body;
  assert.is((await t.call('POST', `/v1/spaces/${unshown.id}/content/template`, { token: fx.admin.token, body: { id: 'knowledge-base' } })).status, 201);
  // Its job runs to its end and finds no site showing the space: it posts nothing.
  const jobs = await inspectJobs(temporal);
  try {
    const job = await until(
      `the revalidation job of the unshown space`,
      async () => {
        for await (const execution of jobs.client.workflow.list({ query: `WorkflowType = 'rendererRevalidation'` })) {
          if (execution.workflowId.startsWith(`renderer-revalidation:space:${unshown.id}:`)) return execution.workflowId;
        }
        return undefined;
      },
      30_000,
      100,
    );
    assert.equal(await jobs.client.workflow.getHandle(job).result(), { tags: [] }, 'no tag: no site shows it');
  } finally {
    await jobs.close();
  }
  await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.id}/unpublish`, { token: fx.admin.token });
  await posted([`site:${site.id}`]);
  assert.not.ok(
    received.some((post) => post.tags.includes(`space:${unshown.id}`)),
    "a space no published site shows is nobody's cache",
  );
});

test('a renderer that is down is tried again; the write it follows never waited for it', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Retried' } })).body;
  const site = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Retry docs', spaces: [space.id] } })).body;
  failNext = 2;
  const started = Date.now();
  assert.is((await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.id}/publish`, { token: fx.admin.token })).status, 200);
  assert.ok(Date.now() - started < 2000, 'the publish answered without waiting for the renderer');
  await posted([`site:${site.id}`]);
  assert.is(failNext, 0, 'the two refused posts were tried again');
});

test.run();
