import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { assertError, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('spaces');
let t: TestServer;
let fx: OrganizationFixture;
let spaces: string;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
  spaces = `/v1/orgs/${fx.org.id}/spaces`;
});

const create = (body: Record<string, unknown> = {}) => t.call('POST', spaces, { token: fx.admin.token, body: { title: 'Handbook', ...body } });

test('POST spaces creates a space whose repository clones as Git Sync content', async () => {
  const created = await create({ emoji: '📘', template: { id: 'getting-started' } });
  assert.is(created.status, 201);
  assert.is(created.body.title, 'Handbook');
  assert.is(created.body.emoji, '📘');
  assert.match(created.body.revision, /^[0-9a-f]{40}$/);
  const gitdir = spaceGitdir(t.dataDir, created.body.id);
  execFileSync('git', ['-C', gitdir, 'fsck', '--strict']);
  const clone = mkdtempSync(path.join(tmpdir(), 'quire-clone-'));
  execFileSync('git', ['clone', '--quiet', gitdir, clone]);
  const summary = readFileSync(path.join(clone, 'SUMMARY.md'), 'utf8');
  assert.ok(summary.includes('[Quick start](quick-start.md)'));
  assert.ok(readFileSync(path.join(clone, 'quick-start/configuration.md'), 'utf8').includes('# Configuration'));
  rmSync(clone, { recursive: true, force: true });

  assertError(await create({ title: 'x'.repeat(51) }), 400, '"title"');
  assertError(await create({ template: { id: 'nope' } }), 400, 'Unknown template');
  assertError(await create({ parent: 'noCollection' }), 400, '"parent"');
  assertError(await t.call('POST', spaces, { token: fx.editor.token, body: { title: 'No' } }), 403, 'role');
  assertError(await t.call('POST', spaces, { token: fx.outsider.token, body: { title: 'No' } }), 404, 'not found');
});

test('GET, list and PATCH spaces; roles decide who reads and who edits', async () => {
  const space = (await create({ title: 'Readable' })).body;
  const path = `/v1/spaces/${space.id}`;
  const asReader = await t.call('GET', path, { token: fx.reader.token });
  assert.is(asReader.status, 200);
  assert.is(asReader.body.permissions.edit, false);
  assert.is(asReader.body.permissions.view, true);
  assertError(await t.call('GET', path, { token: fx.guest.token }), 404, 'not found');
  assertError(await t.call('GET', path, { token: fx.outsider.token }), 404, 'not found');
  assertError(await t.call('GET', path), 401, 'Authorization');

  const listed = await t.call('GET', spaces, { token: fx.reader.token });
  assert.ok(listed.body.items.some((item: { id: string }) => item.id === space.id));
  assert.is((await t.call('GET', spaces, { token: fx.guest.token })).body.count, 0, 'a guest reaches no space by default');

  const renamed = await t.call('PATCH', path, { token: fx.editor.token, body: { title: 'Renamed', emoji: '🚀' } });
  assert.is(renamed.status, 200);
  assert.is(renamed.body.title, 'Renamed');
  assertError(await t.call('PATCH', path, { token: fx.editor.token, body: { editMode: 'locked' } }), 403, 'admin');
  assertError(await t.call('PATCH', path, { token: fx.reader.token, body: { title: 'Nope' } }), 403, 'role');
  assertError(await t.call('PATCH', path, { token: fx.admin.token, body: { visibility: 'public' } }), 400, '"visibility"');

  const hidden = await t.call('PATCH', path, { token: fx.admin.token, body: { defaultLevel: null } });
  assert.is(hidden.body.defaultLevel, null);
  assertError(await t.call('GET', path, { token: fx.reader.token }), 404, 'not found');
  assert.is((await t.call('GET', path, { token: fx.admin.token })).status, 200, 'admins always reach');
  await t.call('PATCH', path, { token: fx.admin.token, body: { defaultLevel: 'edit' } });
  assert.is((await t.call('GET', path, { token: fx.reader.token })).body.permissions.edit, true, 'the space grants edit to every member');
});

