import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

// Found by the fuzzer: a whole number beyond 2^53 in a body came back as 2.1018676812606683e+25.
const test = suite('whole numbers in bodies');
let t: TestServer;
let token = '';
let organizationId = '';

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    token = (await t.user()).token;
    organizationId = (await t.call('POST', '/v1/orgs', { token, body: { title: 'Numbers' } })).body.id;
  }),
);
test.after(async () => t?.close());

const instructions = (count: string) =>
  `{"instructions":{"object":"document","data":{},"nodes":[{"object":"block","type":"code","data":{"collapsedLineCount":${count}},"nodes":[{"object":"block","type":"code-line","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[]}]}]}]}]}}`;

const put = (body: string) =>
  fetch(`${t.url}/v1/orgs/${organizationId}/agent-instructions`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body }).then(async (response) => ({
    status: response.status,
    body: await response.json(),
    headers: response.headers,
  }));

test('a whole number beyond ±2^53 is refused, not rounded; one within is kept exactly', async () => {
  assertErrorIs(
    await put(instructions('21018676812606683358429184')),
    400,
    'Invalid request body: "instructions.nodes[0].data.collapsedLineCount" is a whole number beyond ±2^53, which can\'t be kept exactly',
  );
  const kept = await put(instructions(String(Number.MAX_SAFE_INTEGER)));
  assert.is(kept.status, 200);
  assert.is(kept.body.instructions.nodes[0].data.collapsedLineCount, Number.MAX_SAFE_INTEGER);
});

test.run();
