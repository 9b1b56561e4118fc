import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, assertGuarded, messages, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';
import { validCertificate } from '../helpers/certificates.js';

const test = suite('SAML providers and SSO');
let t: TestServer;
let fx: OrganizationFixture;
let saml: string;

const complete = {
  label: 'Okta',
  entityID: 'http://www.okta.com/exk1',
  // A real X.509 certificate: a made-up one is refused (issue 10, defect 9).
  certificate: validCertificate,
  ssoURL: 'https://acme.okta.example/app/sso/saml',
};

withOrganization(test, (setup) => {
  ({ t, fx } = setup);
  saml = `/v1/orgs/${fx.org.id}/saml`;
});

test('POST saml creates a provider: pending until fully configured', async () => {
  const pending = await t.call('POST', saml, { token: fx.admin.token, body: { label: 'Draft' } });
  assert.is(pending.status, 201);
  assert.is(pending.body.status, 'pending');
  assert.is(pending.body.defaultRole, null);
  const team = await t.call('PUT', `/v1/orgs/${fx.org.id}/teams`, { token: fx.admin.token, body: { title: 'SSO people' } });
  const active = await t.call('POST', saml, { token: fx.admin.token, body: { ...complete, defaultTeam: team.body.id, defaultRole: 'edit' } });
  assert.is(active.status, 201);
  assert.is(active.body.status, 'active');
  assert.is(active.body.defaultTeam.id, team.body.id);
  assert.is(active.body.defaultRole, 'edit');
  assert.match(active.body.service.acsURL, /^http:\/\/localhost:\d+\/app\/sign-in\/saml\//);

  assertErrorIs(await t.call('POST', saml, { token: fx.admin.token, body: {} }), 400, 'Invalid request body: "label" is required');
  assertErrorIs(await t.call('POST', saml, { token: fx.admin.token, body: { label: 'x'.repeat(31) } }), 400, 'Invalid request body: "label" must NOT have more than 30 characters');
  assertErrorIs(
    await t.call('POST', saml, { token: fx.admin.token, body: { label: 'X', entityID: 'e'.repeat(1025) } }),
    400,
    'Invalid request body: "entityID" must NOT have more than 1024 characters',
  );
  assertErrorIs(
    await t.call('POST', saml, { token: fx.admin.token, body: { label: 'X', certificate: 'c'.repeat(10001) } }),
    400,
    'Invalid request body: "certificate" must NOT have more than 10000 characters',
  );
  assertErrorIs(await t.call('POST', saml, { token: fx.admin.token, body: { label: 'X', ssoURL: 'not a url' } }), 400, 'Invalid request body: "ssoURL" must match format "uri"');
  assertErrorIs(
    await t.call('POST', saml, { token: fx.admin.token, body: { label: 'X', ssoURL: `https://a.example/${'p'.repeat(2048)}` } }),
    400,
    'Invalid request body: "ssoURL" must NOT have more than 2048 characters',
  );
  assertErrorIs(await t.call('POST', saml, { token: fx.admin.token, body: { label: 'X', defaultTeam: 'noTeam' } }), 400, '"defaultTeam" noTeam is not a team of the organization');
  await assertGuarded(t, fx, 'POST', saml, { body: { label: 'X' }, tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create') } });
});

test('GET saml lists, GET one reads, unknown ids 404', async () => {
  const created = await t.call('POST', saml, { token: fx.admin.token, body: complete });
  const list = await t.call('GET', saml, { token: fx.admin.token });
  assert.is(list.status, 200);
  assert.ok(
    list.body.items.some((p: { id: string }) => p.id === created.body.id),
    'the new provider is listed',
  );
  const one = await t.call('GET', `${saml}/${created.body.id}`, { token: fx.admin.token });
  assert.is(one.body.label, 'Okta');
  assertErrorIs(await t.call('GET', `${saml}/unknown`, { token: fx.admin.token }), 404, `SAML provider unknown not found in organization ${fx.org.id}`);
  assertErrorIs(await t.call('GET', `${saml}?limit=abc`, { token: fx.admin.token }), 400, 'Invalid query parameter: "limit" must be a whole number written in decimal digits');
  await assertGuarded(t, fx, 'GET', saml, { tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create') } });
  await assertGuarded(t, fx, 'GET', `${saml}/${created.body.id}`, { tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create') } });
});

test('PATCH and DELETE a provider', async () => {
  const created = await t.call('POST', saml, { token: fx.admin.token, body: { label: 'Later' } });
  const path = `${saml}/${created.body.id}`;
  const patched = await t.call('PATCH', path, { token: fx.admin.token, body: { ssoURL: complete.ssoURL, entityID: complete.entityID, certificate: complete.certificate } });
  assert.is(patched.status, 200);
  assert.is(patched.body.status, 'active');
  assert.is(patched.body.label, 'Later');
  const reread = await t.call('GET', path, { token: fx.admin.token });
  assert.equal(
    [reread.body.ssoURL, reread.body.entityID, reread.body.certificate, reread.body.status],
    [complete.ssoURL, complete.entityID, complete.certificate, 'active'],
    'every patched field is stored',
  );
  assert.equal(reread.body, patched.body, 'the PATCH answers what a later GET reads');
  assertErrorIs(await t.call('PATCH', path, { token: fx.admin.token, body: { label: '' } }), 400, 'Invalid request body: "label" must NOT have fewer than 1 characters');
  assertErrorIs(await t.call('PATCH', `${saml}/unknown`, { token: fx.admin.token, body: { label: 'X' } }), 404, `SAML provider unknown not found in organization ${fx.org.id}`);
  await assertGuarded(t, fx, 'PATCH', path, { body: { label: 'X' }, tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create') } });
  await assertGuarded(t, fx, 'DELETE', path, { tooLow: { who: fx.creator, message: messages.needsOrgRole('admin', 'create') } });
  assert.is((await t.call('DELETE', path, { token: fx.admin.token })).status, 205);
  assert.is((await t.call('DELETE', path, { token: fx.admin.token })).status, 204);
  assertErrorIs(await t.call('GET', path, { token: fx.admin.token }), 404, `SAML provider ${created.body.id} not found in organization ${fx.org.id}`);
});

test('a SAML provider of another organization is not found under this organization’s path', async () => {
  const theirs = `/v1/orgs/${fx.elsewhere.id}/saml`;
  const foreign = await t.call('POST', theirs, { token: fx.outsider.token, body: { label: 'Theirs' } });
  assert.is(foreign.status, 201);
  const here = `${saml}/${foreign.body.id}`;
  const notHere = `SAML provider ${foreign.body.id} not found in organization ${fx.org.id}`;
  assertErrorIs(await t.call('GET', here, { token: fx.admin.token }), 404, notHere);
  assertErrorIs(await t.call('PATCH', here, { token: fx.admin.token, body: { label: 'Mine now' } }), 404, notHere);
  assert.is((await t.call('DELETE', here, { token: fx.admin.token })).status, 204, 'nothing of this organization to delete');
  assert.is((await t.call('GET', `${theirs}/${foreign.body.id}`, { token: fx.outsider.token })).body.label, 'Theirs', 'the other organization’s provider is untouched');
});

test('GET sso lists the sign-in options of active providers to any signed-in user', async () => {
  const active = await t.call('POST', saml, { token: fx.admin.token, body: { ...complete, label: 'Corporate' } });
  const logins = await t.call('GET', `/v1/orgs/${fx.org.id}/sso`, { token: fx.outsider.token });
  assert.is(logins.status, 200);
  const corporate = logins.body.items.find((item: { id: string }) => item.id === active.body.id);
  assert.is(corporate.label, 'Corporate');
  assert.is(corporate.startURL, active.body.service.startURL);
  assert.ok(
    logins.body.items.every((item: { label: string }) => item.label !== 'Draft'),
    'pending providers are not offered',
  );
  assertErrorIs(await t.call('GET', `/v1/orgs/${fx.org.id}/sso`), 401, 'Authentication required: send an Authorization: Bearer <token> header');
  const unknown = await t.call('GET', '/v1/orgs/doesNotExist/sso', { token: fx.admin.token });
  assert.equal(unknown.body, { items: [] }, 'an unknown organization offers no sign-in, without saying whether it exists');
});

test.run();
