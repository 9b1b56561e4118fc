import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import puppeteer, { type Browser, type Page } from 'puppeteer';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chromiumPath } from '../../domain/pdf/browser.js';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { startOidcProvider, startSamlIdentityProvider } from '../helpers/identityProviders.js';
import { axeViolations, checkAppPage, signedInPage } from '../helpers/appInChromium.js';
import { givePasswords } from '../helpers/processes.js';
import { siteMaker } from '../helpers/sites.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

/**
 * The web app in Debian's Chromium: the sign-in journeys (password, the instance's OpenID Connect
 * provider, an organization's SAML provider, each a real server on loopback) by accessible names,
 * axe-core on each page, phones' width, both themes.
 */
const test = suite('the web app in Chromium');
const password = 'correct horse battery staple';
let t: TestServer;
let fx: OrganizationFixture;
let browser: Browser;
let spaceId: string;
let changeRequestPath: string;
let site: { id: string; urls: { published: string } };
let oidc: Awaited<ReturnType<typeof startOidcProvider>>;
let saml: Awaited<ReturnType<typeof startSamlIdentityProvider>>;
/** Where the app's own URLs point (QUIRE_PUBLIC_URL's default): cookies set on the way back from a provider belong to this host. */
let base: string;

test.before(
  reportingErrors(async () => {
    oidc = await startOidcProvider();
    saml = await startSamlIdentityProvider();
    t = await startTestServer({ oidc: { issuer: oidc.issuer, clientId: oidc.clientId, clientSecret: oidc.clientSecret, label: 'Loopback ID' } });
    base = `http://localhost:${new URL(t.url).port}`;
    await oidc.register(`${base}/app/sign-in/oidc/callback`);
    fx = await organizationWithMembers(t);
    const provider = { label: 'Acme IdP', ssoURL: saml.url, entityID: saml.entityId, certificate: saml.certificate };
    assert.is((await t.call('POST', `/v1/orgs/${fx.org.id}/saml`, { token: fx.admin.token, body: provider })).status, 201);
    spaceId = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Handbook', template: { id: 'getting-started' } } })).body.id;
    const changeRequest = (await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: fx.editor.token, body: { subject: 'Say more' } })).body;
    const faq = (await t.call('GET', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content/path/faq`, { token: fx.editor.token })).body;
    const edit = { operation: 'update_page', page: faq.id, document: { markdown: '## Where do I start?\n\nWith the [introduction](README.md), or the FAQ.\n' } };
    await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content`, { token: fx.editor.token, body: { changes: [edit] } });
    changeRequestPath = new URL(changeRequest.urls.app).pathname;
    await givePasswords(t.dataDir, [fx.reader, fx.editor, fx.guest, fx.admin], password);
    site = await siteMaker(() => ({ t, fx })).publishedSite('Handbook site', [spaceId]);
    browser = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, pipe: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
  }),
);
test.after(async () => {
  await browser?.close();
  await t?.close();
  await oidc?.close();
  await saml?.close();
});

/** A new browser (its own cookies) signed in with a password, at `path` afterwards. */
const signedInAt = (email: string, path: string, width = 390): Promise<Page> => signedInPage(browser, { url: t.url, email, password, path, width });

