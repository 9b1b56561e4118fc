import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { FormBrowser } from '../helpers/formBrowser.js';
import { makeSigningCertificate, readSamlRequest, startSamlIdentityProvider, type SamlAnswer } from '../helpers/identityProviders.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

/**
 * Signing in to the web app with an organization's SAML provider, over HTTP as a browser does it:
 * SP-initiated, the AuthnRequest to a real identity provider on loopback, its signed Response
 * posted to the ACS from its page (another site: no cookie of ours comes with it), the sign-in
 * finished by the browser that began it. (webAppBrowser.test.ts walks the same road in Chromium.)
 */
const test = suite('the web app: sign in with SAML');
let t: TestServer;
let fx: OrganizationFixture;
let idp: Awaited<ReturnType<typeof startSamlIdentityProvider>>;
let providerId: string;
let teamId: string;

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    fx = await organizationWithMembers(t);
    idp = await startSamlIdentityProvider();
    teamId = (await t.call('PUT', `/v1/orgs/${fx.org.id}/teams`, { token: fx.admin.token, body: { title: 'Came through SSO' } })).body.id;
    const created = await t.call('POST', `/v1/orgs/${fx.org.id}/saml`, {
      token: fx.admin.token,
      body: { label: 'Acme IdP', ssoURL: idp.url, entityID: idp.entityId, certificate: idp.certificate, defaultRole: 'edit', defaultTeam: teamId },
    });
    assert.is(created.status, 201, JSON.stringify(created.body));
    assert.is(created.body.status, 'active');
    providerId = created.body.id;
  }),
);
test.after(async () => {
  await idp?.close();
  await t?.close();
});

/** Leaves for the provider from the sign-in page the organization's URL leads to; what the provider was asked. */
async function leave(browser: FormBrowser) {
  const orgPath = `/app/o/${fx.org.id}`;
  const toSignIn = await browser.get(orgPath);
  assert.is(toSignIn.status, 302);
  const signInPage = await browser.get(new URL(toSignIn.location!, t.url).pathname + new URL(toSignIn.location!, t.url).search);
  const start = /<a href="([^"]+)" class="button">Sign in with Acme IdP<\/a>/.exec(signInPage.html)?.[1]?.replace(/&amp;/g, '&');
  assert.ok(start, 'the sign-in page offers the organization’s provider');
  const toProvider = await browser.get(start);
  assert.is(toProvider.status, 302);
  assert.ok(toProvider.location!.startsWith(idp.url), toProvider.location!);
  return readSamlRequest(toProvider.location!);
}

/** The provider's page posts its answer to the ACS: from another site, so without our cookies. */
async function postToAcs(acs: string, samlResponse: string) {
  const fromProvider = new FormBrowser(t.url);
  return fromProvider.post(new URL(acs).pathname, { SAMLResponse: Buffer.from(samlResponse).toString('base64') }, { origin: new URL(idp.url).origin });
}

async function signInThroughProvider(answer: SamlAnswer) {
  const browser = new FormBrowser(t.url);
  const request = await leave(browser);
  const accepted = await postToAcs(request.acs, idp.respond(request, answer));
  return { browser, request, accepted };
}

test('someone new signs in with the organization’s provider: they join with its role and team, and land where they were headed', async () => {
  const { browser, request, accepted } = await signInThroughProvider({ email: 'Nora.New@Acme.test', name: 'Nora New' });
  assert.match(request.acs, new RegExp(`/app/sign-in/saml/${fx.org.id}/${providerId}/acs$`));
  assert.is(accepted.status, 303, accepted.html);
  assert.is(accepted.location, '/app/sign-in/saml/finish');
  const finished = await browser.get(accepted.location!);
  assert.is(finished.status, 303, finished.html);
  assert.is(finished.location, `/app/o/${fx.org.id}`);
  const home = await browser.get(finished.location!);
  assert.is(home.status, 200);
  assert.match(home.html, '<h1>Acme Docs</h1>');
  assert.match(home.html, 'Nora New');

  const members = await t.call('GET', `/v1/orgs/${fx.org.id}/members?limit=100`, { token: fx.admin.token });
  const nora = members.body.items.find((member: { user: { email: string } }) => member.user.email === 'nora.new@acme.test');
  assert.ok(nora, 'Nora is a member');
  assert.is(nora.role, 'edit');
  assert.is(nora.sso, true);
  const team = await t.call('GET', `/v1/orgs/${fx.org.id}/teams/${teamId}/members`, { token: fx.admin.token });
  assert.ok(
    team.body.items.some((member: { organization: { user: { email: string } } }) => member.organization.user.email === 'nora.new@acme.test'),
    'in the default team',
  );

  // Signing in again finds the same account.
  const again = await signInThroughProvider({ email: 'nora.new@acme.test' });
  assert.is((await again.browser.get(again.accepted.location!)).status, 303);
  const after = await t.call('GET', `/v1/orgs/${fx.org.id}/members?limit=100`, { token: fx.admin.token });
  assert.is(after.body.items.filter((member: { user: { email: string } }) => member.user.email === 'nora.new@acme.test').length, 1);
});

