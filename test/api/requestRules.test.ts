import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';
import { gitOut } from '../helpers/gitClient.js';

// What the outside probe found (issue 10, defects 5 and 6, and the download headers), held.
const test = suite('request rules');
let t: TestServer;
let admin: { token: string };
let organizationId = '';

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    admin = await t.user();
    organizationId = (await t.call('POST', '/v1/orgs', { token: admin.token, body: { title: 'Rules' } })).body.id;
  }),
);
test.after(async () => t?.close());

test('a move names where to: an empty body or none is a 400, for spaces and collections', async () => {
  const space = (await t.call('POST', `/v1/orgs/${organizationId}/spaces`, { token: admin.token, body: { title: 'Stay' } })).body;
  const collection = (await t.call('POST', `/v1/orgs/${organizationId}/collections`, { token: admin.token, body: { title: 'Stay' } })).body;
  for (const item of [`/v1/spaces/${space.id}`, `/v1/collections/${collection.id}`]) {
    assertErrorIs(await t.call('POST', `${item}/move`, { token: admin.token, body: {} }), 400, 'Invalid request body: the body must have at least 1 field');
    assertErrorIs(await t.call('POST', `${item}/move`, { token: admin.token }), 400, 'A JSON request body is required');
  }
  assertErrorIs(
    await t.call('POST', `/v1/spaces/${space.id}/move`, { token: admin.token, body: { position: { before: { type: 'collection' } } } }),
    400,
    'Invalid position: a collection sibling needs its id in "collection"',
  );
  const listed = (await t.call('GET', `/v1/orgs/${organizationId}/spaces`, { token: admin.token })).body.items.map((item: { id: string }) => item.id);
  assert.equal(listed, [space.id], 'nothing moved');
});

test('numbers in the query are plain decimal digits', async () => {
  const spaces = `/v1/orgs/${organizationId}/spaces`;
  for (const loose of ['%20', '1e3', '0x10', '+5', '']) {
    assertErrorIs(await t.call('GET', `${spaces}?limit=${loose}`, { token: admin.token }), 400, 'Invalid query parameter: "limit" must be a whole number written in decimal digits');
  }
  assert.is((await t.call('GET', `${spaces}?limit=5`, { token: admin.token })).status, 200);
  assertErrorIs(await t.call('GET', `${spaces}?limit=-1`, { token: admin.token }), 400, 'Invalid query parameter: "limit" must be >= 0');
});

test('downloads are never sniffed, and what a browser would run comes as an attachment', async () => {
  const space = (await t.call('POST', `/v1/orgs/${organizationId}/spaces`, { token: admin.token, body: { title: 'Files', template: { id: 'getting-started' } } })).body;
  // An SVG and an HTML file arrive through git, as a user's push would bring them.
  const clone = mkdtempSync(path.join(tmpdir(), 'quire-files-'));
  try {
    const git = (...args: string[]) => gitOut(clone, ...args);
    git('clone', '--quiet', path.join(t.dataDir, 'spaces', `${space.id}.git`), '.');
    mkdirSync(path.join(clone, '.gitbook/assets'), { recursive: true });
    writeFileSync(path.join(clone, '.gitbook/assets/drawing.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    writeFileSync(path.join(clone, '.gitbook/assets/page.html'), '<script>alert(1)</script>');
    git('add', '.');
    git('commit', '--quiet', '-m', 'Add files');
    git('push', '--quiet', 'origin', 'main');
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
  const files = (await t.call('GET', `/v1/spaces/${space.id}/content/files`, { token: admin.token })).body.items as Array<{ name: string; downloadURL: string }>;
  const download = async (name: string) => {
    const file = files.find((candidate) => candidate.name === name)!;
    return fetch(file.downloadURL, { headers: { Authorization: `Bearer ${admin.token}` } });
  };
  for (const [name, disposition] of [
    ['logo.png', "inline; filename*=UTF-8''logo.png"],
    ['drawing.svg', "attachment; filename*=UTF-8''drawing.svg"],
    ['page.html', "attachment; filename*=UTF-8''page.html"],
  ] as const) {
    const response = await download(name);
    assert.is(response.status, 200, name);
    assert.is(response.headers.get('x-content-type-options'), 'nosniff', name);
    assert.is(response.headers.get('content-disposition'), disposition, name);
  }
});

test('a space’s merge rules carry what each rule needs: users for the reviewer rules, an expression for custom', async () => {
  const space = (await t.call('POST', `/v1/orgs/${organizationId}/spaces`, { token: admin.token, body: { title: 'Rules' } })).body;
  const patch = (rules: unknown[]) => t.call('PATCH', `/v1/spaces/${space.id}`, { token: admin.token, body: { mergeRules: { type: 'rules', rules } } });
  assertErrorIs(await patch([{ rule: 'require_specific_reviewers' }]), 400, 'Invalid mergeRules: rule "require_specific_reviewers" needs a non-empty "users" list');
  assertErrorIs(await patch([{ rule: 'custom' }]), 400, 'Invalid mergeRules: rule "custom" needs an "expression"');
  assert.equal((await t.call('GET', `/v1/spaces/${space.id}`, { token: admin.token })).body.mergeRules, { type: 'inherit' }, 'nothing stored');
});

test.run();
