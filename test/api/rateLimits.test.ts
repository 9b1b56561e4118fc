import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

const test = suite('rate limits');
let t: TestServer;
let open: TestServer;

test.before(
  reportingErrors(async () => {
    t = await startTestServer({ rateLimit: { requests: 5, windowMs: 60_000 } });
    open = await startTestServer({ rateLimit: undefined });
  }),
);
test.after(async () => {
  await t?.close();
  await open?.close();
});

test('each token has its limit, counted down in X-RateLimit-* headers; past it 429 with Retry-After; another token is not affected', async () => {
  const [alice, bob] = [await t.user('alice@example.com'), await t.user('bob@example.com')];
  const before = Math.floor(Date.now() / 1000);
  const answers = [];
  for (let i = 0; i < 5; i += 1) answers.push(await t.call('GET', '/v1/user', { token: alice.token }));
  // The users were made through the API with other tokens: alice's count starts at her first call.
  assert.equal(
    answers.map((answer) => [answer.status, answer.headers.get('x-ratelimit-limit'), answer.headers.get('x-ratelimit-remaining')]),
    [0, 1, 2, 3, 4].map((i) => [200, '5', String(4 - i)]),
  );
  const reset = Number(answers[0]!.headers.get('x-ratelimit-reset'));
  assert.ok(reset >= before + 59 && reset <= before + 61, `the window resets in a minute: ${reset - before} s`);
  const refused = await t.call('GET', '/v1/user', { token: alice.token });
  assertErrorIs(refused, 429, /^Too many requests: 5 are allowed per 60 s; try again in \d+ s$/);
  assert.ok(Number(refused.headers.get('retry-after')) >= 1);
  assert.is(refused.headers.get('x-ratelimit-remaining'), '0');
  assert.is((await t.call('GET', '/v1/user', { token: bob.token })).status, 200, "bob's own count");
});

test('without a token the address is the caller; QUIRE_RATE_LIMIT=off sends no limit headers', async () => {
  const answers = [];
  for (let i = 0; i < 6; i += 1) answers.push((await t.call('GET', '/v1/')).status);
  assert.equal(answers, [200, 200, 200, 200, 200, 429]);
  const unlimited = await open.call('GET', '/v1/');
  assert.is(unlimited.status, 200);
  assert.is(unlimited.headers.get('x-ratelimit-limit'), null);
});

test("a made-up bearer token is no identity: it counts against its sender's address, whatever the token", async () => {
  const fresh = await startTestServer({ rateLimit: { requests: 5, windowMs: 60_000 } });
  try {
    const answers = [];
    for (let i = 0; i < 6; i += 1) answers.push((await fresh.call('GET', '/v1/', { token: `made-up-${i}-${Math.random()}` })).status);
    assert.equal(answers, [200, 200, 200, 200, 200, 429]);
  } finally {
    await fresh.close();
  }
});

test('git: a user with a valid token keeps their own count when anonymous traffic exhausts their address', async () => {
  const fresh = await startTestServer({ rateLimit: { requests: 5, windowMs: 60_000 } });
  try {
    const user = await fresh.user();
    const organization = (await fresh.call('POST', '/v1/orgs', { token: user.token, body: { title: 'Shared address' } })).body;
    const space = (await fresh.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: user.token, body: { title: 'Cloned' } })).body;
    for (let i = 0; i < 6; i += 1) await fresh.call('GET', '/v1/');
    assert.is((await fresh.call('GET', '/v1/')).status, 429, 'the address is exhausted');
    const basic = `Basic ${Buffer.from(`git:${user.token}`).toString('base64')}`;
    const refs = await fetch(`${fresh.url}/git/${space.id}.git/info/refs?service=git-upload-pack`, { headers: { authorization: basic } });
    assert.is(refs.status, 200, await refs.text());
    assert.is(refs.headers.get('x-ratelimit-remaining'), '2', 'counted as the user: the API calls above, then this one');
  } finally {
    await fresh.close();
  }
});

test.run();
