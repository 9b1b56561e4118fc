import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { maxBodyDepth } from '../../api/middleware/jsonBody.js';
import { assertErrorIs } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

const test = suite('request bodies');
const limit = 64 * 1024;
let t: TestServer;
let token: string;
let org: string;

test.before(
  reportingErrors(async () => {
    t = await startTestServer({ bodyLimitBytes: limit });
    token = (await t.user('bodies@example.com')).token;
    org = (await t.call('POST', '/v1/orgs', { token, body: { title: 'Bodies' } })).body.id;
  }),
);
test.after(async () => t.close());

const json = { 'content-type': 'application/json' };
const send = (method: string, path: string, body: string | Buffer, headers: Record<string, string> = json) =>
  fetch(t.url + path, { method, headers: { authorization: `Bearer ${token}`, ...headers }, body: typeof body === 'string' ? body : new Uint8Array(body) }).then(async (response) => ({
    status: response.status,
    body: await response.json(),
    headers: response.headers,
  }));

/** A document whose blocks nest `levels` deep: document → nodes → block → nodes → … */
function nestedDocument(levels: number) {
  let node: Record<string, unknown> = { object: 'text', leaves: [{ object: 'leaf', text: 'deep', marks: [] }] };
  for (let i = 0; i < levels; i++) node = { object: 'block', type: 'blockquote', data: {}, nodes: [node] };
  return { object: 'document', data: {}, nodes: [node] };
}

test('nesting deeper than the limit is a 400 naming it, for any body, before anything recurses', async () => {
  const deepData = '{"instructions":{"object":"document","nodes":[],"data":' + '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000) + '}}';
  assertErrorIs(await send('PUT', `/v1/orgs/${org}/agent-instructions`, deepData), 400, 'Request body nests objects and arrays deeper than the limit of 128 levels');
  assertErrorIs(await send('POST', '/v1/orgs', '['.repeat(maxBodyDepth + 1) + ']'.repeat(maxBodyDepth + 1)), 400, 'Request body nests objects and arrays deeper than the limit of 128 levels');
  // Built as text: JSON.stringify itself overflows on a document this deep.
  const block = '{"object":"block","type":"blockquote","data":{},"nodes":[';
  const deepDocument = '{"instructions":{"object":"document","data":{},"nodes":[' + block.repeat(1000) + ']}'.repeat(1000) + ']}}';
  assertErrorIs(await send('PUT', `/v1/orgs/${org}/agent-instructions`, deepDocument), 400, 'Request body nests objects and arrays deeper than the limit of 128 levels');
  // Brackets inside strings are text, not nesting.
  const created = await send('POST', '/v1/orgs', JSON.stringify({ title: '['.repeat(200) }));
  assert.is(created.status, 201, JSON.stringify(created.body));
});

test('a document as deep as the limit allows is stored and read back whole', async () => {
  // body → instructions → document → nodes → (block → nodes) × n → text → leaves → leaf → marks: 3 + 2n + 4 levels.
  const levels = Math.floor((maxBodyDepth - 7) / 2);
  const document = nestedDocument(levels);
  // Raw requests: checking a document this deep against the upstream schema (nested anyOf) takes
  // the test helper's validator exponential time; the server validates with its own schema.
  const put = await send('PUT', `/v1/orgs/${org}/agent-instructions`, JSON.stringify({ instructions: document }));
  assert.is(put.status, 200, JSON.stringify(put.body).slice(0, 300));
  const read = await fetch(`${t.url}/v1/orgs/${org}/agent-instructions`, { headers: { authorization: `Bearer ${token}` } });
  assert.is(read.status, 200);
  assert.equal(((await read.json()) as { instructions: unknown }).instructions, document);
  assertErrorIs(
    await send('PUT', `/v1/orgs/${org}/agent-instructions`, JSON.stringify({ instructions: nestedDocument(levels + 1) })),
    400,
    'Request body nests objects and arrays deeper than the limit of 128 levels',
  );
});

