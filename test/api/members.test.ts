import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { acceptInvitation, assertErrorIs, assertGuarded, messages, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('organization members');
let t: TestServer;
let fx: OrganizationFixture;
let members: string;

withOrganization(test, (setup) => {
  ({ t, fx } = setup);
  members = `/v1/orgs/${fx.org.id}/members`;
});

test('GET members lists everyone, newest first by default, with filters', async () => {
  const all = await t.call('GET', members, { token: fx.reader.token });
  assert.is(all.status, 200);
  assert.is(all.body.count, 5);
  assert.equal(all.body.items[all.body.items.length - 1].id, fx.admin.id, 'the admin joined first, so comes last in desc order');
  const ascending = await t.call('GET', `${members}?order=asc`, { token: fx.reader.token });
  assert.is(ascending.body.items[0].id, fx.admin.id);

  const editors = await t.call('GET', `${members}?role=edit`, { token: fx.reader.token });
  assert.equal(
    editors.body.items.map((m: { id: string }) => m.id),
    [fx.editor.id],
  );
  const guests = await t.call('GET', `${members}?role=guest`, { token: fx.reader.token });
  assert.equal(
    guests.body.items.map((m: { id: string }) => m.id),
    [fx.guest.id],
  );
  const search = await t.call('GET', `${members}?search=${encodeURIComponent(fx.editor.email.toUpperCase())}`, { token: fx.reader.token });
  assert.equal(
    search.body.items.map((m: { id: string }) => m.id),
    [fx.editor.id],
  );
  assert.is((await t.call('GET', `${members}?search=%25`, { token: fx.reader.token })).body.count, 0, '% is matched literally');

  await t.call('POST', `/v1/orgs/${fx.org.id}/ping`, { token: fx.editor.token });
  const seen = await t.call('GET', `${members}?sort=lastSeenAt`, { token: fx.reader.token });
  assert.ok(
    seen.body.items.some((m: { id: string }) => m.id === fx.editor.id),
    'the member who pinged is listed',
  );
  assert.ok(
    seen.body.items.every((m: { lastSeenAt?: string }) => m.lastSeenAt),
    'sorting by lastSeenAt lists only active members',
  );

  assertErrorIs(
    await t.call('GET', `${members}?role=owner`, { token: fx.reader.token }),
    400,
    'Invalid query parameter: "role" must be one of "admin", "create", "review", "edit", "comment", "read", "guest"',
  );
  assertErrorIs(await t.call('GET', `${members}?sort=name`, { token: fx.reader.token }), 400, 'Invalid query parameter: "sort" must be one of "joinedAt", "lastSeenAt"');
  assertErrorIs(await t.call('GET', `${members}?limit=5000`, { token: fx.reader.token }), 400, 'Invalid query parameter: "limit" must be <= 1000');
  assertErrorIs(await t.call('GET', `${members}?bogus=1`, { token: fx.reader.token }), 400, 'Invalid query parameter: "bogus" is not an accepted field');
  await assertGuarded(t, fx, 'GET', members, { tooLow: { who: fx.guest, message: messages.needsOrgRole('read', 'guest') } });
});

test('member search folds case beyond ASCII', async () => {
  const person = await t.user('ezola@example.com', { name: 'Émile Zola' });
  const invited = await t.call('POST', `/v1/orgs/${fx.org.id}/invites`, { token: fx.admin.token, body: { emails: [person.email] } });
  assert.is(invited.body.invited, 1);
  await acceptInvitation(t, fx.org.id, person);
  const found = await t.call('GET', `${members}?search=${encodeURIComponent('ÉMILE')}`, { token: fx.reader.token });
  assert.equal(
    found.body.items.map((m: { id: string }) => m.id),
    [person.id],
  );
});

test('GET a member: colleagues and the member themself; unknown ids 404', async () => {
  const got = await t.call('GET', `${members}/${fx.editor.id}`, { token: fx.reader.token });
  assert.is(got.status, 200);
  assert.is(got.body.user.email, fx.editor.email);
  assert.is(got.body.role, 'edit');
  assert.is((await t.call('GET', `${members}/${fx.guest.id}`, { token: fx.guest.token })).status, 200, 'a guest sees themself');
  assertErrorIs(
    await t.call('GET', `${members}/${fx.editor.id}`, { token: fx.guest.token }),
    403,
    'This operation needs the read role in the organization (or being the member themself); you are guest',
  );
  assertErrorIs(await t.call('GET', `${members}/nobody`, { token: fx.reader.token }), 404, `Member nobody not found in organization ${fx.org.id}`);
  await assertGuarded(t, fx, 'GET', `${members}/${fx.editor.id}`);
});

test('PATCH a member’s role; the last admin stays admin', async () => {
  const person = await t.user();
  await t.call('POST', `/v1/orgs/${fx.org.id}/invites`, { token: fx.admin.token, body: { emails: [person.email], role: 'read' } });
  await acceptInvitation(t, fx.org.id, person);
  const patched = await t.call('PATCH', `${members}/${person.id}`, { token: fx.admin.token, body: { role: 'review' } });
  assert.is(patched.status, 200);
  assert.is(patched.body.role, 'review');
  assert.is((await t.call('GET', `${members}/${person.id}`, { token: fx.admin.token })).body.role, 'review', 'the PATCH is stored');
  const toGuest = await t.call('PATCH', `${members}/${person.id}`, { token: fx.admin.token, body: { role: null } });
  assert.is(toGuest.body.role, null);
  const reread = await t.call('GET', `${members}/${person.id}`, { token: fx.admin.token });
  assert.is(reread.body.role, null, 'the PATCH is stored');
  assert.equal(toGuest.body, reread.body);

  assertErrorIs(
    await t.call('PATCH', `${members}/${fx.admin.id}`, { token: fx.admin.token, body: { role: 'read' } }),
    400,
    'Cannot demote the last admin of the organization; make another member admin first',
  );
  assert.is((await t.call('GET', `${members}/${fx.admin.id}`, { token: fx.admin.token })).body.role, 'admin');
  assertErrorIs(
    await t.call('PATCH', `${members}/${person.id}`, { token: fx.admin.token, body: { role: 'superuser' } }),
    400,
    'Invalid request body: "role" must be one of "admin", "create", "review", "edit", "comment", "read", null',
  );
  assertErrorIs(await t.call('PATCH', `${members}/nobody`, { token: fx.admin.token, body: { role: 'read' } }), 404, `Member nobody not found in organization ${fx.org.id}`);
  await assertGuarded(t, fx, 'PATCH', `${members}/${person.id}`, { body: { role: 'admin' }, tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create') } });
  assert.is((await t.call('GET', `${members}/${person.id}`, { token: fx.admin.token })).body.role, null, 'refused patches changed nothing');
});

test('DELETE a member: 205 when removed, 204 when there was none; not the last admin', async () => {
  const person = await t.user();
  await t.call('POST', `/v1/orgs/${fx.org.id}/invites`, { token: fx.admin.token, body: { emails: [person.email] } });
  await acceptInvitation(t, fx.org.id, person);
  const team = await t.call('PUT', `/v1/orgs/${fx.org.id}/teams`, { token: fx.admin.token, body: { title: 'Leavers', members: [person.id] } });
  assert.is((await t.call('DELETE', `${members}/${person.id}`, { token: fx.admin.token })).status, 205);
  assert.is((await t.call('DELETE', `${members}/${person.id}`, { token: fx.admin.token })).status, 204);
  assertErrorIs(await t.call('GET', `${members}/${person.id}`, { token: fx.admin.token }), 404, `Member ${person.id} not found in organization ${fx.org.id}`);
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/teams/${team.body.id}`, { token: fx.admin.token })).body.members, 0, 'left their teams too');
  assertErrorIs(await t.call('GET', `/v1/orgs/${fx.org.id}`, { token: person.token }), 404, `Organization ${fx.org.id} not found`);

  assertErrorIs(await t.call('DELETE', `${members}/${fx.admin.id}`, { token: fx.admin.token }), 400, 'Cannot remove the last admin of the organization; make another member admin first');
  const leaver = await t.user();
  await t.call('POST', `/v1/orgs/${fx.org.id}/invites`, { token: fx.admin.token, body: { emails: [leaver.email] } });
  await acceptInvitation(t, fx.org.id, leaver);
  assert.is((await t.call('DELETE', `${members}/${leaver.id}`, { token: leaver.token })).status, 205, 'a member may leave');
  await assertGuarded(t, fx, 'DELETE', `${members}/${fx.editor.id}`, { tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create', 'the member themself') } });
});

test('POST members/{id}/sso marks an SSO member; a known non-member does not join (issue 10, rule 2)', async () => {
  const marked = await t.call('POST', `${members}/${fx.reader.id}/sso`, { token: fx.admin.token });
  assert.is(marked.status, 200);
  assert.is(marked.body.sso, true);
  const newcomer = await t.user();
  assertErrorIs(await t.call('POST', `${members}/${newcomer.id}/sso`, { token: fx.admin.token }), 404, `Member ${newcomer.id} not found in organization ${fx.org.id}`);
  assertErrorIs(await t.call('POST', `${members}/nobody/sso`, { token: fx.admin.token }), 404, `Member nobody not found in organization ${fx.org.id}`);
  await assertGuarded(t, fx, 'POST', `${members}/${fx.reader.id}/sso`, { tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create') } });
});

test('GET members/{id}/spaces: the spaces the member reaches, with their role', async () => {
  const empty = await t.call('GET', `${members}/${fx.reader.id}/spaces`, { token: fx.reader.token });
  assert.is(empty.status, 200);
  const before = empty.body.count;
  const open = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Open' } });
  const closed = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Closed' } });
  await t.call('PATCH', `/v1/spaces/${closed.body.id}`, { token: fx.admin.token, body: { defaultLevel: null } });
  const own = await t.call('GET', `${members}/${fx.reader.id}/spaces`, { token: fx.reader.token });
  assert.is(own.body.count, before + 1);
  const item = own.body.items.find((entry: { space: { id: string } }) => entry.space.id === open.body.id);
  assert.is(item.permission, 'read');
  assert.ok(!own.body.items.some((entry: { space: { id: string } }) => entry.space.id === closed.body.id));
  const asAdmin = await t.call('GET', `${members}/${fx.admin.id}/spaces?order=asc`, { token: fx.admin.token });
  assert.ok(asAdmin.body.items.some((entry: { space: { id: string }; permission: string }) => entry.space.id === closed.body.id && entry.permission === 'admin'));
  const member = await t.call('GET', `${members}/${fx.reader.id}`, { token: fx.reader.token });
  assert.is(member.body.spaces, own.body.count, 'the member’s spaces count agrees');
  assertErrorIs(await t.call('GET', `${members}/${fx.reader.id}/spaces?order=up`, { token: fx.admin.token }), 400, 'Invalid query parameter: "order" must be one of "asc", "desc"');
  assertErrorIs(await t.call('GET', `${members}/nobody/spaces`, { token: fx.admin.token }), 404, `Member nobody not found in organization ${fx.org.id}`);
  await assertGuarded(t, fx, 'GET', `${members}/${fx.reader.id}/spaces`, { tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create', 'the member themself') } });
});

test('GET members/{id}/teams: the member’s teams with their team role', async () => {
  const created = await t.call('PUT', `/v1/orgs/${fx.org.id}/teams`, { token: fx.admin.token, body: { title: 'Writers', members: [fx.editor.id] } });
  await t.call('PUT', `/v1/orgs/${fx.org.id}/teams`, { token: fx.admin.token, body: { title: 'Reviewers', members: [fx.editor.id] } });
  await t.call('PUT', `/v1/orgs/${fx.org.id}/teams/${created.body.id}/members/${fx.editor.id}`, { token: fx.admin.token, body: { role: 'owner' } });
  const teams = await t.call('GET', `${members}/${fx.editor.id}/teams`, { token: fx.editor.token });
  assert.is(teams.status, 200);
  assert.is(teams.body.count, 2);
  const writers = teams.body.items.find((item: { team: { id: string } }) => item.team.id === created.body.id);
  assert.is(writers.member.role, 'owner');
  assert.is(writers.team.permissions.admin, true, 'an owner manages the team');
  const filtered = await t.call('GET', `${members}/${fx.editor.id}/teams?title=WRIT`, { token: fx.reader.token });
  assert.equal(
    filtered.body.items.map((item: { team: { title: string } }) => item.team.title),
    ['Writers'],
  );
  assertErrorIs(
    await t.call('GET', `${members}/${fx.editor.id}/teams?title=${'x'.repeat(65)}`, { token: fx.reader.token }),
    400,
    'Invalid query parameter: "title" must NOT have more than 64 characters',
  );
  assertErrorIs(await t.call('GET', `${members}/nobody/teams`, { token: fx.admin.token }), 404, `Member nobody not found in organization ${fx.org.id}`);
  await assertGuarded(t, fx, 'GET', `${members}/${fx.editor.id}/teams`, { tooLow: { who: fx.guest, message: messages.needsOrgRole('read', 'guest', 'the member themself') } });
});

test('POST /orgs/{id}/invites invites users by email, creating unknown ones; they join by accepting', async () => {
  const known = await t.user();
  const invited = await t.call('POST', `/v1/orgs/${fx.org.id}/invites`, {
    token: fx.admin.token,
    body: { emails: [known.email, { email: 'brand-new@example.org', role: 'edit' }, fx.reader.email], role: 'comment' },
  });
  assert.is(invited.status, 200);
  assert.is(invited.body.invited, 2, 'the reader was already a member');
  assert.is(invited.body.users.length, 3);
  await acceptInvitation(t, fx.org.id, known);
  assert.is((await t.call('GET', `${members}/${known.id}`, { token: fx.admin.token })).body.role, 'comment');
  const listed = await t.call('GET', `${members}?search=brand-new`, { token: fx.admin.token });
  assert.is(listed.body.count, 0, 'a pending invitation is no membership');
  assertErrorIs(
    await t.call('POST', `/v1/orgs/${fx.org.id}/invites`, { token: fx.admin.token, body: { emails: ['not-an-email'] } }),
    400,
    'Invalid request body: "emails[0]" must match format "email"',
  );
  assertErrorIs(await t.call('POST', `/v1/orgs/${fx.org.id}/invites`, { token: fx.admin.token, body: { emails: [] } }), 400, 'Invalid request body: "emails" must NOT have fewer than 1 items');
  await assertGuarded(t, fx, 'POST', `/v1/orgs/${fx.org.id}/invites`, { body: { emails: ['x@example.com'] }, tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create') } });
  assertErrorIs(await t.call('POST', '/v1/orgs/doesNotExist/invites', { token: fx.admin.token, body: { emails: ['x@example.com'] } }), 404, 'Organization doesNotExist not found');
});

test('PATCH /users/{id}: a user changes their own name and picture, and the member list searches the new name', async () => {
  const changed = await t.call('PATCH', `/v1/users/${fx.reader.id}`, { token: fx.reader.token, body: { displayName: '  Ada Lovelace ', photoURL: 'https://images.example.com/ada.png' } });
  assert.is(changed.status, 200, JSON.stringify(changed.body));
  assert.equal([changed.body.displayName, changed.body.photoURL], ['Ada Lovelace', 'https://images.example.com/ada.png']);
  assert.is((await t.call('GET', `/v1/users/${fx.reader.id}`, { token: fx.editor.token })).body.displayName, 'Ada Lovelace', 'colleagues see the new name');
  const found = await t.call('GET', `/v1/orgs/${fx.org.id}/members?search=lovelace`, { token: fx.admin.token });
  assert.equal(
    found.body.items.map((member: { id: string }) => member.id),
    [fx.reader.id],
  );
  assertErrorIs(await t.call('PATCH', `/v1/users/${fx.reader.id}`, { token: fx.admin.token, body: { displayName: 'Not yours' } }), 403, 'A user’s name and picture are changed by that user alone');
  assertErrorIs(await t.call('PATCH', `/v1/users/${fx.reader.id}`, { token: fx.reader.token, body: {} }), 400, /Invalid request body: .* must have at least 1 field/);
  assertErrorIs(
    await t.call('PATCH', `/v1/users/${fx.reader.id}`, { token: fx.reader.token, body: { photoURL: 'javascript:alert(1)' } }),
    400,
    /Invalid request body: "photoURL" must match pattern .*/,
  );
});

test.run();
