import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkedBody } from '../helpers/upstream.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';
import { storedInstanceKey } from '../../storage/instanceKeys.js';

/** The instance's download-URL key as the database holds it. */
const downloadKey = async (server: TestServer) => Buffer.from(await storedInstanceKey(server.server.db, 'download-urls', 'unused'), 'base64');

// A file's downloadURL works where no Authorization header can be sent (an <img src>, a PDF
// renderer): it is signed and expires; an altered or expired signature is refused.
const test = suite('signed download URLs');
let t: TestServer;
let files: Array<{ name: string; downloadURL: string }>;

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    const admin = await t.user();
    const organizationId = (await t.call('POST', '/v1/orgs', { token: admin.token, body: { title: 'Downloads' } })).body.id;
    const space = (await t.call('POST', `/v1/orgs/${organizationId}/spaces`, { token: admin.token, body: { title: 'Files', template: { id: 'getting-started' } } })).body;
    files = (await t.call('GET', `/v1/spaces/${space.id}/content/files`, { token: admin.token })).body.items;
  }),
);
test.after(async () => t?.close());

/** A refusal read with a direct fetch, its body checked as the upstream error body. */
const refusal = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: await checkedBody('GET', new URL(url).pathname, response) };
};

test('a downloadURL answers the file without a token', async () => {
  const logo = files.find((file) => file.name === 'logo.png')!;
  const url = new URL(logo.downloadURL);
  assert.ok(url.searchParams.get('expires') && url.searchParams.get('signature'), logo.downloadURL);
  const response = await fetch(logo.downloadURL);
  assert.is(response.status, 200);
  assert.is(response.headers.get('content-type'), 'image/png');
  assert.equal([...new Uint8Array(await response.arrayBuffer()).slice(1, 4)], [0x50, 0x4e, 0x47], 'PNG bytes');
});

test('an altered signature, another file’s path or a missing part is refused with 403', async () => {
  const logo = new URL(files.find((file) => file.name === 'logo.png')!.downloadURL);
  const altered = new URL(logo);
  const signature = altered.searchParams.get('signature')!;
  altered.searchParams.set('signature', `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`);
  assert.equal(await refusal(altered.href), { status: 403, body: { error: { code: 403, message: 'The download link is not valid: its signature doesn’t match' } } });
  const later = new URL(logo);
  later.searchParams.set('expires', String(Number(later.searchParams.get('expires')) + 3600));
  assert.equal((await refusal(later.href)).status, 403, 'a longer life is not the signed one');
  const elsewhere = new URL(logo);
  elsewhere.pathname = elsewhere.pathname.replace(/files\/[^/]+\/download$/, 'files/someOtherFile/download');
  assert.equal(await refusal(elsewhere.href), { status: 403, body: { error: { code: 403, message: 'The download link is not valid: its signature doesn’t match' } } });
  const half = new URL(logo);
  half.searchParams.delete('signature');
  assert.equal(await refusal(half.href), { status: 403, body: { error: { code: 403, message: 'The download link is not valid: it needs one "expires" and one "signature"' } } });
  const bare = new URL(logo);
  bare.search = '';
  assert.is((await refusal(bare.href)).status, 401, 'no signature and no token');
});

test('an expired link, signed with the instance’s key, is refused with 403', async () => {
  const logo = new URL(files.find((file) => file.name === 'logo.png')!.downloadURL);
  const key = await downloadKey(t);
  const expires = Math.floor(Date.now() / 1000) - 60;
  const expired = new URL(logo);
  expired.searchParams.set('expires', String(expires));
  expired.searchParams.set('signature', createHmac('sha256', key).update(`${logo.pathname}\n${expires}`).digest('base64url'));
  assert.equal(await refusal(expired.href), { status: 403, body: { error: { code: 403, message: 'The download link has expired: read the file from the API again for a new one' } } });
});

test('a data folder from before keys were kept in the database keeps its key: links handed out stay valid', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-test-'));
  const legacy = randomBytes(32);
  mkdirSync(path.join(dataDir, 'keys'));
  writeFileSync(path.join(dataDir, 'keys', 'download-urls.key'), legacy);
  const older = await startTestServer({}, { dataDir });
  try {
    assert.ok((await downloadKey(older)).equals(legacy), 'the file’s key is the one stored');
    assert.not.ok((await downloadKey(t)).equals(legacy), 'another instance made its own');
  } finally {
    await older.close();
  }
});

test.run();