test('sign in by the form’s names, open a space and a page, sign out; axe finds nothing on any page, at 390 px, light and dark', async () => {
  const page = await browser.newPage();
  await page.setViewport({ width: 390, height: 844 });
  await page.setBypassCSP(true); // axe is injected as a script, which the app's CSP refuses
  const found: string[] = [];
  const check = (what: string) => checkAppPage(page, what, found);

  await page.goto(`${t.url}/app/s/${spaceId}`);
  assert.match(page.url(), /\/app\/sign-in\?next=/);
  await check('sign-in');
  await page.locator('::-p-aria(Email[role="textbox"])').fill(fx.reader.email);
  await page.locator('::-p-aria(Password)').fill(password);
  await Promise.all([page.waitForNavigation(), page.locator('::-p-aria(Sign in[role="button"])').click()]);
  assert.ok(page.url().endsWith(`/app/s/${spaceId}`), `back where the visit began: ${page.url()}`);
  assert.is(await page.$eval('h1', (heading) => heading.textContent), 'Introduction');
  await check('space');

  await Promise.all([page.waitForNavigation(), page.locator('::-p-aria(Quick start[role="link"])').click()]);
  assert.match(page.url(), new RegExp(`/app/s/${spaceId}/p/`));
  assert.is(await page.$eval('h1', (heading) => heading.textContent), 'Quick start');

  await page.goto(`${t.url}/app/`);
  await check('home');
  await page.goto(`${t.url}${changeRequestPath}`);
  assert.is(await page.$eval('h1', (heading) => heading.textContent), 'Say more');
  assert.ok(await page.$('.block-ins'), 'the change is shown as a rendered diff');
  await check('change request');
  await Promise.all([page.waitForNavigation(), page.locator('::-p-aria(Source[role="link"])').click()]);
  assert.ok(await page.$('pre.diff ins'), 'and as a source diff');
  await check('change request source');
  await page.goto(`${t.url}/app/settings`);
  await page.locator('::-p-aria(Label[role="textbox"])').fill('Laptop');
  await Promise.all([page.waitForNavigation(), page.locator('::-p-aria(Create token[role="button"])').click()]);
  assert.ok(await page.$('::-p-aria(Revoke Laptop)'), 'the new token is listed');
  await check('settings');
  await page.goto(`${t.url}/app/`);
  await Promise.all([page.waitForNavigation(), page.locator('::-p-aria(Sign out[role="button"])').click()]);
  assert.match(page.url(), /\/app\/sign-in$/);
  await page.goto(`${t.url}/app/`);
  assert.match(page.url(), /\/app\/sign-in\?next=/, 'signed out means signed out');
  assert.equal(found, []);
  await page.close();
});

test('sign in with the instance’s OpenID Connect provider, and with the organization’s SAML provider, back where the visit began', async () => {
  const oidcBrowser = await browser.createBrowserContext();
  const page = await oidcBrowser.newPage();
  await page.setBypassCSP(true);
  await page.goto(`${base}/app/s/${spaceId}`);
  assert.match(page.url(), /\/app\/sign-in\?next=/);
  assert.equal(await axeViolations(page), []);
  await Promise.all([page.waitForNavigation(), page.locator('::-p-aria(Sign in with Loopback ID[role="link"])').click()]);
  assert.ok(page.url().startsWith(oidc.issuer), `at the provider: ${page.url()}`);
  await page.locator('input[name="login"]').fill(fx.reader.email);
  await page.locator('input[name="password"]').fill('anything');
  await Promise.all([page.waitForNavigation(), page.locator('button[type="submit"]').click()]);
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.locator('::-p-text(Continue)').click()]);
  assert.is(page.url(), `${base}/app/s/${spaceId}`);
  assert.is(await page.$eval('h1', (heading) => heading.textContent), 'Introduction');
  await oidcBrowser.close();

  saml.signedIn = { email: 'sam.saml@acme.test', name: 'Sam Saml' };
  const samlBrowser = await browser.createBrowserContext();
  const samlPage = await samlBrowser.newPage();
  await samlPage.goto(`${base}/app/o/${fx.org.id}`);
  assert.ok(await samlPage.$('::-p-aria(Sign in with Loopback ID[role="link"])'), 'the instance’s provider is offered');
  // The provider's page posts its answer by itself, then the app finishes and goes back.
  const landed = samlPage.waitForResponse((response) => response.url() === `${base}/app/o/${fx.org.id}`);
  await samlPage.locator('::-p-aria(Sign in with Acme IdP[role="link"])').click();
  assert.is((await landed).status(), 200);
  await samlPage.waitForFunction((path) => location.pathname === path && document.readyState === 'complete', {}, `/app/o/${fx.org.id}`);
  assert.is(samlPage.url(), `${base}/app/o/${fx.org.id}`);
  assert.is(await samlPage.$eval('h1', (heading) => heading.textContent), 'Acme Docs');
  assert.ok(await samlPage.$('::-p-text(Sam Saml)'), 'signed in as the person the provider named');
  await samlBrowser.close();
});

