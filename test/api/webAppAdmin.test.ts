import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { FormBrowser as Browser, signedInBrowser } from '../helpers/formBrowser.js';
import { makeSigningCertificate } from '../helpers/identityProviders.js';
import { givePasswords } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

/**
 * An organization's administration in the web app, over HTTP: people and roles, invitations (with
 * the welcome link a person without a password opens), invite links, teams and SAML providers,
 * each through the API's rules; only admins see it.
 */
const test = suite('the web app: administer an organization');
let t: TestServer;
let fx: OrganizationFixture;
let admin: Browser;
let adminPage: string;
const password = 'correct horse battery staple';

const signedIn = (email: string) => signedInBrowser(t.url, email, password);

const members = async () =>
  (await t.call('GET', `/v1/orgs/${fx.org.id}/members?limit=100`, { token: fx.admin.token })).body.items as Array<{ user: { id: string; email: string }; role: string | null }>;

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    fx = await organizationWithMembers(t);
    await givePasswords(t.dataDir, [fx.admin, fx.reader, fx.outsider], password);
    admin = await signedIn(fx.admin.email);
    adminPage = `/app/o/${fx.org.id}/admin`;
  }),
);
test.after(async () => t?.close());

const csrf = async (browser: Browser, path = adminPage) => Browser.field((await browser.get(path)).html, 'csrf');

test('only admins see the administration, and the organization page links it for them', async () => {
  const page = await admin.get(adminPage);
  assert.is(page.status, 200);
  for (const section of ['People (', 'Invite people', 'Invite links', 'Teams', 'SAML single sign-on']) assert.match(page.html, section);
  assert.match((await admin.get(`/app/o/${fx.org.id}`)).html, `<a href="${adminPage}">Administration</a>`);
  const reader = await signedIn(fx.reader.email);
  assert.is((await reader.get(adminPage)).status, 403);
  assert.not.match((await reader.get(`/app/o/${fx.org.id}`)).html, 'Administration');
  assert.is((await reader.post(`${adminPage}/members/role`, { csrf: await csrf(reader, '/app/'), user: fx.reader.id, role: 'admin' })).status, 403);
  assert.is((await admin.post(`${adminPage}/members/role`, { csrf: 'forged', user: fx.reader.id, role: 'admin' })).status, 403, 'a form without its token does nothing');
  assert.is((await members()).find((member) => member.user.id === fx.reader.id)?.role, 'read');
});

test('someone new is invited: the admin hands them a welcome link, they choose a password and join; the link works once', async () => {
  const invited = await admin.post(`${adminPage}/invite`, { csrf: await csrf(admin), emails: 'newcomer@acme.test, not-an-email', role: 'edit' });
  assert.is(invited.status, 400);
  assert.match(invited.html, 'not-an-email is not an email');
  const done = await admin.post(`${adminPage}/invite`, { csrf: await csrf(admin), emails: 'newcomer@acme.test', role: 'edit' });
  assert.is(done.status, 201, done.html.slice(0, 400));
  const link = /newcomer@acme\.test: <code class="clone">([^<]+)<\/code>/.exec(done.html)?.[1];
  assert.ok(link, 'a welcome link to hand over');
  assert.match(done.html, 'newcomer@acme.test as edit');

  const newcomer = new Browser(t.url);
  const path = new URL(link).pathname;
  const welcome = await newcomer.get(path);
  assert.is(welcome.status, 200);
  assert.match(welcome.html, 'You were invited as newcomer@acme.test');
  const short = await newcomer.post(path, { csrf: Browser.field(welcome.html, 'csrf'), password: 'short' });
  assert.is(short.status, 400);
  const accepted = await newcomer.post(path, { csrf: Browser.field(welcome.html, 'csrf'), password });
  assert.is(accepted.status, 303, accepted.html.slice(0, 300));
  assert.is(accepted.location, `/app/o/${fx.org.id}`);
  assert.is((await newcomer.get(accepted.location!)).status, 200, 'signed in, a member');
  assert.is((await members()).find((member) => member.user.email === 'newcomer@acme.test')?.role, 'edit');
  assert.is((await new Browser(t.url).get(path)).status, 404, 'the link works once');
  assert.is((await signedIn('newcomer@acme.test')).cookies.has('quire_session'), true, 'and the password signs in');
});

test('someone with an account is invited: no link, the invitation waits on their home page, Accept joins', async () => {
  const done = await admin.post(`${adminPage}/invite`, { csrf: await csrf(admin), emails: fx.outsider.email, role: 'comment' });
  assert.is(done.status, 201);
  assert.not.match(done.html, 'Welcome links to hand over');
  const outsider = await signedIn(fx.outsider.email);
  const home = await outsider.get('/app/');
  assert.match(home.html, 'Acme Docs invited you.');
  const accepted = await outsider.post(`/app/invitations/${fx.org.id}/accept`, { csrf: Browser.field(home.html, 'csrf') });
  assert.is(accepted.status, 303);
  assert.is((await members()).find((member) => member.user.id === fx.outsider.id)?.role, 'comment');
});

