import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { acceptInvitation, assertErrorIs, organizationWithMembers, type OrganizationFixture, type Person } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

const test = suite('role checks inside the write transaction');
let t: TestServer;
let fx: OrganizationFixture;

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    fx = await organizationWithMembers(t);
  }),
);
test.after(async () => t.close());

async function newAdmin(): Promise<Person> {
  const person = await t.user();
  await t.call('POST', `/v1/orgs/${fx.org.id}/invites`, { token: fx.admin.token, body: { emails: [{ email: person.email, role: 'admin' }] } });
  await acceptInvitation(t, fx.org.id, person);
  return person;
}

const roleOf = async (person: Person) => (await t.call('GET', `/v1/orgs/${fx.org.id}/members/${person.id}`, { token: fx.admin.token })).body.role;

test('two admins demoting each other at the same moment: exactly one wins, every time', async () => {
  for (let trial = 0; trial < 10; trial++) {
    const [a, b] = await Promise.all([newAdmin(), newAdmin()]);
    const [byA, byB] = await Promise.all([
      t.call('PATCH', `/v1/orgs/${fx.org.id}/members/${b.id}`, { token: a.token, body: { role: 'read' } }),
      t.call('PATCH', `/v1/orgs/${fx.org.id}/members/${a.id}`, { token: b.token, body: { role: 'read' } }),
    ]);
    const statuses = [byA.status, byB.status].sort();
    assert.equal(statuses, [200, 403], `trial ${trial}: ${JSON.stringify([byA.body, byB.body])}`);
    const loser = byA.status === 403 ? byA : byB;
    assertErrorIs(loser, 403, 'This operation needs the admin role in the organization; you are read');
    assert.equal([await roleOf(a), await roleOf(b)].sort(), ['admin', 'read'], `trial ${trial}: one admin left of the two`);
  }
});

test.run();
