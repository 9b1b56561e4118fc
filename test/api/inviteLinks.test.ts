import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, assertGuarded, messages, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('invite links');
const adminOnly = () => ({ who: fx.creator, message: messages.needsOrgRole('admin', 'create') });
let t: TestServer;
let fx: OrganizationFixture;
let links: string;

withOrganization(test, (setup) => {
  ({ t, fx } = setup);
  links = `/v1/orgs/${fx.org.id}/link-invites`;
});

test('create, list, read and update an organization invite link', async () => {
  const created = await t.call('POST', links, { token: fx.admin.token, body: { role: 'edit' } });
  assert.is(created.status, 201);
  assert.is(created.body.role, 'edit');
  assert.is(created.body.redundant, false);
  const readOnly = await t.call('POST', links, { token: fx.admin.token, body: { role: 'read' } });
  assert.is(readOnly.body.redundant, true, 'the organization default role is already read');

  const list = await t.call('GET', links, { token: fx.admin.token });
  assert.is(list.status, 200);
  assert.is(list.body.count, 2);
  assert.is((await t.call('GET', `${links}/${created.body.id}`, { token: fx.admin.token })).body.role, 'edit');
  const updated = await t.call('PATCH', `${links}/${created.body.id}`, { token: fx.admin.token, body: { role: 'review' } });
  assert.is(updated.status, 200);
  assert.is(updated.body.role, 'review');
  const reread = await t.call('GET', `${links}/${created.body.id}`, { token: fx.admin.token });
  assert.is(reread.body.role, 'review', 'the PATCH is stored');
  assert.equal(updated.body, reread.body);

  assertErrorIs(await t.call('POST', links, { token: fx.admin.token, body: {} }), 400, '"role" is required');
  assertErrorIs(
    await t.call('POST', links, { token: fx.admin.token, body: { role: 'king' } }),
    400,
    'Invalid request body: "role" must be one of "admin", "create", "review", "edit", "comment", "read", null',
  );
  assertErrorIs(await t.call('POST', links, { token: fx.admin.token, body: { level: 'read', space: 'noSpace' } }), 400, 'Space noSpace not found in this organization');
  assertErrorIs(await t.call('POST', links, { token: fx.admin.token, body: { level: 'read' } }), 400, '"level" goes with "space" or "collection"; an organization invite takes "role"');
  assertErrorIs(await t.call('PATCH', `${links}/${created.body.id}`, { token: fx.admin.token, body: {} }), 400, '"role" is required for this invite');
  assertErrorIs(await t.call('GET', `${links}/unknown`, { token: fx.admin.token }), 404, `Invite link unknown not found in organization ${fx.org.id}`);
  assertErrorIs(await t.call('PATCH', `${links}/unknown`, { token: fx.admin.token, body: { role: 'read' } }), 404, `Invite link unknown not found in organization ${fx.org.id}`);
  await assertGuarded(t, fx, 'POST', links, { body: { role: 'read' }, tooLow: adminOnly() });
  await assertGuarded(t, fx, 'GET', links, { tooLow: adminOnly() });
  await assertGuarded(t, fx, 'GET', `${links}/${created.body.id}`, { tooLow: adminOnly() });
  await assertGuarded(t, fx, 'PATCH', `${links}/${created.body.id}`, { body: { role: 'read' }, tooLow: adminOnly() });
});

test('joining with an invite link; links can be turned off', async () => {
  const link = await t.call('POST', links, { token: fx.admin.token, body: { role: 'comment' } });
  const newcomer = await t.user();
  const joined = await t.call('POST', `/v1/orgs/${fx.org.id}/invites/${link.body.id}`, { token: newcomer.token });
  assert.is(joined.status, 200);
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/members/${newcomer.id}`, { token: newcomer.token })).body.role, 'comment');
  assertErrorIs(await t.call('POST', `/v1/orgs/${fx.org.id}/invites/unknown`, { token: newcomer.token }), 404, 'Invite unknown not found');
  const eager = await t.user();
  const racing = await Promise.all(Array.from({ length: 5 }, () => t.call('POST', `/v1/orgs/${fx.org.id}/invites/${link.body.id}`, { token: eager.token })));
  assert.equal(
    racing.map((r) => r.status),
    [200, 200, 200, 200, 200],
    'concurrent joins of one user all succeed',
  );
  assertErrorIs(await t.call('POST', `/v1/orgs/${fx.org.id}/invites/${link.body.id}`), 401, 'Authentication required: send an Authorization: Bearer <token> header');

  await t.call('PATCH', `/v1/orgs/${fx.org.id}`, { token: fx.admin.token, body: { inviteLinks: false } });
  const late = await t.user();
  assertErrorIs(await t.call('POST', `/v1/orgs/${fx.org.id}/invites/${link.body.id}`, { token: late.token }), 403, 'This organization has turned invite links off');
  await t.call('PATCH', `/v1/orgs/${fx.org.id}`, { token: fx.admin.token, body: { inviteLinks: true } });
});

test('DELETE an invite link: 205 when deleted, 204 when there was none', async () => {
  const link = await t.call('POST', links, { token: fx.admin.token, body: { role: 'read' } });
  const path = `${links}/${link.body.id}`;
  await assertGuarded(t, fx, 'DELETE', path, { tooLow: adminOnly() });
  assert.is((await t.call('DELETE', path, { token: fx.admin.token })).status, 205);
  assert.is((await t.call('DELETE', path, { token: fx.admin.token })).status, 204);
  assertErrorIs(await t.call('GET', path, { token: fx.admin.token }), 404, `Invite link ${link.body.id} not found in organization ${fx.org.id}`);
  const stranger = await t.user();
  assertErrorIs(await t.call('POST', `/v1/orgs/${fx.org.id}/invites/${link.body.id}`, { token: stranger.token }), 404, `Invite ${link.body.id} not found`);
});

test('an invite link of another organization is not found under this organization’s path', async () => {
  const theirs = `/v1/orgs/${fx.elsewhere.id}/link-invites`;
  const foreign = await t.call('POST', theirs, { token: fx.outsider.token, body: { role: 'edit' } });
  assert.is(foreign.status, 201);
  const here = `${links}/${foreign.body.id}`;
  const notHere = `Invite link ${foreign.body.id} not found in organization ${fx.org.id}`;
  assertErrorIs(await t.call('GET', here, { token: fx.admin.token }), 404, notHere);
  assertErrorIs(await t.call('PATCH', here, { token: fx.admin.token, body: { role: 'admin' } }), 404, notHere);
  assert.is((await t.call('DELETE', here, { token: fx.admin.token })).status, 204, 'nothing of this organization to delete');
  assertErrorIs(await t.call('POST', `/v1/orgs/${fx.org.id}/invites/${foreign.body.id}`, { token: (await t.user()).token }), 404, `Invite ${foreign.body.id} not found`);
  const intact = await t.call('GET', `${theirs}/${foreign.body.id}`, { token: fx.outsider.token });
  assert.is(intact.body.role, 'edit', 'the other organization’s link is untouched');
});

test.run();
