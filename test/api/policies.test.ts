import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { allRoutes } from '../../api/routes/index.js';
import type { Route } from '../../api/routes/table.js';
import { memberRoles, type MemberRole } from '../../storage/members.js';
import { acceptInvitation, assertErrorIs, type Person } from '../helpers/fixtures.js';
import { concretePath, siteWithHostname } from '../helpers/routePaths.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

// Every declared rule, checked with a caller one role below it: the rules the route lines
// declare (and docs/permissions.md lists) are the rules enforced.
const test = suite('declared permissions');
let t: TestServer;
let organizationId = '';
const members = new Map<MemberRole | 'guest', Person>();
let space: { id: string; revision: string };
let collection: { id: string };
let hostname = '';

withOrganization(test, (setup) => {
  t = setup.t;
  organizationId = setup.fx.org.id;
  members.set('admin', setup.fx.admin);
});
test.before(async () => {
  const admin = members.get('admin')!;
  for (const role of memberRoles.filter((role) => role !== 'admin')) {
    const person = await t.user();
    const invited = await t.call('POST', `/v1/orgs/${organizationId}/invites`, { token: admin.token, body: { emails: [{ email: person.email, role }] } });
    assert.is(invited.status, 200);
    await acceptInvitation(t, organizationId, person);
    members.set(role, person);
  }
  space = (await t.call('POST', `/v1/orgs/${organizationId}/spaces`, { token: admin.token, body: { title: 'Guarded' } })).body;
  collection = (await t.call('POST', `/v1/orgs/${organizationId}/collections`, { token: admin.token, body: { title: 'Guarded' } })).body;
  hostname = await siteWithHostname(t, organizationId, admin.token, 'policies.acme.test');
  // Below read is a guest: one given admin on the space and the collection passes their routes' roles,
  // so a rule asking for read in the organization is what refuses them.
  const guest = await t.user();
  assert.is((await t.call('POST', `/v1/orgs/${organizationId}/invites`, { token: admin.token, body: { emails: [{ email: guest.email, role: null }] } })).status, 200);
  await acceptInvitation(t, organizationId, guest);
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/permissions`, { token: admin.token, body: { role: 'admin', users: [guest.id] } })).status, 204);
  assert.is((await t.call('POST', `/v1/collections/${collection.id}/permissions`, { token: admin.token, body: { role: 'admin', users: [guest.id] } })).status, 204);
  members.set('guest', guest);
});

/** The member whose role is just below `role` (space and collection roles follow the organization role here: every level inherits). */
function oneBelow(role: MemberRole): Person {
  return members.get(memberRoles[memberRoles.indexOf(role) + 1] ?? 'guest')!;
}

const concrete = (route: Route) => concretePath(route.path, { organizationId, spaceId: space.id, revisionId: space.revision, collectionId: collection.id, hostname });

const guarded = () => allRoutes.filter((route) => route.policy.scope && route.policy.scope.role !== null && route.policy.scope.role !== 'read');

test('the route table declares what the every-route sweep needs', () => {
  assert.ok(guarded().length >= 30, `only ${guarded().length} routes declare a role above read`);
});

test('a caller one role below a route’s role gets 403 naming the role', async () => {
  for (const route of guarded()) {
    const role = route.policy.scope!.role as MemberRole;
    const response = await t.call(route.method, concrete(route), { token: oneBelow(role).token, body: route.method === 'GET' ? undefined : {} });
    const below = memberRoles[memberRoles.indexOf(role) + 1];
    const kind = route.policy.scope!.kind;
    const where = { organization: 'in the organization', space: 'on the space', collection: 'on the collection' }[kind];
    // An organization role is what the caller is; a space or collection role, one they have there.
    const alternatives = kind === 'organization' ? '( or on the site)?( \\(or being [^)]+\\))?' : '';
    assertErrorIs(response, 403, new RegExp(`This operation needs the ${role} role ${where}${alternatives}; you ${kind === 'organization' ? 'are' : 'have'} ${below}`));
  }
});

test('a caller with the route’s role but one role below each of its added rules gets 403', async () => {
  let checked = 0;
  for (const route of allRoutes) {
    const scope = route.policy.scope;
    for (const requirement of scope?.also ?? []) {
      if (!requirement.needs) continue;
      const needed = requirement.needs.role;
      const caller = oneBelow(needed);
      const callerRole = memberRoles[memberRoles.indexOf(needed) + 1];
      // Only where the caller still passes the route's own role: then the added rule is what refuses.
      // The guest passes it on the space and the collection they were given admin on, nowhere else.
      if (callerRole === undefined ? scope!.kind === 'organization' : scope!.role !== null && memberRoles.indexOf(callerRole) > memberRoles.indexOf(scope!.role)) continue;
      const response = await t.call(route.method, concrete(route), { token: caller.token, body: route.method === 'GET' ? undefined : (requirement.needs.body ?? {}) });
      // What the rule is about varies ("Changing editMode", "Duplicating a space"); the rest is exact.
      const of = requirement.needs.of === 'organization' ? `in its organization; you are ${callerRole ?? 'guest'}` : `on the ${scope!.kind}; you have ${callerRole ?? 'admin'}`;
      assertErrorIs(response, 403, new RegExp(`[A-Z][a-zA-Z ,]+ needs the ${needed} role ${of}`));
      checked++;
    }
  }
  assert.ok(checked >= 2, `only ${checked} added rules were checked`);
});

test.run();
