import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('invite links to spaces and collections');
let t: TestServer;
let fx: OrganizationFixture;
let links: string;
let space: string;
let other: string;
let collection: string;
let inCollection: string;

withOrganization(test, (setup) => {
  ({ t, fx } = setup);
  links = `/v1/orgs/${fx.org.id}/link-invites`;
});

test.before(async () => {
  const create = async (path: string, body: Record<string, unknown>) => {
    const created = await t.call('POST', path, { token: fx.admin.token, body });
    assert.is(created.status, 201, JSON.stringify(created.body));
    return created.body.id as string;
  };
  space = await create(`/v1/orgs/${fx.org.id}/spaces`, { title: 'Shared' });
  other = await create(`/v1/orgs/${fx.org.id}/spaces`, { title: 'Not shared' });
  collection = await create(`/v1/orgs/${fx.org.id}/collections`, { title: 'Shared shelf' });
  inCollection = await create(`/v1/orgs/${fx.org.id}/spaces`, { title: 'On the shelf', parent: collection });
});

const join = (inviteId: string, token: string) => t.call('POST', `/v1/orgs/${fx.org.id}/invites/${inviteId}`, { token });

test('create, read and PATCH links to a space and to a collection', async () => {
  const toSpace = await t.call('POST', links, { token: fx.admin.token, body: { level: 'read', space } });
  assert.is(toSpace.status, 201, JSON.stringify(toSpace.body));
  assert.is(toSpace.body.role, 'read');
  const toCollection = await t.call('POST', links, { token: fx.admin.token, body: { level: 'edit', collection } });
  assert.is(toCollection.status, 201, JSON.stringify(toCollection.body));
  const patched = await t.call('PATCH', `${links}/${toSpace.body.id}`, { token: fx.admin.token, body: { level: 'comment' } });
  assert.is(patched.status, 200);
  assert.is(patched.body.role, 'comment');
  assert.is((await t.call('GET', `${links}/${toSpace.body.id}`, { token: fx.admin.token })).body.role, 'comment');
  assertErrorIs(await t.call('PATCH', `${links}/${toSpace.body.id}`, { token: fx.admin.token, body: { role: 'edit' } }), 400, '"level" is required for this invite');
  assertErrorIs(
    await t.call('PATCH', `${links}/${toSpace.body.id}`, { token: fx.admin.token, body: { level: null } }),
    400,
    '"level" must be a role for an invite to a space or collection: it is what the link grants there',
  );

  assertErrorIs(await t.call('POST', links, { token: fx.admin.token, body: { level: 'read', space: 'noSpace' } }), 400, 'Space noSpace not found in this organization');
  assertErrorIs(await t.call('POST', links, { token: fx.admin.token, body: { level: 'read', collection: 'noCollection' } }), 400, 'Collection noCollection not found in this organization');
  assertErrorIs(await t.call('POST', links, { token: fx.admin.token, body: { role: 'read', space } }), 400, 'An invite to a space or collection takes "level", not "role"');
  assertErrorIs(await t.call('POST', links, { token: fx.admin.token, body: { space } }), 400, '"level" is required with "space" or "collection"');
  assertErrorIs(await t.call('POST', links, { token: fx.admin.token, body: { level: 'read', space, collection } }), 400, 'An invite goes to a space or to a collection, not both');
  const elsewhere = (await t.call('GET', '/v1/orgs', { token: fx.outsider.token })).body.items[0].id;
  const foreign = await t.call('POST', `/v1/orgs/${elsewhere}/spaces`, { token: fx.outsider.token, body: { title: 'Foreign' } });
  assertErrorIs(await t.call('POST', links, { token: fx.admin.token, body: { level: 'read', space: foreign.body.id } }), 400, `Space ${foreign.body.id} not found in this organization`);
});

