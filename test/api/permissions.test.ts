import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { acceptInvitation, assertErrorIs, type OrganizationFixture, type Person } from '../helpers/fixtures.js';
import { git } from '../helpers/gitClient.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

// Space, collection and site permissions (0.202.0's access operations): grants to people and
// teams, the highest role winning, and every read path honouring them.
const test = suite('permissions on spaces, collections and sites');
let t: TestServer;
let fx: OrganizationFixture;
let scratch: string;

withOrganization(test, (setup) => ({ t, fx } = setup));
test.before(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'quire-permissions-'));
});
test.after(() => rmSync(scratch, { recursive: true, force: true }));

const as = (person: Person) => ({ token: person.token });
const createSpace = async (body: Record<string, unknown>) => {
  const created = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body });
  assert.is(created.status, 201, JSON.stringify(created.body));
  return created.body as { id: string };
};
const createTeam = async (title: string, members: string[]) => {
  const created = await t.call('PUT', `/v1/orgs/${fx.org.id}/teams`, { token: fx.admin.token, body: { title, members } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  return created.body as { id: string };
};
const newMember = async (role: string | null) => {
  const person = await t.user();
  assert.is((await t.call('POST', `/v1/orgs/${fx.org.id}/invites`, { token: fx.admin.token, body: { emails: [{ email: person.email, role }] } })).status, 200);
  await acceptInvitation(t, fx.org.id, person);
  return person;
};
const aggregate = async (path: string, query = '') => {
  const listed = await t.call('GET', `${path}/aggregate${query}`, { token: fx.admin.token });
  assert.is(listed.status, 200, JSON.stringify(listed.body));
  return new Map<string, string | null>((listed.body.items as { user: { id: string }; permission: string | null }[]).map((item) => [item.user.id, item.permission]));
};

test('a guest invited to a space reads it, edits as far as their role, and loses it when removed', async () => {
  const space = await createSpace({ title: 'Guest handbook' });
  const permissions = `/v1/spaces/${space.id}/permissions`;
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.id}`, as(fx.guest)), 404, `Space ${space.id} not found`);

  assert.is((await t.call('POST', permissions, { token: fx.admin.token, body: { role: 'edit', users: [fx.guest.id] } })).status, 204);
  const read = await t.call('GET', `/v1/spaces/${space.id}`, as(fx.guest));
  assert.is(read.status, 200);
  assert.is(read.body.permissions.edit, true);
  assert.is((await t.call('PATCH', `/v1/spaces/${space.id}`, { token: fx.guest.token, body: { title: 'Guest handbook, edited' } })).status, 200);
  const asMember = await t.call('GET', `/v1/orgs/${fx.org.id}/members/${fx.guest.id}`, { token: fx.admin.token });
  assert.is(asMember.body.spaces, 1, 'the member list counts the spaces a grant reaches');
  const listed = await t.call('GET', `/v1/orgs/${fx.org.id}/spaces`, as(fx.guest));
  assert.equal(
    listed.body.items.map((item: { id: string }) => item.id),
    [space.id],
  );

  const users = await t.call('GET', `${permissions}/users`, { token: fx.admin.token });
  assert.is(users.status, 200);
  assert.equal(
    users.body.items.map((item: { user: { id: string }; permission: string }) => [item.user.id, item.permission]),
    [[fx.guest.id, 'edit']],
  );
  // A guest may not list who else can read it: people are the organization's to list.
  assertErrorIs(await t.call('GET', `${permissions}/users`, as(fx.guest)), 403, 'Listing who can access a space needs the read role in its organization; you are guest');

  assert.is((await t.call('PATCH', `${permissions}/users/${fx.guest.id}`, { token: fx.admin.token, body: { role: 'read' } })).status, 204);
  assertErrorIs(await t.call('PATCH', `/v1/spaces/${space.id}`, { token: fx.guest.token, body: { title: 'Again' } }), 403, 'This operation needs the edit role on the space; you have read');
  // `{}` changes nothing (the guest still reads); no body at all is a mistake, as upstream requires one.
  assert.is((await t.call('PATCH', `${permissions}/users/${fx.guest.id}`, { token: fx.admin.token, body: {} })).status, 204);
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, as(fx.guest))).status, 200);
  assertErrorIs(await t.call('PATCH', `${permissions}/users/${fx.guest.id}`, { token: fx.admin.token }), 400, 'A JSON request body is required');
  assertErrorIs(await t.call('PATCH', `${permissions}/users/nobody`, { token: fx.admin.token, body: {} }), 404, 'User nobody is not a member of this organization');

  assert.is((await t.call('DELETE', `${permissions}/users/${fx.guest.id}`, { token: fx.admin.token })).status, 205);
  assert.is((await t.call('DELETE', `${permissions}/users/${fx.guest.id}`, { token: fx.admin.token })).status, 204);
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.id}`, as(fx.guest)), 404, `Space ${space.id} not found`);
});

