import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';
import { assertErrorBody, assertUpstreamResponse, checkedBody } from '../helpers/upstream.js';

// The schema checker every test relies on must refuse what upstream doesn't describe: real
// answers of the server pass, and the same answers with one thing wrong fail.
const test = suite('upstream schema checker');
let t: TestServer;
let fx: OrganizationFixture;
test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    fx = await organizationWithMembers(t);
  }),
);
test.after(async () => t?.close());

const copy = <T>(value: T): T => structuredClone(value);

test('a real user passes; a misspelled field, a nested extra field or a missing one fails', async () => {
  const user = (await t.call('GET', '/v1/user', { token: fx.admin.token })).body;
  assertUpstreamResponse('GET', '/v1/user', 200, user);
  const misspelled = copy(user);
  misspelled.emial = misspelled.email;
  delete misspelled.email;
  assert.throws(() => assertUpstreamResponse('GET', '/v1/user', 200, misspelled), /unevaluated properties \{"unevaluatedProperty":"emial"\}/);
  const nested = copy(user);
  nested.urls.surprise = 'x';
  assert.throws(() => assertUpstreamResponse('GET', '/v1/user', 200, nested), /\/urls must NOT have unevaluated properties \{"unevaluatedProperty":"surprise"\}/);
  const missing = copy(user);
  delete missing.id;
  assert.throws(() => assertUpstreamResponse('GET', '/v1/user', 200, missing), /must have required property 'id'/);
});

test('a list (allOf of List and its items) passes; an extra field at the top or in an item fails', async () => {
  const path = `/v1/orgs/${fx.org.id}/members`;
  const list = (await t.call('GET', path, { token: fx.admin.token })).body;
  assert.is(list.items.length, 5, 'admin, creator, reader, editor, guest');
  assertUpstreamResponse('GET', path, 200, list);
  assertUpstreamResponse('GET', path, 200, { ...copy(list), next: { page: 'abc' }, count: 4 });
  assert.throws(() => assertUpstreamResponse('GET', path, 200, { ...copy(list), total: 4 }), /\(root\) must NOT have unevaluated properties \{"unevaluatedProperty":"total"\}/);
  const item = copy(list);
  item.items[0].user.emial = 'x@example.com';
  assert.throws(() => assertUpstreamResponse('GET', path, 200, item), /\/items\/0\/user must NOT have unevaluated properties \{"unevaluatedProperty":"emial"\}/);
});

test('an organization passes; an extra field in it fails', async () => {
  const path = `/v1/orgs/${fx.org.id}`;
  const org = (await t.call('GET', path, { token: fx.admin.token })).body;
  assertUpstreamResponse('GET', path, 200, org);
  assert.throws(() => assertUpstreamResponse('GET', path, 200, { ...copy(org), ownerId: fx.admin.id }), /unevaluatedProperty":"ownerId"/);
});

test('error bodies are exactly {error: {code, message}} with the status as code', () => {
  assertErrorBody(404, { error: { code: 404, message: 'Not found' } });
  assert.throws(() => assertErrorBody(404, { error: { code: 400, message: 'Not found' } }), /has code 400, not the status/);
  assert.throws(() => assertErrorBody(404, { error: { code: 404, message: 'Not found', stack: 'at x' } }), /beside code and message: stack/);
  assert.throws(() => assertErrorBody(404, { error: { code: 404, message: 'Not found' }, requestId: 'r' }), /fields beside "error": requestId/);
  assert.throws(() => assertErrorBody(404, { error: { code: 404 } }), /has no message/);
  assert.throws(() => assertErrorBody(404, 'Not Found'), /is not a JSON object/);
  assert.throws(() => assertUpstreamResponse('GET', '/v1/user', 401, {}), /GET \/v1\/user \(401\) has no "error" object/);
});

test('responses read with a direct fetch are checked too', async () => {
  const path = `/v1/orgs/${fx.org.id}`;
  const ok = await checkedBody('GET', path, await fetch(t.url + path, { headers: { authorization: `Bearer ${fx.admin.token}` } }));
  assert.is((ok as { id: string }).id, fx.org.id);
  const refused = await checkedBody('GET', path, await fetch(t.url + path));
  assert.is((refused as { error: { code: number } }).error.code, 401);
  const notJson = new Response('{"id":"x"}', { status: 200, headers: { 'content-type': 'application/json' } });
  await checkedBody('GET', path, notJson).then(
    () => assert.unreachable('an organization without its fields passed'),
    (error: Error) => assert.match(error.message, /must have required property 'title'/),
  );
});

test.run();
