import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { X509Certificate } from 'node:crypto';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import { expiredCertificate, validCertificate } from '../helpers/certificates.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('SAML providers: URLs and certificates that can sign someone in');
let t: TestServer;
let fx: OrganizationFixture;
let saml: string;

withOrganization(test, (setup) => {
  ({ t, fx } = setup);
  saml = `/v1/orgs/${fx.org.id}/saml`;
});

const usable = { label: 'IdP', entityID: 'https://idp.quire.test/metadata', certificate: validCertificate, ssoURL: 'https://idp.quire.test/sso' };

test('sign-in URLs: https only, http only for loopback hosts', async () => {
  for (const ssoURL of ['javascript:alert(1)', 'file:///etc/passwd', 'http://idp.example.com/sso', 'ftp://idp.example.com/', 'data:text/html,x', 'http://127.0.0.1.example.com/']) {
    const scheme = ssoURL.split(':')[0];
    assertErrorIs(
      await t.call('POST', saml, { token: fx.admin.token, body: { ...usable, ssoURL } }),
      400,
      `Invalid request body: "ssoURL" must be an https URL (http only for a loopback host such as localhost), got ${scheme}`,
    );
  }
  for (const ssoURL of ['https://idp.example.com/sso', 'http://localhost:8080/sso', 'http://127.0.0.1/sso', 'http://[::1]:9000/sso']) {
    const created = await t.call('POST', saml, { token: fx.admin.token, body: { ...usable, ssoURL } });
    assert.is(created.status, 201, `${ssoURL}: ${JSON.stringify(created.body)}`);
    assert.is(created.body.status, 'active');
  }
  const pending = await t.call('POST', saml, { token: fx.admin.token, body: { label: 'Later' } });
  assertErrorIs(
    await t.call('PATCH', `${saml}/${pending.body.id}`, { token: fx.admin.token, body: { ssoURL: 'javascript:alert(1)' } }),
    400,
    'Invalid request body: "ssoURL" must be an https URL (http only for a loopback host such as localhost), got javascript',
  );
});

test('certificates are parsed as X.509: not one is a 400, an expired one is a 400 naming the date, a valid one reports its expiry', async () => {
  assertErrorIs(
    await t.call('POST', saml, { token: fx.admin.token, body: { ...usable, certificate: 'MIIC...' } }),
    400,
    'Invalid request body: "certificate" is not an X.509 certificate (PEM, or base64 DER): error:0480006C:PEM routines::no start line',
  );
  assertErrorIs(
    await t.call('POST', saml, { token: fx.admin.token, body: { ...usable, certificate: '-----BEGIN CERTIFICATE-----\nMIIC...\n-----END CERTIFICATE-----' } }),
    400,
    'Invalid request body: "certificate" is not an X.509 certificate (PEM, or base64 DER): error:04800064:PEM routines::bad base64 decode',
  );
  assertErrorIs(
    await t.call('POST', saml, { token: fx.admin.token, body: { ...usable, certificate: expiredCertificate } }),
    400,
    'Invalid request body: "certificate" expired on 2021-01-01T00:00:00.000Z',
  );
  const created = await t.call('POST', saml, { token: fx.admin.token, body: usable });
  assert.is(created.status, 201);
  assert.is(created.body.status, 'active');
  assert.is(created.body.certificateExpiresAt, new Date(new X509Certificate(validCertificate).validTo).toISOString());
  // The bare base64 DER of SAML metadata is a certificate too.
  const der = validCertificate.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
  const bare = await t.call('POST', saml, { token: fx.admin.token, body: { ...usable, certificate: der } });
  assert.is(bare.status, 201, JSON.stringify(bare.body));
  assert.is(bare.body.certificateExpiresAt, created.body.certificateExpiresAt);
});

test('active only when URL, entity id and certificate are all valid; only active providers are offered for sign-in', async () => {
  const noEntity = await t.call('POST', saml, { token: fx.admin.token, body: { ...usable, label: 'No entity', entityID: undefined } });
  assert.is(noEntity.body.status, 'pending');
  const noCertificate = await t.call('POST', saml, { token: fx.admin.token, body: { ...usable, label: 'No cert', certificate: undefined } });
  assert.is(noCertificate.body.status, 'pending');
  assert.is(noCertificate.body.certificateExpiresAt, undefined);
  // A provider stored before these checks, with a bad URL and no certificate, reads as pending.
  const legacy = await t.call('POST', saml, { token: fx.admin.token, body: { label: 'Legacy' } });
  await t.server.db.run("UPDATE saml_providers SET sso_url = 'javascript:alert(1)', entity_id = 'x', certificate = 'MIIC...' WHERE id = ?", [legacy.body.id]);
  assert.is((await t.call('GET', `${saml}/${legacy.body.id}`, { token: fx.admin.token })).body.status, 'pending');
  const logins = await t.call('GET', `/v1/orgs/${fx.org.id}/sso`, { token: fx.outsider.token });
  const offered = logins.body.items.map((item: { id: string }) => item.id);
  assert.not.ok(offered.includes(legacy.body.id));
  assert.not.ok(offered.includes(noEntity.body.id));
});

test.run();
