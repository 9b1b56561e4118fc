import { suite } from 'uvu';
import { anyone, signedIn } from '../../api/policies/index.js';
import { allRoutes } from '../../api/routes/index.js';
import { assertError, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

// Sweeps the whole route table, so no operation misses the checks every operation must pass.
const test = suite('every route');
let t: TestServer;
let fx: OrganizationFixture;
let space: { id: string; revision: string };
let collection: { id: string };
withOrganization(test, (setup) => ({ t, fx } = setup));
test.before(async () => {
  space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Swept' } })).body;
  collection = (await t.call('POST', `/v1/orgs/${fx.org.id}/collections`, { token: fx.admin.token, body: { title: 'Swept' } })).body;
});

/** The route's path with the fixture's organization and space, and made-up ids for the rest. */
const concrete = (path: string, organizationId: string) =>
  '/v1' +
  path
    .replace(':organizationId', organizationId)
    .replace(':spaceId', space.id)
    .replace(':revisionId', space.revision)
    .replace(':collectionId', collection.id)
    .replace(/[:*][A-Za-z]+/g, 'someId')
    .replace(/\/$/, '');
const bodyFor = (method: string) => (method === 'GET' ? undefined : {});

test('without a token every route but the API information answers 401', async () => {
  for (const route of allRoutes.filter((r) => r.policy !== anyone)) {
    assertError(await t.call(route.method, concrete(route.path, fx.org.id), { body: bodyFor(route.method) }), 401, 'Authorization');
  }
});

test('a member of another organization gets 404 from every organization route', async () => {
  for (const route of allRoutes.filter((r) => r.policy !== anyone && r.policy !== signedIn)) {
    assertError(await t.call(route.method, concrete(route.path, fx.org.id), { token: fx.outsider.token, body: bodyFor(route.method) }), 404, 'not found');
  }
});

test('an unknown query parameter is a 400 naming it, on every route', async () => {
  for (const route of allRoutes) {
    const response = await t.call(route.method, `${concrete(route.path, fx.org.id)}?surprise=1`, { token: fx.admin.token, body: bodyFor(route.method) });
    assertError(response, 400, /"surprise" is not an accepted field|" is required/);
  }
});

test('a body field the operation doesn’t know is a 400, on every route that reads a body', async () => {
  for (const route of allRoutes.filter((r) => r.method !== 'GET')) {
    const response = await t.call(route.method, concrete(route.path, fx.org.id), { token: fx.admin.token, body: { surprise: 1 } });
    assertError(response, 400, /"surprise" is not an accepted field|takes no request body|" is required/);
  }
});

test.run();
