import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { allRoutes } from '../../api/routes/index.js';
import { specPath } from '../../api/routes/table.js';
import { memberRoles, type MemberRole } from '../../storage/members.js';
import { acceptInvitation, messages, type Person } from '../helpers/fixtures.js';
import { intendedRole } from '../helpers/routeRoles.js';
import { concretePath, siteWithHostname } from '../helpers/routePaths.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

/**
 * Every route, called by every kind of caller (no token, a member of another organization, a
 * guest, and each organization role), against the role written for its operation apart from the
 * routes (test/fixtures/expectedRoles.ts, from GitBook's roles; docs/permissions.md is generated
 * from the routes, so it can't be the judge). Each request carries an unknown query parameter (and
 * body field): a caller the policy lets through gets the validation's 400, so nothing is changed
 * while the whole matrix is walked.
 */
const test = suite('the permission matrix of the roles GitBook gives each operation');
let t: TestServer;
let organizationId = '';
const callers = new Map<string, Person | undefined>();
let space: { id: string; revision: string };
let collection: { id: string };
let hostname = '';

withOrganization(test, (setup) => {
  t = setup.t;
  organizationId = setup.fx.org.id;
  callers.set('no token', undefined);
  callers.set('outsider', setup.fx.outsider);
  callers.set('guest', setup.fx.guest);
  callers.set('admin', setup.fx.admin);
});
test.before(async () => {
  const admin = callers.get('admin')!;
  for (const role of memberRoles.filter((role) => role !== 'admin')) {
    const person = await t.user();
    assert.is((await t.call('POST', `/v1/orgs/${organizationId}/invites`, { token: admin.token, body: { emails: [{ email: person.email, role }] } })).status, 200);
    await acceptInvitation(t, organizationId, person);
    callers.set(role, person);
  }
  space = (await t.call('POST', `/v1/orgs/${organizationId}/spaces`, { token: admin.token, body: { title: 'Matrix' } })).body;
  collection = (await t.call('POST', `/v1/orgs/${organizationId}/collections`, { token: admin.token, body: { title: 'Matrix' } })).body;
  hostname = await siteWithHostname(t, organizationId, admin.token, 'permissionmatrix.acme.test');
  // The grants dimension: a guest invited to the space with edit, and a reader whose team is given
  // admin on the space; on everything else both keep what their organization role gives.
  const invited = await t.user();
  assert.is((await t.call('POST', `/v1/orgs/${organizationId}/invites`, { token: admin.token, body: { emails: [{ email: invited.email, role: null }] } })).status, 200);
  await acceptInvitation(t, organizationId, invited);
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/permissions`, { token: admin.token, body: { role: 'edit', users: [invited.id] } })).status, 204);
  callers.set('guest with space edit', invited);
  const teamReader = await t.user();
  assert.is((await t.call('POST', `/v1/orgs/${organizationId}/invites`, { token: admin.token, body: { emails: [{ email: teamReader.email, role: 'read' }] } })).status, 200);
  await acceptInvitation(t, organizationId, teamReader);
  const team = await t.call('PUT', `/v1/orgs/${organizationId}/teams`, { token: admin.token, body: { title: 'Matrix admins', members: [teamReader.id] } });
  assert.is(team.status, 201, JSON.stringify(team.body));
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/permissions`, { token: admin.token, body: { role: 'admin', teams: [team.body.id] } })).status, 204);
  callers.set('read with team space admin', teamReader);
});

/** The callers given a role on the matrix space, with what their organization role is. */
const spaceGrants: Record<string, { organizationRole: string; onSpace: MemberRole }> = {
  'guest with space edit': { organizationRole: 'guest', onSpace: 'edit' },
  'read with team space admin': { organizationRole: 'read', onSpace: 'admin' },
};

type Outcome = 'allowed' | 'unauthenticated' | 'hidden' | 'refused';

/**
 * What an operation's intended role (`anyone`, `signed-in`, `<organization|space|collection>:<role>`)
 * says a caller gets; every level of the fixture inherits the organization role. The rules a route
 * adds to its role are checked once the request is validated (test/api/policies.test.ts calls each
 * with a role below it).
 */
function expected(role: string, caller: string): Outcome {
  const granted = spaceGrants[caller];
  if (granted) return role.startsWith('space:') ? expected(role, granted.onSpace) : expected(role, granted.organizationRole);
  if (role === 'anyone') return 'allowed';
  if (caller === 'no token') return 'unauthenticated';
  if (role === 'signed-in') return 'allowed';
  const [scope, needed] = role.split(':') as [string, MemberRole | 'guest'];
  if (caller === 'outsider') return 'hidden';
  if (needed === 'guest') return 'allowed';
  if (caller === 'guest') return scope === 'organization' ? 'refused' : 'hidden';
  return memberRoles.indexOf(caller as MemberRole) <= memberRoles.indexOf(needed) ? 'allowed' : 'refused';
}

function outcomeOf(response: { status: number; body: { error?: { message?: string } } }, path: string): Outcome | string {
  const message = response.body?.error?.message ?? '';
  if (response.status === 401) return 'unauthenticated';
  if (response.status === 404 && message === messages.notFoundFor(path.split('?')[0]!)) return 'hidden';
  if (response.status === 403 && / needs /.test(message)) return 'refused';
  if (response.status === 400 && /"surprise" is not an accepted field|takes no request body/.test(message)) return 'allowed';
  return `${response.status} ${message}`;
}

test('every route answers every kind of caller as its intended role says', async () => {
  const wrong: string[] = [];
  let checked = 0;
  for (const route of allRoutes) {
    const role = intendedRole(route.operationId);
    assert.ok(role, `${route.operationId} has an intended role (test/fixtures/expectedRoles.ts)`);
    // A required query (a search's `query`) is given, so that the unknown parameter is what fails.
    const query = new URLSearchParams({
      ...(((route.operationId.startsWith('search') || route.operationId === 'streamAskInOrganization') && route.method === 'GET' && { query: 'setup' }) || {}),
      ...(((route.operationId === 'getPublishedContentByUrl' || route.operationId === 'getContentByUrl' || route.operationId.startsWith('getEmbedByUrl')) && { url: 'https://docs.example.com/' }) ||
        {}),
      ...((route.operationId === 'getSiteRedirectBySource' && { source: '/old' }) || {}),
      ...((route.operationId === 'getOrganizationAIUsage' && { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' }) || {}),
      surprise: '1',
    });
    const path = `${concretePath(route.path, { organizationId, spaceId: space.id, revisionId: space.revision, collectionId: collection.id, hostname })}?${query}`;
    for (const [caller, person] of callers) {
      const response = await t.call(route.method, path, { token: person?.token, body: route.method === 'GET' ? undefined : { surprise: 1 } });
      const want = expected(role!, caller);
      const got = outcomeOf(response, path);
      checked += 1;
      if (got !== want) wrong.push(`${route.method} ${specPath(route.path)} (${role}) as ${caller}: expected ${want}, got ${got}`);
    }
  }
  assert.equal(wrong, [], wrong.join('\n'));
  assert.ok(checked >= allRoutes.length * 11);
});

test.run();