test('an answer the browser didn’t ask for signs no one in: posted twice, finished elsewhere, or for a request never made', async () => {
  const { request, accepted } = await signInThroughProvider({ email: 'otto.other@acme.test' });
  assert.is(accepted.status, 303);
  // Someone else's browser (the answer's poster, say) can't finish it: the flow is the first browser's.
  const stranger = new FormBrowser(t.url);
  const refused = await stranger.get('/app/sign-in/saml/finish');
  assert.is(refused.status, 401);
  assert.match(refused.html, 'This sign-in has expired or was begun in another browser');
  assert.not.ok(stranger.cookies.has('quire_session'));

  const replayed = await postToAcs(request.acs, idp.respond(request, { email: 'otto.other@acme.test' }));
  assert.is(replayed.status, 401, replayed.html);
  const invented = await postToAcs(request.acs, idp.respond({ ...request, id: '_never-asked' }, { email: 'otto.other@acme.test' }));
  assert.is(invented.status, 401);
  assert.match(invented.html, 'is not valid');
});

test('a forged, tampered or misaddressed assertion is refused, and nothing is stored', async () => {
  const forger = makeSigningCertificate('idp.quire.test');
  for (const [what, answer, tamper] of [
    ['signed by another key', { email: 'mallory@acme.test', signWith: forger }, (xml: string) => xml],
    ['changed after signing', { email: 'mallory@acme.test' }, (xml: string) => xml.replaceAll('mallory@acme.test', 'admin@acme.test')],
    ['for another service', { email: 'mallory@acme.test', audience: 'http://elsewhere.test/sp' }, (xml: string) => xml],
  ] as const) {
    const browser = new FormBrowser(t.url);
    const request = await leave(browser);
    const posted = await postToAcs(request.acs, tamper(idp.respond(request, answer)));
    assert.is(posted.status, 401, `${what}: ${posted.html.slice(0, 300)}`);
    assert.match(posted.html, 'is not valid', what);
    assert.is((await browser.get('/app/sign-in/saml/finish')).status, 401, what);
  }
  const members = await t.call('GET', `/v1/orgs/${fx.org.id}/members?limit=100`, { token: fx.admin.token });
  assert.not.ok(members.body.items.some((member: { user: { email: string } }) => /mallory|^admin@acme/.test(member.user.email)));
});

test('a provider speaks for its organization only: someone who belongs to another one too is not signed in by it', async () => {
  const { browser, accepted } = await signInThroughProvider({ email: fx.outsider.email });
  assert.is(accepted.status, 403, accepted.html);
  assert.match(accepted.html, 'belongs to other organizations too');
  assert.is((await browser.get('/app/sign-in/saml/finish')).status, 401);
});

test('Quire’s SAML metadata is served at its entity id; an unfinished provider offers no sign-in', async () => {
  const metadata = await fetch(`${t.url}/app/sign-in/saml/${fx.org.id}/${providerId}`);
  assert.is(metadata.status, 200);
  const xml = await metadata.text();
  assert.match(xml, `entityID="http://localhost:${new URL(t.url).port}/app/sign-in/saml/${fx.org.id}/${providerId}"`);
  assert.match(xml, `Location="http://localhost:${new URL(t.url).port}/app/sign-in/saml/${fx.org.id}/${providerId}/acs"`);

  const draft = await t.call('POST', `/v1/orgs/${fx.org.id}/saml`, { token: fx.admin.token, body: { label: 'Draft IdP' } });
  const browser = new FormBrowser(t.url);
  const started = await browser.get(`/app/sign-in/saml/${fx.org.id}/${draft.body.id}/start`);
  assert.is(started.status, 403);
  assert.match(started.html, 'is not set up yet');
  const signInPage = await browser.get(`/app/sign-in?next=${encodeURIComponent(`/app/o/${fx.org.id}`)}`);
  assert.not.match(signInPage.html, 'Draft IdP');
});

test.run();
