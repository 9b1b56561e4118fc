import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { acceptInvitation, assertErrorIs, messages, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('collections');
let t: TestServer;
let fx: OrganizationFixture;
let collections: string;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
  collections = `/v1/orgs/${fx.org.id}/collections`;
});

const create = (body: Record<string, unknown>) => t.call('POST', collections, { token: fx.admin.token, body });
const space = async (title: string, parent?: string) => (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title, ...(parent ? { parent } : {}) } })).body;

test('create (optionally nested), list with and without nested ones, get, patch', async () => {
  const top = await create({ title: 'Products' });
  assert.is(top.status, 201);
  const nested = await create({ title: 'Product A', parent: top.body.id });
  assert.is(nested.body.parent, top.body.id);
  const all = await t.call('GET', collections, { token: fx.reader.token });
  assert.ok([top.body.id, nested.body.id].every((id) => all.body.items.some((item: { id: string }) => item.id === id)));
  const topOnly = await t.call('GET', `${collections}?nested=false`, { token: fx.reader.token });
  assert.ok(!topOnly.body.items.some((item: { id: string }) => item.id === nested.body.id));
  assert.is((await t.call('GET', `/v1/collections/${top.body.id}`, { token: fx.reader.token })).body.title, 'Products');
  const patched = await t.call('PATCH', `/v1/collections/${top.body.id}`, { token: fx.admin.token, body: { title: 'All products', description: 'Everything we ship', defaultLevel: 'comment' } });
  assert.is(patched.status, 200);
  const reread = (await t.call('GET', `/v1/collections/${top.body.id}`, { token: fx.admin.token })).body;
  assert.equal([reread.title, reread.description, reread.defaultLevel], ['All products', 'Everything we ship', 'comment']);
  assert.equal(patched.body, reread, 'the PATCH answers what a later GET reads');
  assertErrorIs(await create({ title: 'x'.repeat(51) }), 400, 'Invalid request body: "title" must NOT have more than 50 characters');
  assertErrorIs(await create({ title: 'Orphan', parent: 'nope' }), 400, '"parent" nope is not a collection of the organization');
  assertErrorIs(await t.call('POST', collections, { token: fx.editor.token, body: { title: 'No' } }), 403, 'This operation needs the create role in the organization; you are edit');
  assertErrorIs(
    await t.call('PATCH', `/v1/collections/${top.body.id}`, { token: fx.editor.token, body: { title: 'No' } }),
    403,
    'This operation needs the admin role on the collection; you have comment',
  );
  assertErrorIs(
    await t.call('PATCH', `/v1/collections/${top.body.id}`, { token: fx.creator.token, body: { title: 'No' } }),
    403,
    'This operation needs the admin role on the collection; you have comment',
  );
  assertErrorIs(await t.call('GET', `/v1/collections/${top.body.id}`, { token: fx.outsider.token }), 404, `Collection ${top.body.id} not found`);
  assert.is((await t.call('GET', `/v1/collections/${top.body.id}`, { token: fx.admin.token })).body.title, 'All products', 'refused patches changed nothing');
  assertErrorIs(await t.call('GET', '/v1/collections/nope', { token: fx.admin.token }), 404, 'Collection nope not found');
});

test('a collection’s default level reaches the spaces in it', async () => {
  const restricted = (await create({ title: 'Restricted' })).body;
  const inside = await space('Inside', restricted.id);
  assert.is((await t.call('GET', `/v1/spaces/${inside.id}`, { token: fx.reader.token })).status, 200);
  await t.call('PATCH', `/v1/collections/${restricted.id}`, { token: fx.admin.token, body: { defaultLevel: null } });
  assertErrorIs(await t.call('GET', `/v1/spaces/${inside.id}`, { token: fx.reader.token }), 404, `Space ${inside.id} not found`);
  const listed = await t.call('GET', `/v1/collections/${restricted.id}/spaces`, { token: fx.admin.token });
  assert.equal(
    listed.body.items.map((item: { id: string }) => item.id),
    [inside.id],
  );
  await t.call('PATCH', `/v1/collections/${restricted.id}`, { token: fx.admin.token, body: { defaultLevel: 'edit' } });
  assert.is((await t.call('GET', `/v1/spaces/${inside.id}`, { token: fx.reader.token })).body.permissions.edit, true);
});

