import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('joining by email domain');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => ({ t, fx } = setup));

test('a member joining again has nothing to do (204), whatever their email domain', async () => {
  for (const person of [fx.admin, fx.reader, fx.guest]) {
    assert.is((await t.call('POST', `/v1/orgs/${fx.org.id}/join`, { token: person.token })).status, 204);
  }
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/members/${fx.guest.id}`, { token: fx.admin.token })).body.role, null, 'roles unchanged');
  assertErrorIs(await t.call('POST', `/v1/orgs/${fx.org.id}/join`, { token: fx.outsider.token }), 400, `Your email domain "example.com" is not one that organization ${fx.org.id} accepts`);
});

test.run();
