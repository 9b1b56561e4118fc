import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { acceptInvitation, assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { siteMaker } from '../helpers/sites.js';
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

  assertErrorIs(await create({ title: 'x'.repeat(51) }), 400, 'Invalid request body: "title" must NOT have more than 50 characters');
  assertErrorIs(await create({ template: { id: 'nope' } }), 400, 'Unknown template "nope"');
  assertErrorIs(await create({ parent: 'noCollection' }), 400, '"parent" noCollection is not a collection of the organization');
  assertErrorIs(await t.call('POST', spaces, { token: fx.editor.token, body: { title: 'No' } }), 403, 'This operation needs the create role in the organization; you are edit');
  assertErrorIs(await t.call('POST', spaces, { token: fx.outsider.token, body: { title: 'No' } }), 404, `Organization ${fx.org.id} not found`);
});

test('GET, list and PATCH spaces; roles decide who reads and who edits', async () => {
  const space = (await create({ title: 'Readable' })).body;
  const path = `/v1/spaces/${space.id}`;
  const asReader = await t.call('GET', path, { token: fx.reader.token });
  assert.is(asReader.status, 200);
  assert.is(asReader.body.permissions.edit, false);
  assert.is(asReader.body.permissions.view, true);
  assertErrorIs(await t.call('GET', path, { token: fx.guest.token }), 404, `Space ${space.id} not found`);
  assertErrorIs(await t.call('GET', path, { token: fx.outsider.token }), 404, `Space ${space.id} not found`);
  assertErrorIs(await t.call('GET', path), 401, 'Authentication required: send an Authorization: Bearer <token> header');

  const listed = await t.call('GET', spaces, { token: fx.reader.token });
  assert.ok(listed.body.items.some((item: { id: string }) => item.id === space.id));
  assert.is((await t.call('GET', spaces, { token: fx.guest.token })).body.count, 0, 'a guest reaches no space by default');

  const renamed = await t.call('PATCH', path, { token: fx.editor.token, body: { title: 'Renamed', emoji: '🚀' } });
  assert.is(renamed.status, 200);
  assert.is(renamed.body.title, 'Renamed');
  const reread = await t.call('GET', path, { token: fx.editor.token });
  assert.equal([reread.body.title, reread.body.emoji], ['Renamed', '🚀'], 'every patched field is stored');
  assert.equal(reread.body, renamed.body, 'the PATCH answers what a later GET reads');
  assertErrorIs(await t.call('PATCH', path, { token: fx.editor.token, body: { editMode: 'locked' } }), 403, 'Changing editMode needs the admin role on the space; you have edit');
  assertErrorIs(await t.call('PATCH', path, { token: fx.reader.token, body: { title: 'Nope' } }), 403, 'This operation needs the edit role on the space; you have read');
  assertErrorIs(await t.call('PATCH', path, { token: fx.admin.token, body: { visibility: 'public' } }), 400, 'Invalid request body: "visibility" is not an accepted field');

  const hidden = await t.call('PATCH', path, { token: fx.admin.token, body: { defaultLevel: null } });
  assert.is(hidden.body.defaultLevel, null);
  assert.is((await t.call('GET', path, { token: fx.admin.token })).body.defaultLevel, null, 'the PATCH is stored');
  assertErrorIs(await t.call('GET', path, { token: fx.reader.token }), 404, `Space ${space.id} not found`);
  assert.is((await t.call('GET', path, { token: fx.admin.token })).status, 200, 'admins always reach');
  await t.call('PATCH', path, { token: fx.admin.token, body: { defaultLevel: 'edit' } });
  assert.is((await t.call('GET', path, { token: fx.admin.token })).body.defaultLevel, 'edit', 'the PATCH is stored');
  assert.is((await t.call('GET', path, { token: fx.reader.token })).body.permissions.edit, true, 'the space grants edit to every member');
});