test('a locked space refuses content writes with a clear 423', async () => {
  const space = (await create({ title: 'Locked' })).body;
  await t.call('PATCH', `/v1/spaces/${space.id}`, { token: fx.admin.token, body: { editMode: 'locked' } });
  assertError(await t.call('POST', `/v1/spaces/${space.id}/content/template`, { token: fx.admin.token, body: { id: 'getting-started' } }), 423, 'locked');
  await t.call('PATCH', `/v1/spaces/${space.id}`, { token: fx.admin.token, body: { editMode: 'live' } });
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/content/template`, { token: fx.admin.token, body: { id: 'getting-started' } })).status, 201);
  const pages = await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.reader.token });
  assert.equal(pages.body.pages.map((page: { title: string }) => page.title), ['Introduction', 'Quick start', 'FAQ']);
});

test('DELETE puts a space in the bin; restore brings it back', async () => {
  const space = (await create({ title: 'Binned' })).body;
  const path = `/v1/spaces/${space.id}`;
  assertError(await t.call('DELETE', path, { token: fx.editor.token }), 403, 'admin');
  assert.is((await t.call('DELETE', path, { token: fx.admin.token })).status, 205);
  assert.is((await t.call('DELETE', path, { token: fx.admin.token })).status, 204);
  assertError(await t.call('GET', path, { token: fx.admin.token }), 404, 'not found');
  assert.ok(!(await t.call('GET', spaces, { token: fx.admin.token })).body.items.some((item: { id: string }) => item.id === space.id));
  const restored = await t.call('POST', `${path}/restore`, { token: fx.admin.token });
  assert.is(restored.status, 200);
  assert.is(restored.body.deletedAt, undefined);
  assertError(await t.call('POST', `${path}/restore`, { token: fx.admin.token }), 400, 'not deleted');
});

test('duplicate copies the history; move orders siblings; transfer changes organization', async () => {
  const original = (await create({ title: 'Original', template: { id: 'getting-started' } })).body;
  const copy = await t.call('POST', `/v1/spaces/${original.id}/duplicate`, { token: fx.admin.token });
  assert.is(copy.status, 201);
  assert.is(copy.body.revision, original.revision, 'same history, same current revision');
  assert.is.not(copy.body.id, original.id);
  assertError(await t.call('POST', `/v1/spaces/${original.id}/duplicate`, { token: fx.editor.token }), 403, 'create');

  const moved = await t.call('POST', `/v1/spaces/${copy.body.id}/move`, { token: fx.admin.token, body: { position: { before: { type: 'space', space: original.id } } } });
  assert.is(moved.status, 200);
  assertError(await t.call('POST', `/v1/spaces/${copy.body.id}/move`, { token: fx.admin.token, body: { position: { before: { type: 'space', space: original.id } } } }), 409, 'change nothing');
  assertError(await t.call('POST', `/v1/spaces/${copy.body.id}/move`, { token: fx.admin.token, body: { position: { before: { type: 'space', space: 'elsewhere' } } } }), 400, 'Invalid position');

  const other = await t.call('POST', '/v1/orgs', { token: fx.admin.token, body: { title: 'Second org' } });
  const transferred = await t.call('POST', `/v1/spaces/${copy.body.id}/transfer`, { token: fx.admin.token, body: { organization: other.body.id } });
  assert.is(transferred.status, 200);
  assert.is(transferred.body.organization, other.body.id);
  assertError(await t.call('POST', `/v1/spaces/${copy.body.id}/transfer`, { token: fx.admin.token, body: { organization: other.body.id } }), 409, 'already');
  assertError(await t.call('POST', `/v1/spaces/${original.id}/transfer`, { token: fx.admin.token, body: { organization: 'nowhere' } }), 404, 'nowhere');
});

test('space admins through a default level can’t transfer out, nor move into collections they can’t create in', async () => {
  const space = (await create({ title: 'Delegated' })).body;
  await t.call('PATCH', `/v1/spaces/${space.id}`, { token: fx.admin.token, body: { defaultLevel: 'admin' } });
  const mine = await t.call('POST', '/v1/orgs', { token: fx.reader.token, body: { title: 'Reader’s own org' } });
  assertError(await t.call('POST', `/v1/spaces/${space.id}/transfer`, { token: fx.reader.token, body: { organization: mine.body.id } }), 403, 'admin role in its organization');
  const closed = await t.call('POST', `/v1/orgs/${fx.org.id}/collections`, { token: fx.admin.token, body: { title: 'Closed' } });
  await t.call('PATCH', `/v1/collections/${closed.body.id}`, { token: fx.admin.token, body: { defaultLevel: 'read' } });
  assertError(await t.call('POST', `/v1/spaces/${space.id}/move`, { token: fx.reader.token, body: { parent: closed.body.id } }), 403, 'create role');
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.admin.token })).body.parent, undefined, 'nothing moved');
});

test.run();
