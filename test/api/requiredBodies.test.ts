import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertError, type OrganizationFixture } from '../helpers/fixtures.js';
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
    assertError(await t.call(method, path, { token: fx.admin.token }), 400, 'A JSON request body is required');
    assert.is((await t.call(method, path, { token: fx.admin.token, body: {} })).status, status, `${method} ${path} with {}`);
  }
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/members/${fx.reader.id}`, { token: fx.admin.token })).body.role, 'read', 'nothing changed');
});

test.run();
