import http from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

const test = suite('HTTP layer');
let t: TestServer;
let token: string;

test.before(
  reportingErrors(async () => {
    t = await startTestServer({ bodyLimitBytes: 64 * 1024 });
    token = (await t.user('http@example.com')).token;
  }),
);
test.after(async () => t.close());

test('GET /v1/ answers without a token', async () => {
  const info = await t.call('GET', '/v1/');
  assert.is(info.status, 200);
  assert.type(info.body.version, 'string');
  assert.is((await t.call('GET', '/v1')).status, 200);
});

test('GET /v1/user is the caller; without a valid token 401', async () => {
  const me = await t.call('GET', '/v1/user', { token });
  assert.is(me.status, 200);
  assert.is(me.body.email, 'http@example.com');
  const missing = await t.call('GET', '/v1/user');
  assertErrorIs(missing, 401, 'Authentication required: send an Authorization: Bearer <token> header');
  assert.is(missing.headers.get('www-authenticate'), 'Bearer');
  assertErrorIs(await t.call('GET', '/v1/user', { headers: { authorization: `Basic ${token}` } }), 401, 'The Authorization header must be "Bearer <token>"');
  assertErrorIs(await t.call('GET', '/v1/user', { token: 'qr_forged' }), 401, 'The bearer token is not valid');
  assertErrorIs(await t.call('GET', '/v1/user', { token: 'x'.repeat(5000) }), 401, 'The bearer token is not valid');
});

test('answers are never sniffed; what a token unlocked is never stored by caches; HTML carries a strict CSP', async () => {
  const me = await t.call('GET', '/v1/user', { token });
  assert.is(me.headers.get('x-content-type-options'), 'nosniff');
  assert.is(me.headers.get('cache-control'), 'no-store');
  const refused = await t.call('GET', '/v1/user', { token: 'qr_forged' });
  assert.is(refused.headers.get('x-content-type-options'), 'nosniff');
  assert.is(refused.headers.get('cache-control'), 'no-store');
  assert.is((await t.call('GET', '/v1/')).headers.get('x-content-type-options'), 'nosniff');
  const html = await fetch(`${t.url}/sites/site_x/`);
  assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
  assert.is(html.headers.get('content-security-policy'), "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  assert.is(html.headers.get('x-content-type-options'), 'nosniff');
});

test('/metrics: to a scraper on this machine, or with QUIRE_METRICS_TOKEN; to any other request a path like any other', async () => {
  // node:http, not fetch: fetch sends its own Host header whatever it is given.
  const metrics = (server: TestServer, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; text: () => Promise<string> }>((resolve, reject) => {
      http
        .get(`${server.url}/metrics`, { headers }, (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text: async () => body }));
        })
        .on('error', reject);
    });
  const local = await metrics(t);
  assert.is(local.status, 200);
  assert.match(await local.text(), /^quire_event_loop_delay_seconds/m);
  for (const headers of [{ host: 'docs.example.com' }, { 'x-forwarded-for': '203.0.113.7' }, { forwarded: 'for=203.0.113.7' }, { 'x-real-ip': '203.0.113.7' }] as Array<Record<string, string>>) {
    const refused = await metrics(t, headers);
    assert.is(refused.status, 404, JSON.stringify(headers));
    assert.not.match(await refused.text(), /quire_/);
  }
  const scraped = await startTestServer({ metricsToken: 'metrics-secret-0123456789abcdef' });
  try {
    assert.is((await metrics(scraped, { 'x-forwarded-for': '203.0.113.7', authorization: 'Bearer metrics-secret-0123456789abcdef' })).status, 200);
    assert.is((await metrics(scraped, { 'x-forwarded-for': '203.0.113.7', authorization: 'Bearer metrics-secret-0123456789abcdeX' })).status, 404);
  } finally {
    await scraped.close();
  }
});

test('each request has an id, echoed or generated', async () => {
  const echoed = await t.call('GET', '/v1/', { headers: { 'x-request-id': 'trace-123' } });
  assert.is(echoed.headers.get('x-request-id'), 'trace-123');
  const generated = await t.call('GET', '/v1/', { headers: { 'x-request-id': 'bad id with spaces' } });
  assert.match(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
});

test('unknown routes 404, wrong methods 405, in the upstream error body', async () => {
  assertErrorIs(await t.call('GET', '/v1/nowhere', { token }), 404, 'No route for GET /v1/nowhere');
  assertErrorIs(await t.call('GET', '/elsewhere'), 404, 'No route for GET /elsewhere');
  assertErrorIs(await t.call('DELETE', '/v1/orgs', { token }), 405, 'DELETE is not allowed on /v1/orgs');
});

test('bodies: malformed JSON 400, not JSON 415, too large 413', async () => {
  const headers = { 'content-type': 'application/json' };
  assertErrorIs(await t.call('POST', '/v1/orgs', { token, raw: '{"title": "x",', headers }), 400, 'Malformed JSON in request body: Expected double-quoted property name in JSON at position 14');
  assertErrorIs(
    await t.call('POST', '/v1/orgs', { token, raw: 'title=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    415,
    'Request bodies must be JSON (Content-Type: application/json), got application/x-www-form-urlencoded',
  );
  assertErrorIs(await t.call('POST', '/v1/orgs', { token, raw: JSON.stringify({ title: 'x'.repeat(70 * 1024) }), headers }), 413, 'Request body is larger than the limit of 65536 bytes');
  assertErrorIs(await t.call('POST', '/v1/orgs', { token }), 400, 'A JSON request body is required');
  assertErrorIs(await t.call('POST', '/v1/orgs', { token, body: [1, 2] }), 400, 'Invalid request body: the body must be object');
  assert.is((await t.call('GET', '/v1/orgs', { token })).body.count, 0, 'no failed request created anything');
});

test('an unexpected failure answers 500 with the error body and the request id', async () => {
  const broken = await startTestServer();
  const user = await broken.user();
  await broken.server.db.close(); // every query now fails inside the handler
  const response = await broken.call('GET', '/v1/user', { token: user.token, headers: { 'x-request-id': 'req-500' } });
  assertErrorIs(response, 500, 'Internal server error (request req-500)');
  assert.is((await broken.call('GET', '/v1/')).status, 200, 'the server itself keeps answering');
  await broken.close();
});

test.run();
