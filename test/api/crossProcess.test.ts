import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listTokens } from '../../storage/tokens.js';
import { acceptInvitation, assertErrorIs, messages } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { runAdmin, startService, type ServiceProcess } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';
import { checkedBody } from '../helpers/upstream.js';

// Two API processes over one DATA_DIR, and the admin CLI beside them: what one writes, the other
// serves (its caches notice SQLite's data_version, or PostgreSQL's NOTIFY). How soon is bench/crossProcess.ts's figure;
// here it must happen before a deadline far above it.
const test = suite('caches across processes');
let t: TestServer;
let other: ServiceProcess;
let admin: { id: string; token: string };
let orgId: string;

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    other = await startService({ DATA_DIR: t.dataDir, TEMPORAL_ADDRESS: t.server.jobs.settings.address, QUIRE_WORKER: 'off' });
    admin = await t.user();
    orgId = (await t.call('POST', '/v1/orgs', { token: admin.token, body: { title: 'Shared' } })).body.id;
  }),
);
test.after(async () => {
  await other?.stop('SIGTERM');
  await t?.close();
});

/** A GET on the other process, checked against the upstream schema like every answer. */
async function getOther(path: string, token: string): Promise<{ status: number; body: any }> {
  const response = await fetch(other.url + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: await checkedBody('GET', path, response) };
}

test('a write through one process is served by the other, both ways', async () => {
  const path = `/v1/orgs/${orgId}`;
  assert.is((await getOther(path, admin.token)).body.title, 'Shared', 'the other process has read (and cached) it');
  assert.is((await t.call('PATCH', path, { token: admin.token, body: { title: 'Renamed here' } })).status, 200);
  await until('the other process to serve the new title', async () => (await getOther(path, admin.token)).body.title === 'Renamed here', 5000);

  assert.is((await t.call('GET', path, { token: admin.token })).body.title, 'Renamed here', 'this process has it cached');
  const patched = await fetch(other.url + path, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Renamed there' }),
  });
  assert.is(patched.status, 200, JSON.stringify(await checkedBody('PATCH', path, patched)));
  await until('this process to serve the title written by the other', async () => (await t.call('GET', path, { token: admin.token })).body.title === 'Renamed there', 5000);
});

test('a token revoked with the admin CLI while both processes have it cached is refused by both', async () => {
  const person = await t.user();
  await t.call('POST', `/v1/orgs/${orgId}/invites`, { token: admin.token, body: { emails: [{ email: person.email, role: 'read' }] } });
  assert.is((await t.call('GET', '/v1/user', { token: person.token })).status, 200);
  assert.is((await getOther('/v1/user', person.token)).status, 200);
  const [token] = await listTokens(t.server.db, person.id);
  const revoked = await runAdmin(['token', 'revoke', '--id', token!.id], { DATA_DIR: t.dataDir });
  assert.is(revoked.code, 0, revoked.stderr);
  assert.is(revoked.stdout.trim(), 'revoked');
  await until('this process to refuse the revoked token', async () => (await t.call('GET', '/v1/user', { token: person.token })).status === 401, 5000);
  assertErrorIs(await t.call('GET', '/v1/user', { token: person.token }), 401, messages.badToken);
  await until('the other process to refuse the revoked token', async () => (await getOther('/v1/user', person.token)).status === 401, 5000);
  assert.equal((await getOther('/v1/user', person.token)).body, { error: { code: 401, message: messages.badToken } });
  assert.is((await t.call('GET', '/v1/user', { token: admin.token })).status, 200, 'other tokens still work');
});

test('two admins demoting each other through the two processes at once: exactly one wins, every time', async () => {
  const newAdmin = async () => {
    const person = await t.user();
    await t.call('POST', `/v1/orgs/${orgId}/invites`, { token: admin.token, body: { emails: [{ email: person.email, role: 'admin' }] } });
    await acceptInvitation(t, orgId, person);
    return person;
  };
  /** A PATCH through either process, its answer checked against the upstream schema. */
  const demote = async (server: string, by: { token: string }, whom: { id: string }) => {
    const path = `/v1/orgs/${orgId}/members/${whom.id}`;
    const response = await fetch(server + path, { method: 'PATCH', headers: { authorization: `Bearer ${by.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ role: 'read' }) });
    return { status: response.status, body: await checkedBody('PATCH', path, response) };
  };
  for (let trial = 0; trial < 10; trial++) {
    const [a, b] = await Promise.all([newAdmin(), newAdmin()]);
    // Both have been read (and their roles cached) by both processes before they race.
    for (const person of [a, b]) assert.is((await getOther(`/v1/orgs/${orgId}/members/${person.id}`, admin.token)).status, 200);
    const [byA, byB] = await Promise.all([demote(t.url, a, b), demote(other.url, b, a)]);
    assert.equal([byA.status, byB.status].sort(), [200, 403], `trial ${trial}: ${JSON.stringify([byA.body, byB.body])}`);
    const roles = await Promise.all([a, b].map(async (person) => (await t.call('GET', `/v1/orgs/${orgId}/members/${person.id}`, { token: admin.token })).body.role));
    assert.equal(roles.sort(), ['admin', 'read'], `trial ${trial}: one admin left of the two`);
  }
});

test.run();