test('a locked space refuses content writes with a clear 423', async () => {
  const space = (await create({ title: 'Locked' })).body;
  await t.call('PATCH', `/v1/spaces/${space.id}`, { token: fx.admin.token, body: { editMode: 'locked' } });
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.admin.token })).body.editMode, 'locked', 'the PATCH is stored');
  assertErrorIs(
    await t.call('POST', `/v1/spaces/${space.id}/content/template`, { token: fx.admin.token, body: { id: 'getting-started' } }),
    423,
    `Space ${space.id} is locked: unlock it (editMode "live") to change its content`,
  );
  await t.call('PATCH', `/v1/spaces/${space.id}`, { token: fx.admin.token, body: { editMode: 'live' } });
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.admin.token })).body.editMode, 'live', 'the PATCH is stored');
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/content/template`, { token: fx.admin.token, body: { id: 'getting-started' } })).status, 201);
  const pages = await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.reader.token });
  assert.equal(
    pages.body.pages.map((page: { title: string }) => page.title),
    ['Introduction', 'Quick start', 'FAQ'],
  );
});

test('DELETE puts a space in the bin; restore brings it back', async () => {
  const space = (await create({ title: 'Binned' })).body;
  const path = `/v1/spaces/${space.id}`;
  assertErrorIs(await t.call('DELETE', path, { token: fx.editor.token }), 403, 'This operation needs the admin role on the space; you have edit');
  assert.is((await t.call('DELETE', path, { token: fx.admin.token })).status, 205);
  assert.is((await t.call('DELETE', path, { token: fx.admin.token })).status, 204);
  assertErrorIs(await t.call('GET', path, { token: fx.admin.token }), 404, `Space ${space.id} not found`);
  assert.ok(!(await t.call('GET', spaces, { token: fx.admin.token })).body.items.some((item: { id: string }) => item.id === space.id));
  assertErrorIs(await t.call('POST', `${path}/restore`, { token: fx.creator.token }), 403, 'This operation needs the admin role on the space; you have create');
  assertErrorIs(await t.call('POST', `${path}/restore`, { token: fx.outsider.token }), 404, `Space ${space.id} not found`);
  assertErrorIs(await t.call('GET', path, { token: fx.admin.token }), 404, `Space ${space.id} not found`, 'a refused restore leaves it in the bin');
  const restored = await t.call('POST', `${path}/restore`, { token: fx.admin.token });
  assert.is(restored.status, 200);
  assert.is(restored.body.deletedAt, undefined);
  const reread = await t.call('GET', path, { token: fx.admin.token });
  assert.is(reread.status, 200, 'the restore is stored');
  assert.ok(
    (await t.call('GET', spaces, { token: fx.admin.token })).body.items.some((item: { id: string }) => item.id === space.id),
    'listed again',
  );
  assertErrorIs(await t.call('POST', `${path}/restore`, { token: fx.admin.token }), 409, `Space ${space.id} is not deleted`);
});

test('a duplicate has the primary branch only: the change requests stay with the original (loose and packed refs)', async () => {
  const original = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'With drafts', template: { id: 'getting-started' } } })).body;
  const packed = (await t.call('POST', `/v1/spaces/${original.id}/change-requests`, { token: fx.admin.token, body: { subject: 'Packed draft' } })).body;
  execFileSync('git', ['-C', spaceGitdir(t.dataDir, original.id), 'pack-refs', '--all']);
  const loose = (await t.call('POST', `/v1/spaces/${original.id}/change-requests`, { token: fx.admin.token, body: { subject: 'Loose draft' } })).body;
  const copy = (await t.call('POST', `/v1/spaces/${original.id}/duplicate`, { token: fx.admin.token })).body;
  const branches = (spaceId: string) =>
    execFileSync('git', ['-C', spaceGitdir(t.dataDir, spaceId), 'for-each-ref', '--format=%(refname)', 'refs/heads'], { encoding: 'utf8' })
      .trim()
      .split('\n');
  assert.equal(branches(copy.id), ['refs/heads/main']);
  assert.equal(branches(original.id).sort(), ['refs/heads/change-requests/1-packed-draft', 'refs/heads/change-requests/2-loose-draft', 'refs/heads/main']);
  assert.is((await t.call('GET', `/v1/spaces/${copy.id}/change-requests`, { token: fx.admin.token })).body.count, 0);
  assert.equal((await t.call('GET', `/v1/spaces/${original.id}/change-requests`, { token: fx.admin.token })).body.items.map((item: { id: string }) => item.id).sort(), [packed.id, loose.id].sort());
  execFileSync('git', ['-C', spaceGitdir(t.dataDir, copy.id), 'fsck', '--strict', '--no-dangling']);
});

test('duplicate copies the history; move orders siblings; transfer changes organization', async () => {
  const original = (await create({ title: 'Original', template: { id: 'getting-started' } })).body;
  const copy = await t.call('POST', `/v1/spaces/${original.id}/duplicate`, { token: fx.admin.token });
  assert.is(copy.status, 201);
  assert.is(copy.body.revision, original.revision, 'same history, same current revision');
  assert.is.not(copy.body.id, original.id);
  assertErrorIs(await t.call('POST', `/v1/spaces/${original.id}/duplicate`, { token: fx.editor.token }), 403, 'Duplicating a space needs the create role in its organization; you are edit');

  const moved = await t.call('POST', `/v1/spaces/${copy.body.id}/move`, { token: fx.admin.token, body: { position: { before: { type: 'space', space: original.id } } } });
  assert.is(moved.status, 200);
  // Only a collection lists its spaces in their order: move both into one and read it back.
  const shelf = (await t.call('POST', `/v1/orgs/${fx.org.id}/collections`, { token: fx.admin.token, body: { title: 'Shelf' } })).body;
  for (const id of [original.id, copy.body.id]) assert.is((await t.call('POST', `/v1/spaces/${id}/move`, { token: fx.admin.token, body: { parent: shelf.id } })).status, 200);
  const shelved = async () => (await t.call('GET', `/v1/collections/${shelf.id}/spaces`, { token: fx.admin.token })).body.items.map((item: { id: string }) => item.id);
  assert.equal(await shelved(), [original.id, copy.body.id], 'each move to the end of the shelf is stored');
  assert.is((await t.call('POST', `/v1/spaces/${copy.body.id}/move`, { token: fx.admin.token, body: { position: { before: { type: 'space', space: original.id } } } })).status, 200);
  assert.equal(await shelved(), [copy.body.id, original.id], 'the move is stored: the copy sits before the original');
  assertErrorIs(
    await t.call('POST', `/v1/spaces/${copy.body.id}/move`, { token: fx.admin.token, body: { position: { before: { type: 'space', space: original.id } } } }),
    409,
    'The space is already there: the move would change nothing',
  );
  assertErrorIs(
    await t.call('POST', `/v1/spaces/${copy.body.id}/move`, { token: fx.admin.token, body: { position: { before: { type: 'space', space: 'elsewhere' } } } }),
    400,
    'Invalid position: space elsewhere is not next to where the space goes',
  );

  const other = await t.call('POST', '/v1/orgs', { token: fx.admin.token, body: { title: 'Second org' } });
  const transferred = await t.call('POST', `/v1/spaces/${copy.body.id}/transfer`, { token: fx.admin.token, body: { organization: other.body.id } });
  assert.is(transferred.status, 200);
  assert.is(transferred.body.organization, other.body.id);
  assert.is((await t.call('GET', `/v1/spaces/${copy.body.id}`, { token: fx.admin.token })).body.organization, other.body.id, 'the transfer is stored');
  assert.ok(!(await t.call('GET', spaces, { token: fx.admin.token })).body.items.some((item: { id: string }) => item.id === copy.body.id), 'gone from the old organization');
  assert.ok(
    (await t.call('GET', `/v1/orgs/${other.body.id}/spaces`, { token: fx.admin.token })).body.items.some((item: { id: string }) => item.id === copy.body.id),
    'listed in the new one',
  );
  assertErrorIs(await t.call('POST', `/v1/spaces/${copy.body.id}/transfer`, { token: fx.admin.token, body: { organization: other.body.id } }), 409, 'The space is already in that organization');
  assertErrorIs(await t.call('POST', `/v1/spaces/${original.id}/transfer`, { token: fx.admin.token, body: { organization: 'nowhere' } }), 404, 'Organization nowhere not found');
});

test("a transferred space leaves the old organization's sites (a default handed on) and the grants given there", async () => {
  const sites = siteMaker(() => ({ t, fx }));
  const leaving = await sites.space('Leaving');
  const staying = await sites.space('Staying');
  const site = await sites.publishedSite('Docs', [leaving.id, staying.id]);
  const siteSpaces = `/v1/orgs/${fx.org.id}/sites/${site.id}/site-spaces`;
  assert.equal(
    (await t.call('GET', siteSpaces, { token: fx.admin.token })).body.items.map((item: { space: { id: string }; default: boolean }) => [item.space.id, item.default]),
    [
      [leaving.id, true],
      [staying.id, false],
    ],
  );
  // A guest of this organization with edit on the space through its invite link, who reads in the other.
  const other = (await t.call('POST', '/v1/orgs', { token: fx.admin.token, body: { title: 'Receiving' } })).body;
  const guest = await t.user();
  const spaceLink = (await t.call('POST', `/v1/orgs/${fx.org.id}/link-invites`, { token: fx.admin.token, body: { level: 'edit', space: leaving.id } })).body;
  assert.is((await t.call('POST', `/v1/orgs/${fx.org.id}/invites/${spaceLink.id}`, { token: guest.token })).status, 200);
  const readerLink = (await t.call('POST', `/v1/orgs/${other.id}/link-invites`, { token: fx.admin.token, body: { role: 'read' } })).body;
  assert.is((await t.call('POST', `/v1/orgs/${other.id}/invites/${readerLink.id}`, { token: guest.token })).status, 200);
  assert.is((await t.call('GET', `/v1/spaces/${leaving.id}`, { token: guest.token })).body.permissions.edit, true, 'the grant before');

  assert.is((await t.call('POST', `/v1/spaces/${leaving.id}/transfer`, { token: fx.admin.token, body: { organization: other.id } })).status, 200);
  assert.equal(
    (await t.call('GET', siteSpaces, { token: fx.admin.token })).body.items.map((item: { space: { id: string }; default: boolean }) => [item.space.id, item.default]),
    [[staying.id, true]],
  );
  const resolved = await t.call('POST', '/v1/urls/published', { body: { url: site.urls.published } });
  assert.is(resolved.body.space, staying.id, 'the site now opens on the space it kept');
  const afterwards = await t.call('GET', `/v1/spaces/${leaving.id}`, { token: guest.token });
  assert.is(afterwards.status, 200, 'read, as a reader of the organization it joined');
  assert.is(afterwards.body.permissions.edit, false, "the old organization's grant went with the move");
});

test('space admins through a default level can’t transfer out, nor move into collections they can’t create in', async () => {
  const space = (await create({ title: 'Delegated' })).body;
  await t.call('PATCH', `/v1/spaces/${space.id}`, { token: fx.admin.token, body: { defaultLevel: 'admin' } });
  const mine = await t.call('POST', '/v1/orgs', { token: fx.reader.token, body: { title: 'Reader’s own org' } });
  assertErrorIs(
    await t.call('POST', `/v1/spaces/${space.id}/transfer`, { token: fx.reader.token, body: { organization: mine.body.id } }),
    403,
    'Transferring a space needs the admin role in its organization; you are read',
  );
  const closed = await t.call('POST', `/v1/orgs/${fx.org.id}/collections`, { token: fx.admin.token, body: { title: 'Closed' } });
  await t.call('PATCH', `/v1/collections/${closed.body.id}`, { token: fx.admin.token, body: { defaultLevel: 'read' } });
  assertErrorIs(
    await t.call('POST', `/v1/spaces/${space.id}/move`, { token: fx.reader.token, body: { parent: closed.body.id } }),
    403,
    `Moving a space in collection ${closed.body.id} needs the create role there`,
  );
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.admin.token })).body.parent, undefined, 'nothing moved');
});

test('move, transfer and delete need the admin role on the space: a creator (one below) and a plain member get 403, and nothing changes', async () => {
  const shelf = (await t.call('POST', `/v1/orgs/${fx.org.id}/collections`, { token: fx.admin.token, body: { title: 'Guarded shelf' } })).body;
  const space = (await create({ title: 'Guarded', parent: shelf.id })).body;
  const sibling = (await create({ title: 'Sibling', parent: shelf.id })).body;
  const path = `/v1/spaces/${space.id}`;
  const creatorOrg = (await t.call('POST', '/v1/orgs', { token: fx.creator.token, body: { title: 'Creator’s own org' } })).body;
  for (const [who, role] of [
    [fx.creator, 'create'],
    [fx.editor, 'edit'],
  ] as const) {
    const refused = `This operation needs the admin role on the space; you have ${role}`;
    assertErrorIs(await t.call('POST', `${path}/move`, { token: who.token, body: { position: { after: { type: 'space', space: sibling.id } } } }), 403, refused);
    assertErrorIs(await t.call('POST', `${path}/transfer`, { token: who.token, body: { organization: creatorOrg.id } }), 403, refused);
    assertErrorIs(await t.call('DELETE', path, { token: who.token }), 403, refused);
  }
  const after = (await t.call('GET', path, { token: fx.admin.token })).body;
  assert.equal([after.organization, after.deletedAt], [fx.org.id, undefined], 'still here, not in the bin');
  const order = (await t.call('GET', `/v1/collections/${shelf.id}/spaces`, { token: fx.admin.token })).body.items.map((item: { id: string }) => item.id);
  assert.equal(order, [space.id, sibling.id], 'not moved');
});

test('transfer into an organization the caller doesn’t administer is refused', async () => {
  const space = (await create({ title: 'Stays home' })).body;
  const foreign = (await t.call('POST', '/v1/orgs', { token: fx.outsider.token, body: { title: 'Outsider’s second org' } })).body;
  await t.call('POST', `/v1/orgs/${foreign.id}/invites`, { token: fx.outsider.token, body: { emails: [{ email: fx.admin.email, role: 'create' }] } });
  await acceptInvitation(t, foreign.id, fx.admin);
  assertErrorIs(
    await t.call('POST', `/v1/spaces/${space.id}/transfer`, { token: fx.admin.token, body: { organization: foreign.id } }),
    403,
    'Transferring a space needs the admin role in the target organization',
  );
  assertErrorIs(await t.call('POST', `/v1/spaces/${space.id}/transfer`, { token: fx.admin.token, body: { organization: fx.elsewhere.id } }), 404, `Organization ${fx.elsewhere.id} not found`);
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.admin.token })).body.organization, fx.org.id, 'still in its organization');
});

test.run();
