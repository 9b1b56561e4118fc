import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, assertGuarded, messages, type OrganizationFixture } from '../helpers/fixtures.js';
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
  assertErrorIs(await t.call('PUT', teams, { token: fx.admin.token, body: { title: '' } }), 400, 'Invalid request body: "title" must NOT have fewer than 1 characters');
  assertErrorIs(await t.call('PUT', teams, { token: fx.admin.token, body: { title: 'x'.repeat(65) } }), 400, 'Invalid request body: "title" must NOT have more than 64 characters');
  assertErrorIs(await t.call('PUT', teams, { token: fx.admin.token, body: { title: 'Ghosts', members: [fx.outsider.id] } }), 400, `Not members of the organization: ${fx.outsider.id}`);
  const listed = await t.call('GET', `${teams}?title=Ghosts`, { token: fx.admin.token });
  assert.is(listed.body.count, 0, 'a failed create leaves nothing behind');
  await assertGuarded(t, fx, 'PUT', teams, { body: { title: 'Nope' }, tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create') } });
  assertErrorIs(await t.call('PUT', '/v1/orgs/doesNotExist/teams', { token: fx.admin.token, body: { title: 'X' } }), 404, 'Organization doesNotExist not found');
});

test('GET teams lists with title and owner filters', async () => {
  const docs = await create('Docs Crew');
  await create('Support');
  await t.call('PUT', `${teams}/${docs.body.id}/members/${fx.editor.id}`, { token: fx.admin.token, body: { role: 'owner' } });
  const all = await t.call('GET', teams, { token: fx.reader.token });
  assert.is(all.status, 200);
  assert.is(all.body.count, 3, 'Platform, Docs Crew and Support');
  assert.is(all.body.items[0].permissions.admin, false, 'a reader does not manage teams');
  const byTitle = await t.call('GET', `${teams}?title=docs%20c`, { token: fx.reader.token });
  assert.equal(
    byTitle.body.items.map((team: { title: string }) => team.title),
    ['Docs Crew'],
  );
  const owned = await t.call('GET', `${teams}?owner=${fx.editor.id}`, { token: fx.reader.token });
  assert.equal(
    owned.body.items.map((team: { id: string }) => team.id),
    [docs.body.id],
  );
  const asAdmin = await t.call('GET', `${teams}?owner=${fx.admin.id}`, { token: fx.reader.token });
  assert.is(asAdmin.body.count, all.body.count, 'an admin can manage every team');
  assertErrorIs(await t.call('GET', `${teams}?owner=${fx.outsider.id}`, { token: fx.reader.token }), 400, `"owner" ${fx.outsider.id} is not a member of the organization`);
  assertErrorIs(await t.call('GET', `${teams}?limit=-1`, { token: fx.reader.token }), 400, 'Invalid query parameter: "limit" must be >= 0');
  await assertGuarded(t, fx, 'GET', teams, { tooLow: { who: fx.guest, message: messages.needsOrgRole('read', 'guest') } });
});

