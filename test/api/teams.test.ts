import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertError, assertGuarded, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('teams');
let t: TestServer;
let fx: OrganizationFixture;
let teams: string;

withOrganization(test, (setup) => {
  ({ t, fx } = setup);
  teams = `/v1/orgs/${fx.org.id}/teams`;
});

const create = (title: string, members?: string[]) => t.call('PUT', teams, { token: fx.admin.token, body: { title, members } });

test('PUT teams creates a team with members', async () => {
  const created = await create('Platform', [fx.editor.id, fx.reader.id]);
  assert.is(created.status, 201);
  assert.is(created.body.title, 'Platform');
  assert.is(created.body.members, 2);
  assert.is(created.body.permissions.admin, true);
  assertError(await t.call('PUT', teams, { token: fx.admin.token, body: { title: '' } }), 400, '"title"');
  assertError(await t.call('PUT', teams, { token: fx.admin.token, body: { title: 'x'.repeat(65) } }), 400, '"title"');
  assertError(await t.call('PUT', teams, { token: fx.admin.token, body: { title: 'Ghosts', members: [fx.outsider.id] } }), 400, fx.outsider.id);
  const listed = await t.call('GET', `${teams}?title=Ghosts`, { token: fx.admin.token });
  assert.is(listed.body.count, 0, 'a failed create leaves nothing behind');
  await assertGuarded(t, fx, 'PUT', teams, { body: { title: 'Nope' }, tooLow: fx.editor });
  assertError(await t.call('PUT', '/v1/orgs/doesNotExist/teams', { token: fx.admin.token, body: { title: 'X' } }), 404, 'not found');
});

test('GET teams lists with title and owner filters', async () => {
  const docs = await create('Docs Crew');
  await create('Support');
  await t.call('PUT', `${teams}/${docs.body.id}/members/${fx.editor.id}`, { token: fx.admin.token, body: { role: 'owner' } });
  const all = await t.call('GET', teams, { token: fx.reader.token });
  assert.is(all.status, 200);
  assert.ok(all.body.count >= 2);
  assert.is(all.body.items[0].permissions.admin, false, 'a reader does not manage teams');
  const byTitle = await t.call('GET', `${teams}?title=docs%20c`, { token: fx.reader.token });
  assert.equal(byTitle.body.items.map((team: { title: string }) => team.title), ['Docs Crew']);
  const owned = await t.call('GET', `${teams}?owner=${fx.editor.id}`, { token: fx.reader.token });
  assert.equal(owned.body.items.map((team: { id: string }) => team.id), [docs.body.id]);
  const asAdmin = await t.call('GET', `${teams}?owner=${fx.admin.id}`, { token: fx.reader.token });
  assert.is(asAdmin.body.count, all.body.count, 'an admin can manage every team');
  assertError(await t.call('GET', `${teams}?owner=${fx.outsider.id}`, { token: fx.reader.token }), 400, '"owner"');
  assertError(await t.call('GET', `${teams}?limit=-1`, { token: fx.reader.token }), 400, '"limit"');
  await assertGuarded(t, fx, 'GET', teams, { tooLow: fx.guest });
});

test('GET, PATCH and DELETE one team', async () => {
  const team = (await create('Renamers')).body;
  const path = `${teams}/${team.id}`;
  assert.is((await t.call('GET', path, { token: fx.reader.token })).body.title, 'Renamers');
  const renamed = await t.call('PATCH', path, { token: fx.admin.token, body: { title: 'Renamed' } });
  assert.is(renamed.status, 200);
  assert.is(renamed.body.title, 'Renamed');
  assertError(await t.call('PATCH', path, { token: fx.admin.token, body: {} }), 400, '"title" is required');
  await assertGuarded(t, fx, 'PATCH', path, { body: { title: 'X' }, tooLow: fx.editor });
  await assertGuarded(t, fx, 'GET', path, { tooLow: fx.guest });
  await assertGuarded(t, fx, 'DELETE', path, { tooLow: fx.editor });
  assert.is((await t.call('DELETE', path, { token: fx.admin.token })).status, 205);
  assert.is((await t.call('DELETE', path, { token: fx.admin.token })).status, 204);
  assertError(await t.call('GET', path, { token: fx.admin.token }), 404, team.id);
  assertError(await t.call('PATCH', path, { token: fx.admin.token, body: { title: 'Ghost' } }), 404, team.id);
});