test('a team given a role on a closed space brings its members in, over git too; the highest role wins', async () => {
  const space = await createSpace({ title: 'Closed' });
  assert.is((await t.call('PATCH', `/v1/spaces/${space.id}`, { token: fx.admin.token, body: { defaultLevel: null } })).status, 200);
  const permissions = `/v1/spaces/${space.id}/permissions`;
  const teamReader = await newMember('read');
  const team = await createTeam('Support', [teamReader.id, fx.editor.id]);
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.id}`, as(teamReader)), 404, `Space ${space.id} not found`);
  const remote = `${t.url.replace('://', `://reader:${teamReader.token}@`)}/git/${space.id}.git`;
  assert.is.not((await git(scratch, 'ls-remote', remote)).code, 0, 'no clone before the grant');

  assert.is((await t.call('POST', permissions, { token: fx.admin.token, body: { role: 'comment', teams: [team.id] } })).status, 204);
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, as(teamReader))).status, 200);
  const listedRemote = await git(scratch, 'ls-remote', remote);
  assert.is(listedRemote.code, 0, listedRemote.stderr);
  assert.match(listedRemote.stdout, /refs\/heads\/main/);

  // A person's own grant and their team's: the higher counts.
  assert.is((await t.call('PATCH', `${permissions}/users/${teamReader.id}`, { token: fx.admin.token, body: { role: 'edit' } })).status, 204);
  const reach = await aggregate(permissions);
  assert.is(reach.get(teamReader.id), 'edit');
  assert.is(reach.get(fx.editor.id), 'comment', 'a closed space gives the editor only their team’s role');
  assert.is(reach.get(fx.admin.id), 'admin');
  assert.is(reach.has(fx.reader.id), false, 'a reader outside the team doesn’t reach a closed space');
  assert.is(reach.has(fx.guest.id), false);
  const commenters = await aggregate(permissions, '?role=comment');
  assert.equal([...commenters.keys()], [fx.editor.id]);

  const teams = await t.call('GET', `${permissions}/teams`, { token: fx.admin.token });
  assert.is(teams.status, 200);
  assert.is(teams.body.items[0].team.id, team.id);
  assert.is(teams.body.items[0].permission, 'comment');
  assert.is(teams.body.items[0].team.spaces, 1);

  assert.is((await t.call('DELETE', `${permissions}/teams/${team.id}`, { token: fx.admin.token })).status, 205);
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, as(fx.editor))).status, 404);
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, as(teamReader))).status, 200, 'their own grant stays');
});

test('a grant on a collection reaches the spaces inside it, in lists and in search', async () => {
  const collection = await t.call('POST', `/v1/orgs/${fx.org.id}/collections`, { token: fx.admin.token, body: { title: 'Partners' } });
  assert.is(collection.status, 201);
  const inside = await createSpace({ title: 'Partner guide', parent: collection.body.id });
  const outside = await createSpace({ title: 'Internal guide' });
  const guest = await newMember(null);
  const permissions = `/v1/collections/${collection.body.id}/permissions`;
  assert.is((await t.call('POST', permissions, { token: fx.admin.token, body: { role: 'read', users: [guest.id] } })).status, 204);

  assert.is((await t.call('GET', `/v1/spaces/${inside.id}`, as(guest))).status, 200);
  assert.is((await t.call('GET', `/v1/spaces/${outside.id}`, as(guest))).status, 404);
  const listed = await t.call('GET', `/v1/orgs/${fx.org.id}/spaces`, as(guest));
  assert.equal(
    listed.body.items.map((item: { id: string }) => item.id),
    [inside.id],
  );
  assert.is((await aggregate(`/v1/spaces/${inside.id}/permissions`)).get(guest.id), 'read');
  assert.is((await aggregate(permissions)).get(guest.id), 'read');
  const users = await t.call('GET', `${permissions}/users`, { token: fx.admin.token });
  assert.equal(
    users.body.items.map((item: { user: { id: string } }) => item.user.id),
    [guest.id],
  );
});

test('bad invitations are refused whole, naming what is wrong', async () => {
  const space = await createSpace({ title: 'Refusals' });
  const permissions = `/v1/spaces/${space.id}/permissions`;
  assertErrorIs(await t.call('POST', permissions, { token: fx.admin.token, body: { role: 'read' } }), 400, 'An invitation names "users", "teams" or both');
  assertErrorIs(await t.call('POST', permissions, { token: fx.admin.token, body: { users: [fx.guest.id] } }), 400, 'Invalid request body: "role" is required');
  assertErrorIs(await t.call('POST', permissions, { token: fx.admin.token, body: { role: 'owner', users: [fx.guest.id] } }), 400, /Invalid request body: "role" must be .*/);
  assertErrorIs(
    await t.call('POST', permissions, { token: fx.admin.token, body: { role: 'read', users: [fx.guest.id, fx.outsider.id] } }),
    404,
    `User ${fx.outsider.id} is not a member of this organization`,
  );
  assertErrorIs(await t.call('POST', permissions, { token: fx.admin.token, body: { role: 'read', teams: ['noTeam'] } }), 404, 'Team noTeam not found in this organization');
  assertErrorIs(await t.call('PATCH', `${permissions}/users/${fx.outsider.id}`, { token: fx.admin.token, body: { role: 'read' } }), 404, `User ${fx.outsider.id} is not a member of this organization`);
  // Nothing of the refused invitation was written.
  const users = await t.call('GET', `${permissions}/users`, { token: fx.admin.token });
  assert.equal(users.body.items, []);
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.id}`, as(fx.guest)), 404, `Space ${space.id} not found`);
  // Only the space's admins give roles on it.
  assertErrorIs(await t.call('POST', permissions, { token: fx.editor.token, body: { role: 'admin', users: [fx.editor.id] } }), 403, 'This operation needs the admin role on the space; you have edit');
  // `null`: no grant.
  assert.is((await t.call('POST', permissions, { token: fx.admin.token, body: { role: 'read', users: [fx.guest.id] } })).status, 204);
  assert.is((await t.call('POST', permissions, { token: fx.admin.token, body: { role: null, users: [fx.guest.id] } })).status, 204);
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.id}`, as(fx.guest)), 404, `Space ${space.id} not found`);
});

test('a site grant lets a member run that site and no other; the site list says where each role comes from', async () => {
  const site = await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Granted site' } });
  const other = await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Other site' } });
  assert.is(site.status, 201);
  const sitePath = `/v1/orgs/${fx.org.id}/sites/${site.body.id}`;
  const permissions = `${sitePath}/permissions`;
  assertErrorIs(await t.call('PATCH', sitePath, { token: fx.editor.token, body: { title: 'Renamed' } }), 403, /This operation needs the admin role in the organization or on the site; you are \w+/);

  assert.is((await t.call('POST', permissions, { token: fx.admin.token, body: { role: 'admin', users: [fx.editor.id] } })).status, 204);
  const renamed = await t.call('PATCH', sitePath, { token: fx.editor.token, body: { title: 'Renamed' } });
  assert.is(renamed.status, 200, JSON.stringify(renamed.body));
  assertErrorIs(
    await t.call('PATCH', `/v1/orgs/${fx.org.id}/sites/${other.body.id}`, { token: fx.editor.token, body: { title: 'Renamed' } }),
    403,
    /This operation needs the admin role in the organization or on the site; you are \w+/,
  );

  const team = await createTeam('Site crew', [fx.guest.id]);
  assert.is((await t.call('PATCH', `${permissions}/teams/${team.id}`, { token: fx.admin.token, body: { role: 'read' } })).status, 204);
  const listed = await t.call('GET', `${permissions}/aggregate?sort=name`, { token: fx.admin.token });
  assert.is(listed.status, 200);
  const byUser = new Map(listed.body.items.map((item: { user: { id: string } }) => [item.user.id, item]));
  assert.equal((byUser.get(fx.editor.id) as { origin: unknown }).origin, { type: 'site', site: site.body.id, reason: 'member' });
  assert.equal((byUser.get(fx.guest.id) as { origin: unknown; permission: string }).origin, { type: 'site', site: site.body.id, reason: 'team', team: team.id });
  assert.equal((byUser.get(fx.reader.id) as { origin: unknown }).origin, { type: 'organization', organization: fx.org.id });
  const admins = await t.call('GET', `${permissions}/aggregate?role=admin`, { token: fx.admin.token });
  assert.equal(admins.body.items.map((item: { user: { id: string } }) => item.user.id).sort(), [fx.admin.id, fx.editor.id].sort());
  const crew = await t.call('GET', `${permissions}/aggregate?team=${team.id}`, { token: fx.admin.token });
  assert.equal(
    crew.body.items.map((item: { user: { id: string }; permission: string }) => [item.user.id, item.permission]),
    [[fx.guest.id, 'read']],
  );
  assertErrorIs(await t.call('GET', `${permissions}/aggregate?team=noTeam`, { token: fx.admin.token }), 404, 'Team noTeam not found in this organization');
  const teams = await t.call('GET', `${permissions}/teams`, { token: fx.admin.token });
  assert.equal(
    teams.body.items.map((item: { team: { id: string }; permission: string }) => [item.team.id, item.permission]),
    [[team.id, 'read']],
  );
  // The guest reads the site through their team, and only reads it.
  assert.is((await t.call('GET', sitePath, as(fx.guest))).status, 200);
  assertErrorIs(await t.call('PATCH', sitePath, { token: fx.guest.token, body: { title: 'No' } }), 403, /This operation needs the admin role in the organization or on the site; you are \w+/);
  assert.is((await t.call('DELETE', `${permissions}/users/${fx.editor.id}`, { token: fx.admin.token })).status, 205);
  assertErrorIs(await t.call('PATCH', sitePath, { token: fx.editor.token, body: { title: 'Again' } }), 403, /This operation needs the admin role in the organization or on the site; you are \w+/);
  assertErrorIs(await t.call('GET', `/v1/orgs/${fx.org.id}/sites/noSite/permissions/users`, { token: fx.admin.token }), 404, /Site noSite.*/);
});

test('a site grant reaches no further than the spaces its holder reads: a site showing a closed space ignores it', async () => {
  const closed = await createSpace({ title: 'Board minutes' });
  assert.is((await t.call('PATCH', `/v1/spaces/${closed.id}`, { token: fx.admin.token, body: { defaultLevel: null } })).status, 200);
  const site = await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Board site', spaces: [closed.id] } });
  assert.is(site.status, 201, JSON.stringify(site.body));
  const sitePath = `/v1/orgs/${fx.org.id}/sites/${site.body.id}`;
  assert.is((await t.call('POST', `${sitePath}/permissions`, { token: fx.admin.token, body: { role: 'admin', users: [fx.editor.id] } })).status, 204);
  // Publishing, previews and share links would show the closed space: the grant doesn't count.
  assertErrorIs(await t.call('POST', `${sitePath}/publish`, { token: fx.editor.token }), 403, /This operation needs the admin role in the organization or on the site; you are edit/);
  assertErrorIs(await t.call('GET', `${sitePath}/publishing/preview`, { token: fx.editor.token }), 403, /This operation needs the create role in the organization or on the site; you are edit/);
  // Invited to the space too, the editor reads everything the site shows: the site grant counts.
  assert.is((await t.call('POST', `/v1/spaces/${closed.id}/permissions`, { token: fx.admin.token, body: { role: 'read', users: [fx.editor.id] } })).status, 204);
  assert.is((await t.call('POST', `${sitePath}/publish`, { token: fx.editor.token })).status, 200);
});

test.run();