test('review: from the change request’s urls.app, read its diff, comment and approve as a reviewer, merge as an editor, read it on the published site; a commenter is offered no Merge', async () => {
  assert.is((await t.call('PATCH', `/v1/orgs/${fx.org.id}/members/${fx.reader.id}`, { token: fx.admin.token, body: { role: 'review' } })).status, 200);
  assert.is((await t.call('PATCH', `/v1/orgs/${fx.org.id}/members/${fx.guest.id}`, { token: fx.admin.token, body: { role: 'comment' } })).status, 200);
  const found: string[] = [];

  const reviewer = await signedInAt(fx.reader.email, changeRequestPath);
  assert.ok(await reviewer.$('.block-ins'), 'the diff, rendered');
  await reviewer.locator('::-p-aria(Comment[role="textbox"])').fill('Clearer, *thanks*.');
  await Promise.all([reviewer.waitForNavigation(), reviewer.locator('::-p-aria(Comment[role="button"])').click()]);
  assert.ok(await reviewer.$('::-p-text(Clearer, )'), 'the comment is on the page');
  await Promise.all([reviewer.waitForNavigation(), reviewer.locator('::-p-aria(Approve[role="button"])').click()]);
  assert.match(await reviewer.$eval('#reviews', (section) => section.textContent ?? ''), /approved/);
  await checkAppPage(reviewer, 'reviewer’s change request', found);

  const commenter = await signedInAt(fx.guest.email, changeRequestPath);
  assert.ok(await commenter.$('::-p-aria(Comment[role="textbox"])'), 'a commenter may comment');
  assert.is(await commenter.$('::-p-aria(Merge[role="button"])'), null, 'and is offered no Merge');
  assert.is(await commenter.$('::-p-aria(Approve[role="button"])'), null, 'nor a review');

  for (const width of [1280, 390]) {
    const look = await signedInAt(fx.editor.email, changeRequestPath, width);
    await checkAppPage(look, `editor’s change request at ${width} px`, found);
    await look.browserContext().close();
  }
  const editor = await signedInAt(fx.editor.email, changeRequestPath);
  await Promise.all([editor.waitForNavigation(), editor.locator('::-p-aria(Merge[role="button"])').click()]);
  assert.match(await editor.$eval('main p.muted', (line) => line.textContent ?? ''), /Merged/);
  const published = await editor.goto(`${site.urls.published.replace(/\/$/, '')}/faq`);
  assert.is(published?.status(), 200);
  assert.match(await editor.$eval('main', (main) => main.textContent ?? ''), /or the FAQ/, 'the merged text is on the published site');
  assert.equal(found, []);
  for (const page of [reviewer, commenter, editor]) await page.browserContext().close();
});

