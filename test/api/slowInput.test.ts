import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configureWorkerPool, workerTaskLimitMs } from '../../engine/runtime/workerPool.js';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

/**
 * Markdown from requests is worked on in the worker pool: other users are answered meanwhile, and
 * past the pool's time limit the write is refused (422 naming the limit) with nothing stored.
 */
const test = suite('slow input never holds the server');
const defaultLimit = workerTaskLimitMs();
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => ({ t, fx } = setup));
test.after(() => configureWorkerPool({ taskLimitMs: defaultLimit }));

/** A page of `count` links, one per list item: seconds of parsing for 900 KB, a fraction of one for 60 KB. */
const links = (count: number) => Array.from({ length: count }, (_, i) => `- [Link number ${i}](guides/page-${i}.md) and some words`).join('\n');
const bigPage = links(17_000);
const running = async () => Number(/^quire_worker_pool_running (\d+)$/m.exec(await (await fetch(`${t.url}/metrics`)).text())?.[1]);

async function changeRequest(title: string) {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title } })).body;
  const created = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.admin.token, body: {} })).body;
  return { space, base: `/v1/spaces/${space.id}/change-requests/${created.id}` };
}

test('while a large page is parsed in the pool, another user is answered', async () => {
  // Room for the parse on a loaded machine (it took over the default 10 s once, in CI): the limit is the next test's.
  configureWorkerPool({ taskLimitMs: 60_000 });
  const { base } = await changeRequest('Large');
  const posting = t.call('POST', `${base}/content`, { token: fx.admin.token, body: { changes: [{ operation: 'insert_page', title: 'Index', document: { markdown: bigPage } }] } });
  await until('the page to reach the pool', async () => (await running()) > 0, 10_000, 5);
  assert.is((await t.call('GET', '/v1/user', { token: fx.reader.token })).status, 200);
  assert.ok((await running()) > 0, 'answered while the parse still ran');
  assert.is((await posting).status, 200, 'the page itself is fine, only large');
  configureWorkerPool({ taskLimitMs: defaultLimit });
});

test('past the time limit a page is refused naming the limit, and nothing is written', async () => {
  configureWorkerPool({ taskLimitMs: 20 });
  try {
    const { base } = await changeRequest('Refused');
    const before = (await t.call('GET', `${base}/content/pages`, { token: fx.admin.token })).body;
    const refused = await t.call('POST', `${base}/content`, { token: fx.admin.token, body: { changes: [{ operation: 'insert_page', title: 'Index', document: { markdown: bigPage } }] } });
    assertErrorIs(refused, 422, 'changes[0] (insert_page): the markdown took longer than the limit of 20 ms to process: nothing was stored; split it into smaller pieces');
    assert.equal((await t.call('GET', `${base}/content/pages`, { token: fx.admin.token })).body, before);

    const { space } = await changeRequest('Refused comments');
    const comment = await t.call('POST', `/v1/spaces/${space.id}/comments`, { token: fx.editor.token, body: { body: { markdown: links(1_100) } } });
    assertErrorIs(comment, 422, "A comment's markdown took longer than the limit of 20 ms to process: nothing was stored; split it into smaller pieces");
    assert.is((await t.call('GET', `/v1/spaces/${space.id}/comments`, { token: fx.admin.token })).body.items.length, 0);
  } finally {
    configureWorkerPool({ taskLimitMs: defaultLimit });
  }
  const metrics = await (await fetch(`${t.url}/metrics`)).text();
  assert.ok(Number(/^quire_worker_pool_stopped_total (\d+)$/m.exec(metrics)?.[1]) >= 2, metrics);
  assert.match(metrics, /^quire_event_loop_delay_seconds\{quantile="0\.99"\} [\d.e-]+$/m);
  assert.match(metrics, /^quire_cache_budget_bytes \d+$/m);
  assert.ok(Number(/^quire_cache_lookups_total\{cache="revisions",result="hit"\} (\d+)$/m.exec(metrics)?.[1]) > 0, 'the space read above was read through the caches');
});

test.run();
