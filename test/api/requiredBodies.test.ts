import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('updates whose body upstream requires');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => ({ t, fx } = setup));

test('PATCH organization, member, SAML provider and PUT team members: no body is a 400, an empty one changes nothing', async () => {
  const team = await t.call('PUT', `/v1/orgs/${fx.org.id}/teams`, { token: fx.admin.token, body: { title: 'Bodies' } });
  const provider = await t.call('POST', `/v1/orgs/${fx.org.id}/saml`, { token: fx.admin.token, body: { label: 'Bodies' } });
  for (const [method, path, status] of [
    ['PATCH', `/v1/orgs/${fx.org.id}`, 200],
    ['PATCH', `/v1/orgs/${fx.org.id}/members/${fx.reader.id}`, 200],
    ['PATCH', `/v1/orgs/${fx.org.id}/saml/${provider.body.id}`, 200],
    ['PUT', `/v1/orgs/${fx.org.id}/teams/${team.body.id}/members`, 204],
  ] as const) {
    assertErrorIs(await t.call(method, path, { token: fx.admin.token }), 400, 'A JSON request body is required', `${method} ${path}`);
    assert.is((await t.call(method, path, { token: fx.admin.token, body: {} })).status, status, `${method} ${path} with {}`);
  }
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/members/${fx.reader.id}`, { token: fx.admin.token })).body.role, 'read', 'nothing changed');
});

test('PATCH space, collection, site, section, site space, section group and POST change request: no body is a 400, an empty one works', async () => {
  const call = async (method: string, path: string, body: unknown) => (await t.call(method, path, { token: fx.admin.token, body })).body;
  const space = await call('POST', `/v1/orgs/${fx.org.id}/spaces`, { title: 'Bodies' });
  const collection = await call('POST', `/v1/orgs/${fx.org.id}/collections`, { title: 'Bodies' });
  const site = await call('POST', `/v1/orgs/${fx.org.id}/sites`, { title: 'Bodies', spaces: [space.id] });
  const base = `/v1/orgs/${fx.org.id}/sites/${site.id}`;
  const section = await call('POST', `${base}/sections`, { spaceId: space.id, title: 'Guides' });
  const siteSpace = (await t.call('GET', `${base}/site-spaces`, { token: fx.admin.token })).body.items[0];
  const group = await call('POST', `${base}/section-groups`, { title: 'Group' });
  for (const [method, path, status] of [
    ['PATCH', `/v1/spaces/${space.id}`, 200],
    ['PATCH', `/v1/collections/${collection.id}`, 200],
    ['PATCH', base, 200],
    ['PATCH', `${base}/sections/${section.id}`, 200],
    ['PATCH', `${base}/site-spaces/${siteSpace.id}`, 200],
    ['PATCH', `${base}/section-groups/${group.id}`, 200],
    ['POST', `/v1/spaces/${space.id}/change-requests`, 201],
  ] as const) {
    assertErrorIs(await t.call(method, path, { token: fx.admin.token }), 400, 'A JSON request body is required', `${method} ${path}`);
    assert.is((await t.call(method, path, { token: fx.admin.token, body: {} })).status, status, `${method} ${path} with {}`);
  }
  assert.is((await t.call('GET', `/v1/spaces/${space.id}/change-requests?status=open`, { token: fx.admin.token })).body.items.length, 1, 'one change request: the refused post made none');
});

test.run();
