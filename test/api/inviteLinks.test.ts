import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertError, assertGuarded, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('invite links');
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

  assertError(await t.call('POST', links, { token: fx.admin.token, body: {} }), 400, '"role" is required');
  assertError(await t.call('POST', links, { token: fx.admin.token, body: { role: 'king' } }), 400, '"role"');
  assertError(await t.call('POST', links, { token: fx.admin.token, body: { level: 'read', space: 'noSpace' } }), 400, 'noSpace');
  assertError(await t.call('POST', links, { token: fx.admin.token, body: { level: 'read' } }), 400, '"level"');
  assertError(await t.call('PATCH', `${links}/${created.body.id}`, { token: fx.admin.token, body: {} }), 400, '"role" is required');
  assertError(await t.call('GET', `${links}/unknown`, { token: fx.admin.token }), 404, 'unknown');
  assertError(await t.call('PATCH', `${links}/unknown`, { token: fx.admin.token, body: { role: 'read' } }), 404, 'unknown');
  await assertGuarded(t, fx, 'POST', links, { body: { role: 'read' }, tooLow: fx.editor });
  await assertGuarded(t, fx, 'GET', links, { tooLow: fx.editor });
  await assertGuarded(t, fx, 'GET', `${links}/${created.body.id}`, { tooLow: fx.editor });
  await assertGuarded(t, fx, 'PATCH', `${links}/${created.body.id}`, { body: { role: 'read' }, tooLow: fx.editor });
});

test('joining with an invite link; links can be turned off', async () => {
  const link = await t.call('POST', links, { token: fx.admin.token, body: { role: 'comment' } });
  const newcomer = await t.user();
  const joined = await t.call('POST', `/v1/orgs/${fx.org.id}/invites/${link.body.id}`, { token: newcomer.token });
  assert.is(joined.status, 200);
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/members/${newcomer.id}`, { token: newcomer.token })).body.role, 'comment');
  assertError(await t.call('POST', `/v1/orgs/${fx.org.id}/invites/unknown`, { token: newcomer.token }), 404, 'unknown');
  const eager = await t.user();
  const racing = await Promise.all(Array.from({ length: 5 }, () => t.call('POST', `/v1/orgs/${fx.org.id}/invites/${link.body.id}`, { token: eager.token })));
  assert.equal(racing.map((r) => r.status), [200, 200, 200, 200, 200], 'concurrent joins of one user all succeed');
  assertError(await t.call('POST', `/v1/orgs/${fx.org.id}/invites/${link.body.id}`), 401, 'Authorization');

  await t.call('PATCH', `/v1/orgs/${fx.org.id}`, { token: fx.admin.token, body: { inviteLinks: false } });
  const late = await t.user();
  assertError(await t.call('POST', `/v1/orgs/${fx.org.id}/invites/${link.body.id}`, { token: late.token }), 403, 'invite links off');
  await t.call('PATCH', `/v1/orgs/${fx.org.id}`, { token: fx.admin.token, body: { inviteLinks: true } });
});

test('DELETE an invite link: 205 when deleted, 204 when there was none', async () => {
  const link = await t.call('POST', links, { token: fx.admin.token, body: { role: 'read' } });
  const path = `${links}/${link.body.id}`;
  await assertGuarded(t, fx, 'DELETE', path, { tooLow: fx.editor });
  assert.is((await t.call('DELETE', path, { token: fx.admin.token })).status, 205);
  assert.is((await t.call('DELETE', path, { token: fx.admin.token })).status, 204);
  assertError(await t.call('GET', path, { token: fx.admin.token }), 404, link.body.id);
  const stranger = await t.user();
  assertError(await t.call('POST', `/v1/orgs/${fx.org.id}/invites/${link.body.id}`, { token: stranger.token }), 404, link.body.id);
});

test.run();
