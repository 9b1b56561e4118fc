import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configFromEnv } from '../../api/config.js';
import { assertErrorIs, organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { assertErrorBody, checkedBody } from '../helpers/upstream.js';
import { reportingErrors } from '../helpers/suite.js';

const test = suite('consent: joining organizations and seeing users');
let t: TestServer;
let fx: OrganizationFixture;

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    fx = await organizationWithMembers(t);
  }),
);
test.after(async () => t.close());

/** Quire's own operations: raw calls, as the upstream-schema check of `t.call` knows only upstream paths. */
async function quire(method: string, path: string, token: string) {
  const response = await fetch(`${t.url}/v1${path}`, { method, headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  const body = text ? JSON.parse(text) : undefined;
  if (response.status >= 400) assertErrorBody(response.status, body, `${method} ${path}`);
  return { status: response.status, body, headers: response.headers };
}

test('an admin of their own organization cannot pull a user in through the SSO route, nor learn whether the id exists', async () => {
  const stranger = await t.user();
  const mine = await t.call('POST', '/v1/orgs', { token: fx.outsider.token, body: { title: 'Grabby' } });
  const grabbed = await t.call('POST', `/v1/orgs/${mine.body.id}/members/${stranger.id}/sso`, { token: fx.outsider.token });
  const unknown = await t.call('POST', `/v1/orgs/${mine.body.id}/members/notAUser0000/sso`, { token: fx.outsider.token });
  assertErrorIs(grabbed, 404, `Member ${stranger.id} not found in organization ${mine.body.id}`);
  assertErrorIs(unknown, 404, `Member notAUser0000 not found in organization ${mine.body.id}`);
  assert.not.ok(JSON.stringify(grabbed.body).includes(stranger.email), 'no email in the answer');
  assert.is(grabbed.body.error.message.replace(stranger.id, 'ID'), unknown.body.error.message.replace('notAUser0000', 'ID'), 'the same answer for both');
  assertErrorIs(await t.call('GET', `/v1/orgs/${mine.body.id}`, { token: stranger.token }), 404, `Organization ${mine.body.id} not found`);
});

test('an invitation waits for its user: they list it, accept it, and only then are a member', async () => {
  const invitee = await t.user();
  const invited = await t.call('POST', `/v1/orgs/${fx.org.id}/invites`, { token: fx.admin.token, body: { emails: [invitee.email], role: 'edit' } });
  assert.is(invited.status, 200);
  assert.is(invited.body.invited, 1);
  assertErrorIs(await t.call('GET', `/v1/orgs/${fx.org.id}`, { token: invitee.token }), 404, `Organization ${fx.org.id} not found`);
  assertErrorIs(await t.call('GET', `/v1/orgs/${fx.org.id}/members/${invitee.id}`, { token: fx.admin.token }), 404, `Member ${invitee.id} not found in organization ${fx.org.id}`);

  const pending = await quire('GET', '/user/invitations', invitee.token);
  assert.is(pending.status, 200);
  assert.is(pending.body.count, 1);
  assert.is(pending.body.items[0].organization.id, fx.org.id);
  assert.is(pending.body.items[0].role, 'edit');
  assert.is((await quire('GET', '/user/invitations', fx.reader.token)).body.count, 0, 'nobody else sees it');
  assertErrorIs(await quire('POST', `/user/invitations/${fx.org.id}`, fx.outsider.token), 404, `No invitation to organization ${fx.org.id} is waiting for you`);

  const accepted = await quire('POST', `/user/invitations/${fx.org.id}`, invitee.token);
  assert.is(accepted.status, 200, JSON.stringify(accepted.body));
  assert.is(accepted.body.object, 'member');
  assert.is(accepted.body.role, 'edit');
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}`, { token: invitee.token })).status, 200);
  assert.is((await quire('GET', '/user/invitations', invitee.token)).body.count, 0);
  assertErrorIs(await quire('POST', `/user/invitations/${fx.org.id}`, invitee.token), 404, `No invitation to organization ${fx.org.id} is waiting for you`);
});

test('a declined invitation is gone and made no member', async () => {
  const invitee = await t.user();
  await t.call('POST', `/v1/orgs/${fx.org.id}/invites`, { token: fx.admin.token, body: { emails: [invitee.email] } });
  assert.is((await quire('DELETE', `/user/invitations/${fx.org.id}`, invitee.token)).status, 205);
  assert.is((await quire('DELETE', `/user/invitations/${fx.org.id}`, invitee.token)).status, 204);
  assertErrorIs(await quire('POST', `/user/invitations/${fx.org.id}`, invitee.token), 404, `No invitation to organization ${fx.org.id} is waiting for you`);
  assertErrorIs(await t.call('GET', `/v1/orgs/${fx.org.id}`, { token: invitee.token }), 404, `Organization ${fx.org.id} not found`);
  assertErrorIs(await quire('GET', '/user/invitations', 'qr_forged'), 401, 'The bearer token is not valid');
});

test('a user whose verified email domain the organization lists joins at once when invited', async () => {
  await t.call('PATCH', `/v1/orgs/${fx.org.id}`, { token: fx.admin.token, body: { emailDomains: ['consent.example'] } });
  const verified = await t.user('vera@consent.example');
  const unverified = await t.user('una@consent.example', { verified: false });
  const invited = await t.call('POST', `/v1/orgs/${fx.org.id}/invites`, { token: fx.admin.token, body: { emails: [verified.email, unverified.email] } });
  assert.is(invited.body.invited, 2);
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/members/${verified.id}`, { token: fx.admin.token })).status, 200);
  assertErrorIs(await t.call('GET', `/v1/orgs/${fx.org.id}/members/${unverified.id}`, { token: fx.admin.token }), 404, `Member ${unverified.id} not found in organization ${fx.org.id}`);
  await t.call('PATCH', `/v1/orgs/${fx.org.id}`, { token: fx.admin.token, body: { emailDomains: [] } });
});

