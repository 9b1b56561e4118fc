import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configureIntegrations, integrations } from '../../domain/common/integrations.js';
import { startDnsServer, type Zone } from '../helpers/dnsServer.js';
import type { OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { siteMaker } from '../helpers/sites.js';
import { withOrganization } from '../helpers/suite.js';

// A site's custom hostname (getCustomHostname, dnsRevalidateCustomHostname, removeCustomHostname)
// and who holds a subdomain (getSubdomain). Where a hostname points is asked of a real name
// server: a small one on loopback holding the test's zone, which the test changes as an
// operator changes their DNS.
const test = suite('custom hostnames and subdomains');
let t: TestServer;
let fx: OrganizationFixture;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let site: { id: string };
const sites = siteMaker(() => ({ t, fx }));
const zone: Zone = {
  'docs.acme.test': { a: ['127.0.0.1'] },
  'alias.acme.test': { cname: 'localhost' },
  'elsewhere.acme.test': { a: ['192.0.2.10'] },
  'astray.acme.test': { cname: 'other.example.test' },
};
const before = integrations().dnsServers;

withOrganization(test, (setup) => ({ t, fx } = setup));

test.before(async () => {
  dns = await startDnsServer(zone);
  configureIntegrations({ dnsServers: [dns.server] });
  const space = await sites.space('Guide');
  site = await sites.publishedSite('Guide', [space.id]);
});

test.after(async () => {
  configureIntegrations({ dnsServers: before });
  await dns.close();
});

const setHostname = (siteId: string, hostname: string | null) => t.call('PATCH', `/v1/orgs/${fx.org.id}/sites/${siteId}`, { token: fx.admin.token, body: { hostname } });
const hostnameOf = (hostname: string, token = fx.reader.token) => t.call('GET', `/v1/custom-hostnames/${hostname}`, { token });

test('a hostname DNS sends here is live, and the answer is kept until asked again', async () => {
  assert.is((await setHostname(site.id, 'docs.acme.test')).status, 200);
  const found = await hostnameOf('docs.acme.test');
  assert.is(found.status, 200, JSON.stringify(found.body));
  assert.equal(found.body.target, { type: 'site', site: site.id });
  assert.is(found.body.status, 'live');
  assert.is(found.body.isActive, true);
  assert.is(new URL(found.body.urls.location).hostname, 'localhost', 'the server’s public host, which the zone’s alias names');

  // The operator points it elsewhere: the kept answer stands until the admin asks DNS again.
  zone['docs.acme.test'] = { a: ['192.0.2.20'] };
  assert.is((await hostnameOf('docs.acme.test')).body.status, 'live');
  assert.is((await t.call('PATCH', '/v1/custom-hostnames/docs.acme.test', { token: fx.admin.token })).status, 204);
  const moved = await hostnameOf('docs.acme.test');
  assert.is(moved.body.status, 'dns_wrong_cname');
  assert.is(moved.body.isActive, false);
  zone['docs.acme.test'] = { a: ['127.0.0.1'] };
});

test('aliases, other addresses, no record and no name server are each told apart', async () => {
  const cases: Array<[string, string]> = [
    ['alias.acme.test', 'live'],
    ['elsewhere.acme.test', 'dns_wrong_cname'],
    ['astray.acme.test', 'dns_wrong_cname'],
    ['nowhere.acme.test', 'dns_no_cname'],
  ];
  for (const [hostname, status] of cases) {
    const other = await sites.publishedSite(hostname, [(await sites.space(hostname)).id]);
    assert.is((await setHostname(other.id, hostname)).status, 200);
    assert.is((await hostnameOf(hostname)).body.status, status, hostname);
  }
  // A name server that answers nothing: DNS could not be asked, which is Quire's problem to report, not the hostname's.
  configureIntegrations({ dnsServers: ['127.0.0.1:9'] });
  try {
    assert.is((await t.call('PATCH', '/v1/custom-hostnames/alias.acme.test', { token: fx.admin.token })).status, 204);
    assert.is((await hostnameOf('alias.acme.test')).body.status, 'internal_error');
  } finally {
    configureIntegrations({ dnsServers: [dns.server] });
  }
});

test('one site per hostname; roles and strangers as the site’s own routes', async () => {
  const second = await sites.publishedSite('Second', [(await sites.space('Second')).id]);
  const taken = await setHostname(second.id, 'docs.acme.test');
  assert.is(taken.status, 409);
  assert.match(taken.body.error.message, /docs\.acme\.test.*another site/);

  assert.is((await t.call('PATCH', '/v1/custom-hostnames/docs.acme.test', { token: fx.reader.token })).status, 403);
  assert.is((await t.call('DELETE', '/v1/custom-hostnames/docs.acme.test', { token: fx.reader.token })).status, 403);
  const stranger = await hostnameOf('docs.acme.test', fx.outsider.token);
  assert.is(stranger.status, 404);
  assert.not.match(stranger.body.error.message, new RegExp(fx.org.id), 'the organization stays unnamed');
  assert.is((await hostnameOf('unknown.acme.test')).status, 404);
  assert.is((await t.call('GET', '/v1/custom-hostnames/docs.acme.test')).status, 401);
});

test('removing a hostname leaves the site at this server’s own address', async () => {
  assert.is((await t.call('DELETE', '/v1/custom-hostnames/docs.acme.test', { token: fx.admin.token })).status, 204);
  assert.is((await hostnameOf('docs.acme.test')).status, 404);
  const read = await t.call('GET', `/v1/orgs/${fx.org.id}/sites/${site.id}`, { token: fx.admin.token });
  assert.is(read.body.hostname, undefined);
  // Free again: another site may take it, and its check is its own, not the old site's.
  zone['docs.acme.test'] = { a: ['192.0.2.30'] };
  const third = await sites.publishedSite('Third', [(await sites.space('Third')).id]);
  assert.is((await setHostname(third.id, 'docs.acme.test')).status, 200);
  const found = await hostnameOf('docs.acme.test');
  assert.equal(found.body.target, { type: 'site', site: third.id });
  assert.is(found.body.status, 'dns_wrong_cname');
});

test('a subdomain names the organization holding it; a free one is a 404, a malformed one a 400', async () => {
  assert.is((await t.call('PATCH', `/v1/orgs/${fx.org.id}`, { token: fx.admin.token, body: { hostname: 'acme-docs' } })).status, 200);
  const held = await t.call('GET', '/v1/subdomains/acme-docs', { token: fx.outsider.token });
  assert.is(held.status, 200);
  assert.equal(held.body, { object: 'subdomain', subdomain: 'acme-docs', target: { type: 'organization', organization: fx.org.id }, isActive: true });
  assert.is((await t.call('GET', '/v1/subdomains/free-name', { token: fx.reader.token })).status, 404);
  const malformed = await t.call('GET', '/v1/subdomains/Not_One', { token: fx.reader.token });
  assert.is(malformed.status, 400);
  assert.match(malformed.body.error.message, /subdomain/);
});

test.run();