test('move: into another collection, before a sibling; refuses cycles, strangers and no-ops', async () => {
  const a = (await create({ title: 'A' })).body;
  const b = (await create({ title: 'B' })).body;
  const child = (await create({ title: 'Child', parent: a.id })).body;
  const moved = await t.call('POST', `/v1/collections/${b.id}/move`, { token: fx.admin.token, body: { parent: a.id, position: { before: { type: 'collection', collection: child.id } } } });
  assert.is(moved.status, 200);
  assert.is(moved.body.parent, a.id);
  assert.is((await t.call('GET', `/v1/collections/${b.id}`, { token: fx.admin.token })).body.parent, a.id, 'the move is stored');
  const order = await t.call('GET', `${collections}?nested=true`, { token: fx.admin.token });
  const inA = order.body.items.filter((item: { parent?: string }) => item.parent === a.id).map((item: { id: string }) => item.id);
  assert.equal(inA, [b.id, child.id], 'B sits before Child');
  assertErrorIs(
    await t.call('POST', `/v1/collections/${b.id}/move`, { token: fx.creator.token, body: { parent: null } }),
    403,
    'This operation needs the admin role on the collection; you have create',
  );
  assertErrorIs(await t.call('POST', `/v1/collections/${b.id}/move`, { token: fx.outsider.token, body: { parent: null } }), 404, `Collection ${b.id} not found`);
  assertErrorIs(
    await t.call('POST', `/v1/collections/${a.id}/move`, { token: fx.admin.token, body: { parent: child.id } }),
    400,
    'Invalid position: a collection can’t move into itself or one of its own collections',
  );
  assertErrorIs(
    await t.call('POST', `/v1/collections/${b.id}/move`, { token: fx.admin.token, body: { parent: a.id, position: { before: { type: 'collection', collection: child.id } } } }),
    409,
    'The collection is already there: the move would change nothing',
  );
  assertErrorIs(
    await t.call('POST', `/v1/collections/${b.id}/move`, { token: fx.admin.token, body: { position: { after: { type: 'space', space: 'nope' } } } }),
    400,
    'Invalid position: space nope is not next to where the collection goes',
  );
});

test('many moves into one gap keep a clear order (siblings are renumbered when the gap wears out)', async () => {
  const box = (await create({ title: 'Ordering' })).body;
  const anchor = await space('Anchor', box.id);
  const movers = [await space('Mover A', box.id), await space('Mover B', box.id)];
  for (let i = 0; i < 70; i += 1) {
    const moved = await t.call('POST', `/v1/spaces/${movers[i % 2].id}/move`, { token: fx.admin.token, body: { position: { before: { type: 'space', space: anchor.id } } } });
    assert.is(moved.status, 200, `move ${i}: ${JSON.stringify(moved.body)}`);
  }
  const listed = await t.call('GET', `/v1/collections/${box.id}/spaces`, { token: fx.admin.token });
  assert.equal(
    listed.body.items.map((item: { title: string }) => item.title),
    ['Mover A', 'Mover B', 'Anchor'],
  );
});

