import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, messages } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { runAdmin } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

const test = suite('tokens: expiry and last use');
let t: TestServer;

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
  }),
);
test.after(async () => t.close());

const admin = (args: string[]) => runAdmin(args, { DATA_DIR: t.dataDir });

test('admin token create --expires: the token works until then, and not after', async () => {
  const created = await admin(['token', 'create', '--email', 'brief@example.com', '--expires', '3s', '--label', 'brief']);
  assert.is(created.code, 0, created.stderr);
  const token = created.stdout.trim();
  assert.is((await t.call('GET', '/v1/user', { token })).status, 200);
  const listed = await admin(['token', 'list', '--email', 'brief@example.com']);
  const [id, createdAt, expires, , label] = listed.stdout.trim().split('\t');
  assert.ok(id && createdAt);
  // "expired …" when the listing came after the expiry (the admin command takes seconds to start on a loaded machine).
  const expiresAt = Date.parse(expires!.replace(/^expire[sd] /, ''));
  assert.ok(expiresAt - Date.parse(createdAt!) >= 2900 && expiresAt - Date.parse(createdAt!) <= 4000, `expires 3 s after creation: ${listed.stdout}`);
  assert.is(label, 'brief');
  // The cached lookup of the token must not outlive its expiry either: refused once it has passed.
  await until('the token to be refused after its expiry', async () => (await t.call('GET', '/v1/user', { token })).status === 401, Math.max(0, expiresAt - Date.now()) + 5000);
  assert.ok(Date.now() >= expiresAt, 'not refused before its expiry');
  assertErrorIs(await t.call('GET', '/v1/user', { token }), 401, messages.badToken);
  assert.match((await admin(['token', 'list', '--email', 'brief@example.com'])).stdout, /\texpired \d{4}-/);
});

test('tokens without --expires never expire; a bad duration is a usage error', async () => {
  const created = await admin(['token', 'create', '--email', 'forever@example.com']);
  assert.is((await t.call('GET', '/v1/user', { token: created.stdout.trim() })).status, 200);
  assert.match((await admin(['token', 'list', '--email', 'forever@example.com'])).stdout, /\tnever expires\t/);
  const wrong = await admin(['token', 'create', '--email', 'forever@example.com', '--expires', 'soon']);
  assert.is(wrong.code, 2);
  assert.match(wrong.stderr, /--expires must be a duration such as 7d/);
});

test('admin token list shows when each token was last used', async () => {
  const first = (await admin(['token', 'create', '--email', 'used@example.com', '--label', 'used'])).stdout.trim();
  await admin(['token', 'create', '--email', 'used@example.com', '--label', 'idle']);
  const before = Date.now();
  assert.is((await t.call('GET', '/v1/user', { token: first })).status, 200);
  const lines = await until(
    'the token list to show the use',
    async () => {
      const listed = (await admin(['token', 'list', '--email', 'used@example.com'])).stdout.trim().split('\n');
      return listed.find((line) => line.endsWith('\tused'))?.includes('last used') ? listed : undefined;
    },
    5000,
    100,
  );
  const used = lines.find((line) => line.endsWith('\tused'))!;
  const lastUsed = Date.parse(/last used (\S+)/.exec(used)?.[1] ?? '');
  assert.ok(lastUsed >= before - 1000 && lastUsed <= Date.now(), used);
  assert.match(
    lines.find((line) => line.endsWith('\tidle'))!,
    /\tnever used\t/,
  );
});

test.run();