test('GET, PATCH and DELETE one team', async () => {
  const team = (await create('Renamers')).body;
  const path = `${teams}/${team.id}`;
  assert.is((await t.call('GET', path, { token: fx.reader.token })).body.title, 'Renamers');
  const renamed = await t.call('PATCH', path, { token: fx.admin.token, body: { title: 'Renamed' } });
  assert.is(renamed.status, 200);
  assert.is(renamed.body.title, 'Renamed');
  const reread = await t.call('GET', path, { token: fx.admin.token });
  assert.is(reread.body.title, 'Renamed', 'the PATCH is stored');
  assert.equal(reread.body, renamed.body, 'the PATCH answers what a later GET reads');
  assertErrorIs(await t.call('PATCH', path, { token: fx.admin.token, body: {} }), 400, 'Invalid request body: "title" is required');
  await assertGuarded(t, fx, 'PATCH', path, { body: { title: 'X' }, tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create', 'an owner of the team') } });
  await assertGuarded(t, fx, 'GET', path, { tooLow: { who: fx.guest, message: messages.needsOrgRole('read', 'guest') } });
  await assertGuarded(t, fx, 'DELETE', path, { tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create') } });
  assert.is((await t.call('GET', path, { token: fx.admin.token })).body.title, 'Renamed', 'refused calls changed nothing');
  assert.is((await t.call('DELETE', path, { token: fx.admin.token })).status, 205);
  assert.is((await t.call('DELETE', path, { token: fx.admin.token })).status, 204);
  assertErrorIs(await t.call('GET', path, { token: fx.admin.token }), 404, `Team ${team.id} not found in organization ${fx.org.id}`);
  assertErrorIs(await t.call('PATCH', path, { token: fx.admin.token, body: { title: 'Ghost' } }), 404, `Team ${team.id} not found in organization ${fx.org.id}`);
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
  assert.is((await t.call('GET', `${teams}/${team.id}`, { token: fx.reader.token })).body.title, 'Owned', 'the owner’s rename is stored');

  assertErrorIs(await t.call('PUT', `${path}/${fx.outsider.id}`, { token: fx.admin.token }), 400, `Not members of the organization: ${fx.outsider.id}`);
  assertErrorIs(await t.call('PUT', `${path}/${fx.reader.id}`, { token: fx.admin.token, body: { role: 'boss' } }), 400, 'Invalid request body: "role" must be one of "owner", "member"');
  assertErrorIs(await t.call('PUT', `${teams}/nope/members/${fx.reader.id}`, { token: fx.admin.token }), 404, `Team nope not found in organization ${fx.org.id}`);
  await assertGuarded(t, fx, 'PUT', `${path}/${fx.guest.id}`, { tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create', 'an owner of the team') } });

  assert.is((await t.call('DELETE', `${path}/${fx.reader.id}`, { token: fx.editor.token })).status, 205);
  assert.is((await t.call('DELETE', `${path}/${fx.reader.id}`, { token: fx.editor.token })).status, 204);
  await assertGuarded(t, fx, 'DELETE', `${path}/${fx.editor.id}`, { tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create', 'an owner of the team') } });
  await assertGuarded(t, fx, 'GET', path, { tooLow: { who: fx.guest, message: messages.needsOrgRole('read', 'guest') } });
  assertErrorIs(await t.call('GET', `${teams}/nope/members`, { token: fx.admin.token }), 404, `Team nope not found in organization ${fx.org.id}`);
});

test('a guest who owns a team can’t manage it; re-adding an owner keeps them owner', async () => {
  const team = (await create('Guarded')).body;
  const path = `${teams}/${team.id}/members`;
  assert.is((await t.call('PUT', `${path}/${fx.guest.id}`, { token: fx.admin.token, body: { role: 'owner' } })).status, 204);
  assertErrorIs(
    await t.call('PATCH', `${teams}/${team.id}`, { token: fx.guest.token, body: { title: 'Mine' } }),
    403,
    'This operation needs the admin role in the organization (or being an owner of the team); you are guest',
  );
  assertErrorIs(
    await t.call('PUT', `${path}/${fx.reader.id}`, { token: fx.guest.token }),
    403,
    'This operation needs the admin role in the organization (or being an owner of the team); you are guest',
  );

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

  assertErrorIs(await t.call('PUT', path, { token: fx.admin.token, body: { add: [fx.reader.id, fx.outsider.id] } }), 400, `Not members of the organization: ${fx.outsider.id}`);
  assert.is((await t.call('GET', path, { token: fx.admin.token })).body.count, 2, 'nothing was half-applied');
  assertErrorIs(await t.call('PUT', path, { token: fx.admin.token, body: { add: [fx.reader.id], remove: [fx.reader.id] } }), 400, `${fx.reader.id} is both added and removed`);
  assertErrorIs(await t.call('PUT', path, { token: fx.admin.token, body: { add: 'everyone' } }), 400, 'Invalid request body: "add" must be array');
  await assertGuarded(t, fx, 'PUT', path, { body: { add: [fx.reader.id] }, tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create', 'an owner of the team') } });
});

test('a team of another organization is not found under this organization’s path', async () => {
  const theirs = `/v1/orgs/${fx.elsewhere.id}/teams`;
  const foreign = await t.call('PUT', theirs, { token: fx.outsider.token, body: { title: 'Their team', members: [fx.outsider.id] } });
  assert.is(foreign.status, 201);
  const here = `${teams}/${foreign.body.id}`;
  const notHere = `Team ${foreign.body.id} not found in organization ${fx.org.id}`;
  assertErrorIs(await t.call('GET', here, { token: fx.admin.token }), 404, notHere);
  assertErrorIs(await t.call('PATCH', here, { token: fx.admin.token, body: { title: 'Ours now' } }), 404, notHere);
  assertErrorIs(await t.call('GET', `${here}/members`, { token: fx.admin.token }), 404, notHere);
  assertErrorIs(await t.call('PUT', `${here}/members`, { token: fx.admin.token, body: { add: [fx.reader.id] } }), 404, notHere);
  assertErrorIs(await t.call('PUT', `${here}/members/${fx.reader.id}`, { token: fx.admin.token }), 404, notHere);
  assertErrorIs(await t.call('DELETE', `${here}/members/${fx.outsider.id}`, { token: fx.admin.token }), 404, notHere);
  assert.is((await t.call('DELETE', here, { token: fx.admin.token })).status, 204, 'nothing of this organization to delete');
  const intact = await t.call('GET', `${theirs}/${foreign.body.id}`, { token: fx.outsider.token });
  assert.equal([intact.body.title, intact.body.members], ['Their team', 1], 'the other organization’s team is untouched');
});

test.run();