test('the administration, an invitation’s welcome page and a join page pass axe at 1280 and 390 px, light and dark', async () => {
  assert.is((await t.call('PUT', `/v1/orgs/${fx.org.id}/teams`, { token: fx.admin.token, body: { title: 'Writers', members: [fx.editor.id] } })).status, 201);
  assert.is((await t.call('POST', `/v1/orgs/${fx.org.id}/link-invites`, { token: fx.admin.token, body: { role: 'read' } })).status, 201);
  const found: string[] = [];
  for (const width of [1280, 390]) {
    const page = await signedInAt(fx.admin.email, `/app/o/${fx.org.id}/admin`, width);
    for (const details of await page.$$('details')) await details.evaluate((element) => element.setAttribute('open', ''));
    await checkAppPage(page, `administration at ${width} px`, found);
    if (width === 390) {
      await page.locator('::-p-aria(Emails[role="textbox"])').fill('welcome.me@acme.test');
      await Promise.all([page.waitForNavigation(), page.locator('::-p-aria(Invite[role="button"])').click()]);
      const link = await page.$eval('.notice code', (code) => code.textContent ?? '');
      assert.match(link, /\/app\/welcome\//);
      await checkAppPage(page, 'administration with welcome links', found);
      const invite = await page.$$eval('code.clone', (codes) => codes.map((code) => code.textContent ?? '').find((text) => text.includes('/app/join/')) ?? '');
      const stranger = await browser.createBrowserContext();
      const welcome = await stranger.newPage();
      await welcome.setViewport({ width, height: 844 });
      await welcome.setBypassCSP(true);
      await welcome.goto(link);
      await checkAppPage(welcome, 'welcome page', found);
      await welcome.locator('::-p-aria(Password)').fill(password);
      await Promise.all([welcome.waitForNavigation(), welcome.locator('::-p-aria(Accept and sign in[role="button"])').click()]);
      assert.is(new URL(welcome.url()).pathname, `/app/o/${fx.org.id}`);
      await welcome.goto(invite);
      await checkAppPage(welcome, 'join page', found);
      await stranger.close();
    }
    await page.browserContext().close();
  }
  assert.equal(found, []);
});

test('a site’s look: the preview follows the form live (its script, by the page’s nonce); the page passes axe at 1280 and 390 px', async () => {
  const found: string[] = [];
  const sitePage = `/app/o/${fx.org.id}/sites/${site.id}`;
  for (const width of [1280, 390]) {
    const page = await signedInAt(fx.admin.email, sitePage, width);
    await checkAppPage(page, `site at ${width} px`, found);
    await page.browserContext().close();
  }
  // Without setBypassCSP: the app's own policy must let its script run.
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.goto(`${t.url}${sitePage}`);
  await page.locator('::-p-aria(Email[role="textbox"])').fill(fx.admin.email);
  await page.locator('::-p-aria(Password)').fill(password);
  await Promise.all([page.waitForNavigation(), page.locator('::-p-aria(Sign in[role="button"])').click()]);
  const frameSrc = () => page.$eval('iframe.preview', (frame) => (frame as HTMLIFrameElement).src);
  const before = await frameSrc();
  await page.$eval('#look-primary-light', (input) => {
    (input as HTMLInputElement).value = '#7a1f9e';
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForFunction((old) => (document.querySelector('iframe.preview') as HTMLIFrameElement).src !== old, { timeout: 10_000 }, before);
  // The frame's document is read from the page (same origin) until the new one has loaded and shows the colour:
  // a handle on the frame taken earlier could still be the old document, mid-navigation.
  const shown = await page.waitForFunction(
    () => {
      const doc = (document.querySelector('iframe.preview') as HTMLIFrameElement).contentDocument;
      if (!doc || doc.readyState !== 'complete') return false;
      const value = getComputedStyle(doc.documentElement).getPropertyValue('--primary-light').trim().toLowerCase();
      return value !== '' && value !== '#346ddb' && value;
    },
    { timeout: 15_000 },
  );
  assert.match(String(await shown.jsonValue()), /^#[0-9a-f]{6}$/, 'the preview shows the unsaved colour');
  const saved = (await t.call('GET', `/v1/orgs/${fx.org.id}/sites/${site.id}/customization`, { token: fx.admin.token })).body;
  assert.is(saved.styling.primaryColor.light, '#346DDB', 'and nothing is saved');
  await context.close();
  assert.equal(found, []);
});

test('by keyboard alone: sign in, reach a change request, comment (posted without a reload, focus on it) and approve', async () => {
  // A change request of its own: the one the other journeys use is merged by now.
  const created = (await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: fx.editor.token, body: { subject: 'By keyboard' } })).body;
  const changeRequestPath = new URL(created.urls.app).pathname;
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.goto(`${t.url}${changeRequestPath}`);
  // Email has focus on the sign-in page (autofocus); Tab moves through the form in order.
  await page.waitForFunction(() => document.activeElement?.id === 'email');
  await page.keyboard.type(fx.reader.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(password);
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
  assert.is(new URL(page.url()).pathname, changeRequestPath);
  const tabTo = async (name: string) => {
    for (let presses = 0; presses < 200; presses += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        return element ? (element.getAttribute('aria-label') ?? (element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null) ?? element.textContent ?? '').trim() : '';
      });
      if (focused === name) return;
    }
    throw new Error(`${name} is not reachable with Tab`);
  };
  await tabTo('Comment');
  await page.keyboard.type('Typed without a mouse.');
  // A mark on this document: a reload would make a new one without it.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.classList.contains('comment') && document.activeElement.textContent?.includes('Typed without a mouse.'), { timeout: 10_000 });
  assert.ok(await page.evaluate(() => 'sameDocument' in window), 'posted without a reload');
  assert.match(page.url(), /#comment-/, 'the address names the new comment');
  await page.goto(`${t.url}${changeRequestPath}`);
  await tabTo('Approve');
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
  assert.match(await page.$eval('#reviews', (section) => section.textContent ?? ''), /approved/);
  await context.close();
});

test('writing: the pages of a change request, the block and markdown editors pass axe at 390 px; Save commits', async () => {
  const created = (await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: fx.editor.token, body: { subject: 'Written in the browser' } })).body;
  const crPath = new URL(created.urls.app).pathname;
  const found: string[] = [];
  const page = await signedInAt(fx.editor.email, `${crPath}/pages`);
  await checkAppPage(page, 'pages of a change request', found);
  await Promise.all([page.waitForNavigation(), page.locator('::-p-aria(Edit FAQ[role="link"])').click()]);
  await page.waitForSelector('#block-editor[data-ready]');
  await checkAppPage(page, 'block editor', found);
  await Promise.all([page.waitForNavigation(), page.locator('::-p-aria(Edit as markdown[role="link"])').click()]);
  await checkAppPage(page, 'markdown editor', found);
  await page.locator('::-p-aria(Markdown[role="textbox"])').fill('## Where do I start?\n\nWritten in Chromium.\n');
  await Promise.all([page.waitForNavigation(), page.locator('::-p-aria(Save[role="button"])').click()]);
  assert.is(new URL(page.url()).pathname, crPath);
  assert.ok(await page.$('::-p-text(Written in Chromium.)'), 'the change request shows the saved page');
  assert.equal(found, []);
  await page.browserContext().close();
});