test('GET /users/{id}: themselves and people they share an organization with, email included; anyone else 404', async () => {
  const self = await t.call('GET', `/v1/users/${fx.reader.id}`, { token: fx.reader.token });
  assert.is(self.status, 200);
  assert.is(self.body.email, fx.reader.email);
  const colleague = await t.call('GET', `/v1/users/${fx.editor.id}`, { token: fx.reader.token });
  assert.is(colleague.status, 200);
  assert.is(colleague.body.email, fx.editor.email);
  assert.is(new URL(colleague.body.urls.location).pathname, `/v1/users/${fx.editor.id}`, 'urls.location is this route');
  const member = await t.call('GET', `/v1/orgs/${fx.org.id}/members/${fx.editor.id}`, { token: fx.reader.token });
  const location = new URL(member.body.user.urls.location).pathname;
  const viaLocation = await fetch(t.url + location, { headers: { authorization: `Bearer ${fx.reader.token}` } });
  assert.is(viaLocation.status, 200);
  assert.is(((await checkedBody('GET', location, viaLocation)) as { id: string }).id, fx.editor.id);
  const stranger = await t.call('GET', `/v1/users/${fx.editor.id}`, { token: fx.outsider.token });
  const nobody = await t.call('GET', '/v1/users/notAUser0000', { token: fx.outsider.token });
  assertErrorIs(stranger, 404, `User ${fx.editor.id} not found`);
  assertErrorIs(nobody, 404, 'User notAUser0000 not found');
  assert.not.ok(JSON.stringify(stranger.body).includes(fx.editor.email));
  assertErrorIs(await t.call('GET', `/v1/users/${fx.editor.id}`), 401, 'Authentication required: send an Authorization: Bearer <token> header');
});

test('QUIRE_ORG_CREATION=operators: POST /orgs is a 403 that says who can; the default is anyone', async () => {
  assert.is(configFromEnv({}).organizationCreation, 'anyone');
  assert.is(configFromEnv({ QUIRE_ORG_CREATION: 'operators' }).organizationCreation, 'operators');
  assert.throws(() => configFromEnv({ QUIRE_ORG_CREATION: 'admins' }), /QUIRE_ORG_CREATION/);
  const locked = await startTestServer({ organizationCreation: 'operators' });
  try {
    const user = await locked.user();
    assertErrorIs(
      await locked.call('POST', '/v1/orgs', { token: user.token, body: { title: 'Mine' } }),
      403,
      'On this instance only operators create organizations (QUIRE_ORG_CREATION=operators): ask one to run `npm run admin -- org create`',
    );
    assert.is((await locked.call('GET', '/v1/orgs', { token: user.token })).body.count, 0);
  } finally {
    await locked.close();
  }
});

test.run();