test('lone surrogates, NUL and invalid UTF-8 are refused with 400, not altered', async () => {
  assertErrorIs(
    await send('POST', '/v1/orgs', '{"title":"Lone \\ud800 high"}'),
    400,
    'Invalid request body: "title" contains a lone surrogate (an unpaired \\uD800-\\uDFFF escape), which is not text',
  );
  assertErrorIs(await send('POST', '/v1/orgs', '{"title":"Lone \\udc00 low"}'), 400, 'Invalid request body: "title" contains a lone surrogate (an unpaired \\uD800-\\uDFFF escape), which is not text');
  assertErrorIs(await send('POST', '/v1/orgs', '{"title":"Nul \\u0000 inside"}'), 400, 'Invalid request body: "title" contains a NUL character (\\u0000)');
  assertErrorIs(await send('POST', '/v1/orgs', '{"title":"ok","\\u0000":1}'), 400, 'Invalid request body: the body has a field name with a NUL character (\\u0000)');
  const invalid = Buffer.concat([Buffer.from('{"title":"Bad '), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
  assertErrorIs(await send('POST', '/v1/orgs', invalid), 400, 'Request body is not valid UTF-8');
  const encodedSurrogate = Buffer.concat([Buffer.from('{"title":"CESU '), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
  assertErrorIs(await send('POST', '/v1/orgs', encodedSurrogate), 400, 'Request body is not valid UTF-8');
  // A pair is a character: accepted and stored as sent.
  const pair = await send('POST', '/v1/orgs', '{"title":"Pair \\ud83d\\ude00 ok"}');
  assert.is(pair.status, 201);
  assert.is(pair.body.title, 'Pair 😀 ok');
  const titles = (await t.call('GET', '/v1/orgs', { token })).body.items.map((item: { title: string }) => item.title);
  assert.not.ok(
    titles.some((title: string) => title.includes('\uFFFD') || title.includes('\u0000')),
    'nothing refused was stored',
  );
});

test('media types are case-insensitive', async () => {
  for (const type of ['APPLICATION/JSON', 'Application/Json; Charset=UTF-8', 'application/json;charset="utf-8"', 'application/merge-patch+JSON']) {
    const created = await send('POST', '/v1/orgs', JSON.stringify({ title: `Case ${type}` }), { 'content-type': type });
    assert.is(created.status, 201, `${type}: ${JSON.stringify(created.body)}`);
  }
  assertErrorIs(await send('POST', '/v1/orgs', 'title=x', { 'content-type': 'TEXT/PLAIN' }), 415, 'Request bodies must be JSON (Content-Type: application/json), got text/plain');
});

test('gzip, deflate and br bodies are decoded; other codings and charsets are a 415 that says so', async () => {
  const body = (title: string) => Buffer.from(JSON.stringify({ title }));
  for (const [encoding, compress] of [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const) {
    const created = await send('POST', '/v1/orgs', compress(body(`Zipped ${encoding}`)), { ...json, 'content-encoding': encoding.toUpperCase() });
    assert.is(created.status, 201, `${encoding}: ${JSON.stringify(created.body)}`);
    assert.is(created.body.title, `Zipped ${encoding}`);
  }
  const twice = await send('POST', '/v1/orgs', brotliCompressSync(gzipSync(body('Twice'))), { ...json, 'content-encoding': 'gzip, br' });
  assert.is(twice.status, 201, JSON.stringify(twice.body));
  assertErrorIs(
    await send('POST', '/v1/orgs', body('x'), { ...json, 'content-encoding': 'compress' }),
    415,
    'Content-Encoding "compress" is not supported: send the body as gzip, deflate, br or identity',
  );
  assertErrorIs(await send('POST', '/v1/orgs', Buffer.from('not gzip at all'), { ...json, 'content-encoding': 'gzip' }), 400, 'Request body is not valid gzip data: incorrect header check');
  const latin1 = Buffer.from('{"title":"Caf\xe9"}', 'latin1');
  assertErrorIs(await send('POST', '/v1/orgs', latin1, { 'content-type': 'application/json; charset=latin1' }), 415, 'Request bodies must be UTF-8 (charset=utf-8), got charset=latin1');
  assertErrorIs(await send('POST', '/v1/orgs', body('x'), { 'content-type': 'application/json; charset=utf-16' }), 415, 'Request bodies must be UTF-8 (charset=utf-8), got charset=utf-16');
});

test('the body limit applies to the decompressed size: a zip bomb is a 413', async () => {
  const bomb = gzipSync(Buffer.from(JSON.stringify({ title: 'x'.repeat(50 * 1024 * 1024) })));
  assert.ok(bomb.length < limit, `the bomb itself is small (${bomb.length} bytes)`);
  const started = performance.now();
  assertErrorIs(await send('POST', '/v1/orgs', bomb, { ...json, 'content-encoding': 'gzip' }), 413, 'Request body, decompressed (gzip), is larger than the limit of 65536 bytes');
  assert.ok(performance.now() - started < 2000, 'refused without inflating it all');
  const justUnder = gzipSync(Buffer.from(JSON.stringify({ title: 'Under' }).padEnd(limit - 10, ' ')));
  assert.is((await send('POST', '/v1/orgs', justUnder, { ...json, 'content-encoding': 'gzip' })).status, 201);
});

test.run();