test('roles change and members leave by the API’s rules; a removed member rejoins by an invite link', async () => {
  assert.is((await admin.post(`${adminPage}/members/role`, { csrf: await csrf(admin), user: fx.reader.id, role: 'review' })).status, 303);
  assert.is((await members()).find((member) => member.user.id === fx.reader.id)?.role, 'review');
  assert.is((await admin.post(`${adminPage}/members/role`, { csrf: await csrf(admin), user: fx.reader.id, role: 'owner' })).status, 400);
  const lastAdmin = await admin.post(`${adminPage}/members/role`, { csrf: await csrf(admin), user: fx.admin.id, role: 'read' });
  assert.ok(lastAdmin.status >= 400 && lastAdmin.status < 500, 'the last admin stays an admin');
  assert.match(lastAdmin.html, /class="problem"/);

  assert.is((await admin.post(`${adminPage}/members/remove`, { csrf: await csrf(admin), user: fx.reader.id })).status, 303);
  assert.not.ok((await members()).some((member) => member.user.id === fx.reader.id));

  const made = await admin.post(`${adminPage}/invite-links`, { csrf: await csrf(admin), role: 'read' });
  assert.is(made.status, 303);
  assert.is(made.location, `${adminPage}?done=link-created`, 'back to the page (a reload posts nothing again)');
  const shown = await admin.get(made.location!);
  assert.match(shown.html, '<p class="notice" role="status">Invite link created.</p>');
  assert.not.match((await admin.get(`${adminPage}?done=%3Cb%3Eowned`)).html, 'owned', 'a key names a notice; no text comes from the address');
  const joinUrl = /read: <code class="clone">([^<]+)<\/code>/.exec(shown.html)?.[1];
  assert.ok(joinUrl, 'the link is shown to copy');
  const reader = await signedIn(fx.reader.email);
  const joinPath = new URL(joinUrl).pathname;
  const join = await reader.get(joinPath);
  assert.match(join.html, '<button type="submit" class="primary">Join</button>');
  assert.is((await reader.post(joinPath, { csrf: Browser.field(join.html, 'csrf') })).status, 303);
  assert.is((await members()).find((member) => member.user.id === fx.reader.id)?.role, 'read');

  const inviteId = joinPath.split('/').pop()!;
  assert.is((await admin.post(`${adminPage}/invite-links/delete`, { csrf: await csrf(admin), id: inviteId })).status, 303);
  assert.is((await reader.get(joinPath)).status, 404, 'a deleted link opens nothing');
});

test('teams: made, filled, emptied and deleted', async () => {
  assert.is((await admin.post(`${adminPage}/teams`, { csrf: await csrf(admin), title: '  ' })).status, 400);
  assert.is((await admin.post(`${adminPage}/teams`, { csrf: await csrf(admin), title: 'Writers' })).status, 303);
  const team = (await t.call('GET', `/v1/orgs/${fx.org.id}/teams`, { token: fx.admin.token })).body.items.find((each: { title: string }) => each.title === 'Writers');
  assert.ok(team);
  assert.is((await admin.post(`${adminPage}/teams/members`, { csrf: await csrf(admin), team: team.id, user: fx.editor.id })).status, 303);
  const listed = async () => (await t.call('GET', `/v1/orgs/${fx.org.id}/teams/${team.id}/members`, { token: fx.admin.token })).body.items.length;
  assert.is(await listed(), 1);
  assert.match((await admin.get(adminPage)).html, '<summary>Writers (1)</summary>');
  assert.is((await admin.post(`${adminPage}/teams/members/remove`, { csrf: await csrf(admin), team: team.id, user: fx.editor.id })).status, 303);
  assert.is(await listed(), 0);
  assert.is((await admin.post(`${adminPage}/teams/delete`, { csrf: await csrf(admin), team: team.id })).status, 303);
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/teams/${team.id}`, { token: fx.admin.token })).status, 404);
});

test('SAML providers: a bad certificate is refused naming it; one added, completed, shown with Quire’s URLs, deleted', async () => {
  const base = { label: 'Okta', ssoURL: 'https://idp.acme.test/sso', entityID: 'https://idp.acme.test', defaultRole: 'read' };
  const bad = await admin.post(`${adminPage}/saml`, { csrf: await csrf(admin), ...base, certificate: 'not a certificate' });
  assert.is(bad.status, 400);
  assert.match(bad.html, '"certificate" is not an X.509 certificate');
  const insecure = await admin.post(`${adminPage}/saml`, { csrf: await csrf(admin), ...base, ssoURL: 'http://idp.acme.test/sso', certificate: '' });
  assert.is(insecure.status, 400);
  assert.match(insecure.html, '"ssoURL" must be an https URL');
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/saml`, { token: fx.admin.token })).body.items.length, 0, 'nothing stored');

  assert.is((await admin.post(`${adminPage}/saml`, { csrf: await csrf(admin), ...base, certificate: '' })).status, 303);
  const provider = (await t.call('GET', `/v1/orgs/${fx.org.id}/saml`, { token: fx.admin.token })).body.items[0];
  assert.is(provider.status, 'pending');
  let page = (await admin.get(adminPage)).html;
  assert.match(page, '<summary>Okta (not set up yet)</summary>');
  assert.match(page, `/app/sign-in/saml/${fx.org.id}/${provider.id}/acs`);
  const { certificate } = makeSigningCertificate('idp.acme.test');
  assert.is((await admin.post(`${adminPage}/saml/${provider.id}`, { csrf: await csrf(admin), ...base, certificate, defaultRole: 'comment' })).status, 303);
  const saved = (await t.call('GET', `/v1/orgs/${fx.org.id}/saml/${provider.id}`, { token: fx.admin.token })).body;
  assert.is(saved.status, 'active');
  assert.is(saved.defaultRole, 'comment');
  page = (await admin.get(adminPage)).html;
  assert.match(page, '<summary>Okta (active)</summary>');
  assert.is((await admin.post(`${adminPage}/saml/${provider.id}/delete`, { csrf: await csrf(admin) })).status, 303);
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/saml`, { token: fx.admin.token })).body.items.length, 0);
});

test.run();