test('a cross-site form posted with the session cookie changes nothing', async () => {
  const created = (await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: fx.editor.token, body: { subject: 'Targeted' } })).body;
  const target = `${t.url}${new URL(created.urls.app).pathname}/comments`;
  // Another site (localhost is not 127.0.0.1's site) whose page posts a comment form to the app by itself.
  const attacker = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><title>Win a prize</title><form method="post" action="${target}"><input name="markdown" value="Forged comment"></form><script>document.forms[0].submit()</script>`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', () => resolve()));
  const page = await signedInAt(fx.reader.email, new URL(created.urls.app).pathname);
  const answer = page.waitForResponse((response) => response.url() === target);
  await page.goto(`http://localhost:${(attacker.address() as AddressInfo).port}/`);
  const refused = await answer;
  assert.ok(refused.status() === 401 || refused.status() === 403, `refused: ${refused.status()}`);
  const comments = (await t.call('GET', `/v1/spaces/${spaceId}/change-requests/${created.id}/comments`, { token: fx.admin.token })).body.items;
  assert.is(comments.length, 0, 'no comment was posted');
  await page.goto(`${t.url}${new URL(created.urls.app).pathname}`);
  assert.ok(await page.$('::-p-aria(Comment[role="textbox"])'), 'and the person is still signed in');
  await page.browserContext().close();
  await new Promise<void>((resolve) => attacker.close(() => resolve()));
});

test.run();