test('team members: add, list, change role, remove; owners manage their team', async () => {
  const team = (await create('Membership')).body;
  const path = `${teams}/${team.id}/members`;
  assert.is((await t.call('PUT', `${path}/${fx.editor.id}`, { token: fx.admin.token, body: { role: 'owner' } })).status, 204);
  // The editor now owns the team, so may manage it without being an organization admin.
  assert.is((await t.call('PUT', `${path}/${fx.reader.id}`, { token: fx.editor.token })).status, 204);
  const listed = await t.call('GET', path, { token: fx.reader.token });
  assert.is(listed.status, 200);
  assert.is(listed.body.count, 2);
  const roles = Object.fromEntries(listed.body.items.map((item: { organization: { id: string }; team: { role: string } }) => [item.organization.id, item.team.role]));
  assert.equal(roles, { [fx.editor.id]: 'owner', [fx.reader.id]: 'member' });
  assert.is((await t.call('PATCH', `${teams}/${team.id}`, { token: fx.editor.token, body: { title: 'Owned' } })).status, 200);

  assertError(await t.call('PUT', `${path}/${fx.outsider.id}`, { token: fx.admin.token }), 400, fx.outsider.id);
  assertError(await t.call('PUT', `${path}/${fx.reader.id}`, { token: fx.admin.token, body: { role: 'boss' } }), 400, '"role"');
  assertError(await t.call('PUT', `${teams}/nope/members/${fx.reader.id}`, { token: fx.admin.token }), 404, 'nope');
  await assertGuarded(t, fx, 'PUT', `${path}/${fx.guest.id}`, { tooLow: fx.reader });

  assert.is((await t.call('DELETE', `${path}/${fx.reader.id}`, { token: fx.editor.token })).status, 205);
  assert.is((await t.call('DELETE', `${path}/${fx.reader.id}`, { token: fx.editor.token })).status, 204);
  await assertGuarded(t, fx, 'DELETE', `${path}/${fx.editor.id}`, { tooLow: fx.reader });
  await assertGuarded(t, fx, 'GET', path, { tooLow: fx.guest });
  assertError(await t.call('GET', `${teams}/nope/members`, { token: fx.admin.token }), 404, 'nope');
});

test('a guest who owns a team can’t manage it; re-adding an owner keeps them owner', async () => {
  const team = (await create('Guarded')).body;
  const path = `${teams}/${team.id}/members`;
  assert.is((await t.call('PUT', `${path}/${fx.guest.id}`, { token: fx.admin.token, body: { role: 'owner' } })).status, 204);
  assertError(await t.call('PATCH', `${teams}/${team.id}`, { token: fx.guest.token, body: { title: 'Mine' } }), 403, 'role');
  assertError(await t.call('PUT', `${path}/${fx.reader.id}`, { token: fx.guest.token }), 403, 'role');

  assert.is((await t.call('PUT', `${path}/${fx.editor.id}`, { token: fx.admin.token, body: { role: 'owner' } })).status, 204);
  assert.is((await t.call('PUT', path, { token: fx.admin.token, body: { add: [fx.editor.id] } })).status, 204);
  assert.is((await t.call('PUT', `${path}/${fx.editor.id}`, { token: fx.admin.token })).status, 204);
  const listed = await t.call('GET', path, { token: fx.admin.token });
  const editor = listed.body.items.find((item: { organization: { id: string } }) => item.organization.id === fx.editor.id);
  assert.is(editor.team.role, 'owner');
});

test('PUT team members applies additions, roles and removals together or not at all', async () => {
  const team = (await create('Bulk', [fx.reader.id])).body;
  const path = `${teams}/${team.id}/members`;
  const updated = await t.call('PUT', path, {
    token: fx.admin.token,
    body: { add: [fx.editor.id, fx.guest.id], memberships: { [fx.editor.id]: { role: 'owner' } }, remove: [fx.reader.id] },
  });
  assert.is(updated.status, 204);
  const listed = await t.call('GET', path, { token: fx.admin.token });
  const roles = Object.fromEntries(listed.body.items.map((item: { organization: { id: string }; team: { role: string } }) => [item.organization.id, item.team.role]));
  assert.equal(roles, { [fx.editor.id]: 'owner', [fx.guest.id]: 'member' });

  assertError(await t.call('PUT', path, { token: fx.admin.token, body: { add: [fx.reader.id, fx.outsider.id] } }), 400, fx.outsider.id);
  assert.is((await t.call('GET', path, { token: fx.admin.token })).body.count, 2, 'nothing was half-applied');
  assertError(await t.call('PUT', path, { token: fx.admin.token, body: { add: [fx.reader.id], remove: [fx.reader.id] } }), 400, 'both added and removed');
  assertError(await t.call('PUT', path, { token: fx.admin.token, body: { add: 'everyone' } }), 400, '"add"');
  await assertGuarded(t, fx, 'PUT', path, { body: { add: [fx.reader.id] }, tooLow: fx.reader });
});

test.run();
