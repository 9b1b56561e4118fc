import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

const test = suite('paths and query strings');
let t: TestServer;
let token: string;
let members: string;

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    token = (await t.user('target@example.com')).token;
    members = `/v1/orgs/${(await t.call('POST', '/v1/orgs', { token, body: { title: 'Targets' } })).body.id}/members`;
  }),
);
test.after(async () => t.close());

test('a query string with NUL or invalid UTF-8 is a 400, not a search for something else', async () => {
  assertErrorIs(await t.call('GET', `${members}?search=%00`, { token }), 400, 'The query string holds a NUL character (%00)');
  for (const bad of ['%ED%A0%80', '%FF', '%E2%82', '100%']) {
    assertErrorIs(await t.call('GET', `${members}?search=${bad}`, { token }), 400, 'The query string is not valid percent-encoded UTF-8');
  }
  const found = await t.call('GET', `${members}?search=${encodeURIComponent('target')}`, { token });
  assert.is(found.status, 200);
  assert.is(found.body.count, 1);
  assert.is((await t.call('GET', `${members}?search=a+b%20c`, { token })).status, 200, '+ and %20 are spaces');
  assert.is((await t.call('GET', `${members}?search=${encodeURIComponent('Émile 😀')}`, { token })).status, 200);
});

test('a path with NUL or invalid UTF-8 is a 400', async () => {
  assertErrorIs(await t.call('GET', '/v1/orgs/%00', { token }), 400, 'The path holds a NUL character (%00)');
  assertErrorIs(await t.call('GET', '/v1/orgs/%ED%A0%80', { token }), 400, 'The path is not valid percent-encoded UTF-8');
  assertErrorIs(await t.call('GET', '/v1/orgs/%FF', { token }), 400, 'The path is not valid percent-encoded UTF-8');
  assertErrorIs(await t.call('GET', '/v1/orgs/%C3%A9t%C3%A9', { token }), 404, 'Organization été not found');
});

test.run();