test('joining with a space link: that level on that space only, as a guest of the organization', async () => {
  const link = await t.call('POST', links, { token: fx.admin.token, body: { level: 'edit', space } });
  const joiner = await t.user();
  assert.is((await join(link.body.id, joiner.token)).status, 200);
  const member = await t.call('GET', `/v1/orgs/${fx.org.id}/members/${joiner.id}`, { token: fx.admin.token });
  assert.is(member.body.role, null, 'a guest of the organization');
  const shared = await t.call('GET', `/v1/spaces/${space}`, { token: joiner.token });
  assert.is(shared.status, 200);
  assert.is(shared.body.permissions.edit, true);
  assert.is(shared.body.permissions.admin, false);
  const renamed = await t.call('PATCH', `/v1/spaces/${space}`, { token: joiner.token, body: { title: 'Shared, edited' } });
  assert.is(renamed.status, 200, 'edit on that space');
  assertErrorIs(await t.call('GET', `/v1/spaces/${other}`, { token: joiner.token }), 404, `Space ${other} not found`);
  assertErrorIs(await t.call('GET', `/v1/spaces/${inCollection}`, { token: joiner.token }), 404, `Space ${inCollection} not found`);
  const listed = await t.call('GET', `/v1/orgs/${fx.org.id}/members/${joiner.id}/spaces`, { token: fx.admin.token });
  assert.equal(
    listed.body.items.map((item: { permission: string; space: { id: string } }) => [item.space.id, item.permission]),
    [[space, 'edit']],
    'the member’s spaces: that one, with its level',
  );
  const ownList = await t.call('GET', `/v1/orgs/${fx.org.id}/spaces`, { token: joiner.token });
  assert.equal(
    ownList.body.items.map((item: { id: string }) => item.id),
    [space],
    'the organization’s spaces, as the joiner sees them: that one',
  );
  assert.is(ownList.body.items[0].permissions.edit, true);
});

test('a collection link reaches the collection and what is inside it; a grant never lowers a role', async () => {
  const link = await t.call('POST', links, { token: fx.admin.token, body: { level: 'read', collection } });
  const joiner = await t.user();
  assert.is((await join(link.body.id, joiner.token)).status, 200);
  assert.is((await t.call('GET', `/v1/collections/${collection}`, { token: joiner.token })).status, 200);
  const inside = await t.call('GET', `/v1/spaces/${inCollection}`, { token: joiner.token });
  assert.is(inside.status, 200);
  assert.is(inside.body.permissions.edit, false, 'read only');
  assertErrorIs(await t.call('GET', `/v1/spaces/${other}`, { token: joiner.token }), 404, `Space ${other} not found`);

  assert.is((await join(link.body.id, fx.editor.token)).status, 200);
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/members/${fx.editor.id}`, { token: fx.admin.token })).body.role, 'edit', 'a member keeps their role');
  assert.is((await t.call('GET', `/v1/spaces/${inCollection}`, { token: fx.editor.token })).body.permissions.edit, true, 'and their edit rights');
});

test('leaving the organization drops the grants; a link to a deleted space answers 404', async () => {
  const link = await t.call('POST', links, { token: fx.admin.token, body: { level: 'read', space: other } });
  const joiner = await t.user();
  await join(link.body.id, joiner.token);
  assert.is((await t.call('GET', `/v1/spaces/${other}`, { token: joiner.token })).status, 200);
  assert.is((await t.call('DELETE', `/v1/orgs/${fx.org.id}/members/${joiner.id}`, { token: joiner.token })).status, 205);
  const asGuest = await t.call('POST', links, { token: fx.admin.token, body: { role: null } });
  await join(asGuest.body.id, joiner.token);
  assertErrorIs(await t.call('GET', `/v1/spaces/${other}`, { token: joiner.token }), 404, `Space ${other} not found`);

  assert.is((await t.call('DELETE', `/v1/spaces/${other}`, { token: fx.admin.token })).status, 205);
  assertErrorIs(await join(link.body.id, (await t.user()).token), 404, `The space of invite ${link.body.id} no longer exists`);
});

test.run();
