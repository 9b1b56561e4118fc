import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configureWorkerPool, workerTaskLimitMs } from '../../engine/workerPool.js';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

/**
 * Input the markdown parser takes super-linear time over is worked on in the worker pool: another
 * user's request is answered meanwhile, and past the pool's time limit the write is refused (422
 * naming the limit) with nothing stored.
 */
const test = suite('slow input never holds the server');
const defaultLimit = workerTaskLimitMs();
configureWorkerPool({ taskLimitMs: 300 });
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => ({ t, fx } = setup));
test.after(() => configureWorkerPool({ taskLimitMs: defaultLimit }));

// Flat brackets: each `[a]` fails to be a link, and the parser's merging of the text around them is quadratic (~400 KB).
const flatBrackets = '[a] '.repeat(100_000);

test('a page the parser would take seconds over is refused at the time limit, nothing written, and other users are answered meanwhile', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Slow' } })).body;
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.admin.token, body: {} })).body;
  const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`;
  const before = (await t.call('GET', `${base}/content/pages`, { token: fx.admin.token })).body;

  const order: string[] = [];
  const posting = t
    .call('POST', `${base}/content`, { token: fx.admin.token, body: { changes: [{ operation: 'insert_page', title: 'Brackets', document: { markdown: flatBrackets } }] } })
    .then((response) => (order.push('post'), response));
  const reading = t.call('GET', '/v1/user', { token: fx.reader.token }).then((response) => (order.push('read'), response));
  const [refused, read] = await Promise.all([posting, reading]);

  assert.is(read.status, 200);
  assert.equal(order, ['read', 'post'], 'the other user was answered while the page was worked on');
  assertErrorIs(refused, 422, 'changes[0] (insert_page): the markdown took longer than the limit of 300 ms to process: nothing was stored; split it into smaller pieces');
  assert.equal((await t.call('GET', `${base}/content/pages`, { token: fx.admin.token })).body, before);
  const metrics = await (await fetch(`${t.url}/metrics`)).text();
  assert.ok(Number(/^quire_worker_pool_stopped_total (\d+)$/m.exec(metrics)?.[1]) >= 1, metrics);
  assert.match(metrics, /^quire_event_loop_delay_seconds\{quantile="0\.99"\} [\d.e-]+$/m);
});

test('a comment body past the time limit is refused the same way, and no comment is stored', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Slow comments' } })).body;
  // Comment bodies stop at 64 KB: about 1.5 s of parsing in this shape.
  const refused = await t.call('POST', `/v1/spaces/${space.id}/comments`, { token: fx.editor.token, body: { body: { markdown: '[a] '.repeat(16_000) } } });
  assertErrorIs(refused, 422, "A comment's markdown took longer than the limit of 300 ms to process: nothing was stored; split it into smaller pieces");
  assert.is((await t.call('GET', `/v1/spaces/${space.id}/comments`, { token: fx.admin.token })).body.items.length, 0);
});

test.run();