test('transfer takes the collection and its spaces; nested ones can’t go alone', async () => {
  const box = (await create({ title: 'Box' })).body;
  const inner = (await create({ title: 'Inner', parent: box.id })).body;
  const inside = await space('In the box', inner.id);
  const other = (await t.call('POST', '/v1/orgs', { token: fx.admin.token, body: { title: 'Receiving org' } })).body;
  assertErrorIs(
    await t.call('POST', `/v1/collections/${inner.id}/transfer`, { token: fx.admin.token, body: { organization: other.id } }),
    412,
    'A collection inside another can’t be transferred: move it to the top level first',
  );
  const transferred = await t.call('POST', `/v1/collections/${box.id}/transfer`, { token: fx.admin.token, body: { organization: other.id } });
  assert.is(transferred.status, 200);
  assert.is(transferred.body.organization, other.id);
  assert.is((await t.call('GET', `/v1/collections/${box.id}`, { token: fx.admin.token })).body.organization, other.id, 'the transfer is stored');
  assert.is((await t.call('GET', `/v1/collections/${inner.id}`, { token: fx.admin.token })).body.organization, other.id, 'nested collections went along');
  assert.is((await t.call('GET', `/v1/spaces/${inside.id}`, { token: fx.admin.token })).body.organization, other.id, 'the spaces went along');
  assert.ok(!(await t.call('GET', collections, { token: fx.admin.token })).body.items.some((item: { id: string }) => item.id === box.id), 'gone from the old organization');
  assertErrorIs(await t.call('POST', `/v1/collections/${box.id}/transfer`, { token: fx.admin.token, body: { organization: other.id } }), 409, 'The collection is already in that organization');
});

test('transfer is refused to a plain member, and into an organization the caller doesn’t administer', async () => {
  const box = (await create({ title: 'Stays' })).body;
  const administered = (await t.call('POST', '/v1/orgs', { token: fx.admin.token, body: { title: 'Admin’s other org' } })).body;
  const foreign = (await t.call('POST', '/v1/orgs', { token: fx.outsider.token, body: { title: 'Not yours' } })).body;
  await t.call('POST', `/v1/orgs/${foreign.id}/invites`, { token: fx.outsider.token, body: { emails: [{ email: fx.admin.email, role: 'create' }] } });
  await acceptInvitation(t, foreign.id, fx.admin);
  assertErrorIs(
    await t.call('POST', `/v1/collections/${box.id}/transfer`, { token: fx.creator.token, body: { organization: administered.id } }),
    403,
    'This operation needs the admin role on the collection; you have create',
  );
  assertErrorIs(
    await t.call('POST', `/v1/collections/${box.id}/transfer`, { token: fx.admin.token, body: { organization: foreign.id } }),
    403,
    'Transferring a collection needs the admin role in the target organization',
  );
  assertErrorIs(await t.call('POST', `/v1/collections/${box.id}/transfer`, { token: fx.admin.token, body: { organization: 'nowhere' } }), 404, 'Organization nowhere not found');
  assertErrorIs(await t.call('POST', `/v1/collections/${box.id}/transfer`, { token: fx.outsider.token, body: { organization: foreign.id } }), 404, messages.notFoundFor(`/v1/collections/${box.id}`));
  assert.is((await t.call('GET', `/v1/collections/${box.id}`, { token: fx.admin.token })).body.organization, fx.org.id, 'still where it was');
});

test('delete: what the collection held moves up; 205 then 404', async () => {
  const parent = (await create({ title: 'Parent' })).body;
  const doomed = (await create({ title: 'Doomed', parent: parent.id })).body;
  const survivor = await space('Survivor', doomed.id);
  assertErrorIs(await t.call('DELETE', `/v1/collections/${doomed.id}`, { token: fx.editor.token }), 403, 'This operation needs the admin role on the collection; you have edit');
  assert.is((await t.call('DELETE', `/v1/collections/${doomed.id}`, { token: fx.admin.token })).status, 205);
  assertErrorIs(await t.call('GET', `/v1/collections/${doomed.id}`, { token: fx.admin.token }), 404, `Collection ${doomed.id} not found`);
  assert.is((await t.call('GET', `/v1/spaces/${survivor.id}`, { token: fx.admin.token })).body.parent, parent.id);
});

test.run();
