import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import { chromiumPath } from '../../domain/pdf/browser.js';
import type { OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('published sites in Chromium: read, navigate, search and switch themes without script, by keyboard too');
let t: TestServer;
let fx: OrganizationFixture;
let browser: Browser;
const screenshots = mkdtempSync(path.join(tmpdir(), 'quire-site-screens-'));
const taken: string[] = [];
let failed = false;
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
});
test.before(async () => {
  browser = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, pipe: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
});
test.after(async () => {
  await browser?.close();
  // Kept only to explain a failure.
  if (!failed) rmSync(screenshots, { recursive: true, force: true });
});

/** Steppers, an expandable, math, cards and Mermaid: what the FAQ page of the axe test holds. */
const richFaq = [
  'Energy: $$E = mc^2$$.',
  '$$\n\\frac{a}{b}\n$$',
  '{% stepper %}\n{% step %}\n## Install\n\nRun it.\n{% endstep %}\n\n{% step %}\n## Start\n\nOpen it.\n{% endstep %}\n{% endstepper %}',
  '<details>\n\n<summary>Why and how</summary>\n\nHidden **text**.\n\n</details>',
  '```mermaid\ngraph TD; A-->B\n```',
  '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td><strong>Quick</strong> start</td><td><a href="quick-start.md">quick-start.md</a></td></tr><tr><td>Setting up</td><td><a href="quick-start/configuration.md">configuration</a></td></tr></tbody></table>',
].join('\n\n');

async function publishedSite(title: string, options: { faq?: string; visibility?: string } = {}): Promise<string> {
  const space = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Guide', template: { id: 'getting-started' } } });
  if (options.faq) await rewriteFaq(space.body.id, options.faq);
  const site = await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, {
    token: fx.admin.token,
    body: { title, spaces: [space.body.id], ...(options.visibility ? { visibility: options.visibility } : {}) },
  });
  const published = await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.body.id}/publish`, { token: fx.admin.token });
  return published.body.urls.published as string;
}

async function rewriteFaq(spaceId: string, markdown: string) {
  const pages = (await t.call('GET', `/v1/spaces/${spaceId}/content/pages`, { token: fx.admin.token })).body.pages as Array<{ id: string; path: string }>;
  const changeRequest = (await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: fx.admin.token, body: { subject: 'Rich FAQ' } })).body;
  const changes = [{ operation: 'update_page', page: pages.find((page) => page.path === 'faq')!.id, document: { markdown } }];
  assert.is((await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content`, { token: fx.admin.token, body: { changes } })).status, 200);
  assert.is((await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/merge`, { token: fx.admin.token })).body.result, 'merge');
}

/** A page with script off, as a reader who blocks it; every CSP complaint and failed request is kept. */
async function readerPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  await page.setJavaScriptEnabled(false);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400 && !response.url().includes('no-such')) problems.push(`${response.url()}: ${response.status()}`);
  });
  return { page, problems };
}

async function screenshot(page: Page, name: string) {
  const file = path.join(screenshots, `${name}.png`);
  await page.screenshot({ path: file as `${string}.png`, fullPage: true });
  taken.push(file);
}

/** On failure, where the screenshots are. */
async function explained(run: () => Promise<void>) {
  try {
    await run();
  } catch (error) {
    failed = true;
    throw new Error(`${(error as Error).message}\nscreenshots: ${taken.join(', ') || 'none'}`, { cause: error });
  }
}

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('a reader opens the site, follows the sidebar and searches: no script, no resource refused', () =>
  explained(async () => {
    const url = await publishedSite('Browser docs');
    const { page, problems } = await readerPage();
    await page.goto(url, { waitUntil: 'load' });
    await screenshot(page, 'home');
    assert.is(await page.$eval('main h1', (heading) => heading.textContent), 'Introduction');
    assert.is(await page.$eval('header.site', (header) => getComputedStyle(header).display), 'flex', 'the stylesheet applies');
    assert.ok(await page.$eval('main img', (image) => (image as HTMLImageElement).naturalWidth > 0), 'the image loads from the site');
    await Promise.all([page.waitForNavigation(), page.click('nav.toc a[href$="/faq"]')]);
    assert.is(await page.$eval('main h1', (heading) => heading.textContent), 'FAQ');
    assert.is(await page.$eval('nav.toc a[aria-current="page"]', (link) => link.textContent), 'FAQ');
    await page.type('header input[type=search]', 'setting');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    await screenshot(page, 'search');
    assert.match(await page.$eval('main', (main) => main.textContent ?? ''), '1 page found for “setting”.');
    await Promise.all([page.waitForNavigation(), page.click('ol.results a')]);
    assert.is(await page.$eval('main h1', (heading) => heading.textContent), 'Configuration');
    assert.equal(problems, []);
    await page.close();
  }));

test('the theme follows the system and the toggle flips it, both without script', () =>
  explained(async () => {
    const url = await publishedSite('Themes');
    const { page } = await readerPage();
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    await page.goto(url, { waitUntil: 'load' });
    assert.is(await background(page), 'rgb(255, 255, 255)');
    await page.click('label.theme-label');
    assert.is(await background(page), 'rgb(13, 17, 23)');
    await screenshot(page, 'dark-by-toggle');
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    await page.reload({ waitUntil: 'load' });
    assert.is(await background(page), 'rgb(13, 17, 23)');
    await page.click('label.theme-label');
    assert.is(await background(page), 'rgb(255, 255, 255)');
    await page.close();
  }));

test('keyboard only: the skip link comes first, the sidebar is reachable by Tab and Enter follows a link', () =>
  explained(async () => {
    const url = await publishedSite('Keys');
    const { page } = await readerPage();
    await page.goto(url, { waitUntil: 'load' });
    const focused = () => page.evaluate(() => `${document.activeElement?.tagName}:${document.activeElement?.textContent?.trim() ?? ''}`);
    await page.keyboard.press('Tab');
    assert.is(await focused(), 'A:Skip to content');
    const seen: string[] = [];
    for (let presses = 0; presses < 25 && !seen.includes('A:Quick start'); presses += 1) {
      await page.keyboard.press('Tab');
      seen.push(await focused());
    }
    assert.ok(seen.includes('INPUT:'), `the search box is on the way: ${seen.join(' → ')}`);
    assert.ok(seen.includes('A:Quick start'), `the sidebar's pages are reachable: ${seen.join(' → ')}`);
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert.is(await page.$eval('main h1', (heading) => heading.textContent), 'Quick start');
    await page.close();
  }));

test('with script on, the search box lists results as the visitor types and code blocks copy (the page works the same without)', () =>
  explained(async () => {
    const url = await publishedSite('Live search');
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    await page.goto(url, { waitUntil: 'load' });
    await page.type('header input[type=search]', 'setting');
    await page.waitForSelector('.live-results a', { timeout: 5000 });
    await screenshot(page, 'live-search');
    assert.equal(await page.$$eval('.live-results a.page', (links) => links.map((link) => link.textContent)), ['Configuration'], 'one page found');
    assert.match(await page.$eval('.live-results a.section', (link) => link.textContent ?? ''), /setting/, 'with its matching section');
    await Promise.all([page.waitForNavigation(), page.click('.live-results a.page')]);
    assert.is(await page.$eval('main h1', (heading) => heading.textContent), 'Configuration');
    const context = browser.defaultBrowserContext();
    await context.overridePermissions(new URL(url).origin, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    await page.click('figure.code button.copy');
    await page.waitForFunction(() => document.querySelector('figure.code button.copy')?.textContent === 'Copied', { timeout: 5000 });
    assert.is(await page.evaluate(() => navigator.clipboard.readText()), 'port: 3000', 'a code block copies its code');
    assert.equal(problems, []);
    await page.close();
  }));

test("axe-core finds no accessibility violation on the template's pages (one with steppers, an expandable, math, cards and Mermaid), their search page and 404, in both themes", () =>
  explained(async () => {
    const url = await publishedSite('Accessible docs', { faq: richFaq });
    const page = await browser.newPage();
    await page.setBypassCSP(true); // axe is injected as an inline script, which the site's CSP refuses
    const violations: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      for (const path of ['', 'quick-start', 'quick-start/configuration', 'faq', '~search?q=setting', 'no-such-page']) {
        await page.goto(`${url}${path}`, { waitUntil: 'load' });
        await page.addScriptTag({ path: axePath });
        const found = await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run(options: object): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
          const result = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
          return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
        });
        violations.push(...found.map((violation) => `${scheme} /${path}: ${violation}`));
      }
    }
    assert.equal(violations, [], violations.join('\n'));
    await page.close();
  }));

test("a share-link site: refused without its link, then read with it (the key leaves the address bar and stays in the site's cookie); a revoked link stops it", () =>
  explained(async () => {
    const sites = `/v1/orgs/${fx.org.id}/sites`;
    const space = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Guide', template: { id: 'getting-started' } } });
    const site = (await t.call('POST', sites, { token: fx.admin.token, body: { title: 'Partner docs', spaces: [space.body.id], visibility: 'share-link' } })).body;
    const published = (await t.call('POST', `${sites}/${site.id}/publish`, { token: fx.admin.token })).body.urls.published as string;
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const refused = await page.goto(published, { waitUntil: 'load' });
    assert.is(refused?.status(), 404);
    const link = (await t.call('POST', `${sites}/${site.id}/share-links`, { token: fx.admin.token, body: { name: 'Partners' } })).body;
    await page.goto(link.urls.published as string, { waitUntil: 'load' });
    await screenshot(page, 'share-link');
    assert.is(new URL(page.url()).search, '', 'the key is gone from the address bar');
    assert.is(await page.$eval('main h1', (heading) => heading.textContent), 'Introduction');
    await Promise.all([page.waitForNavigation(), page.click('nav.toc a[href$="/faq"]')]);
    assert.is(await page.$eval('main h1', (heading) => heading.textContent), 'FAQ', 'the cookie carries the key from page to page');
    await t.call('PATCH', `${sites}/${site.id}/share-links/${link.id}`, { token: fx.admin.token, body: { active: false } });
    assert.is((await page.reload({ waitUntil: 'load' }))?.status(), 404, 'a revoked link reads nothing');
    await context.close();
  }));

test("a visitor-auth site: the browser goes to sign in, comes back with a JWT and sees the sections its claims allow; another visitor's claims don't", () =>
  explained(async () => {
    const guide = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Guide', template: { id: 'getting-started' } } });
    const staffOnly = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Staff handbook', template: { id: 'getting-started' } } });
    const sites = `/v1/orgs/${fx.org.id}/sites`;
    const site = (await t.call('POST', sites, { token: fx.admin.token, body: { title: 'Signed-in docs', spaces: [guide.body.id], visibility: 'visitor-auth' } })).body;
    const added = await t.call('POST', `${sites}/${site.id}/site-spaces`, { token: fx.admin.token, body: { spaceId: staffOnly.body.id } });
    await t.call('PATCH', `${sites}/${site.id}/site-spaces/${added.body.id}`, { token: fx.admin.token, body: { condition: 'visitor.claims.role == "staff"', path: 'staff' } });
    // The customer's sign-in page: it signs the claims of whoever the test says is signing in and sends them back where they were going.
    let role = 'staff';
    const login = http.createServer(async (request, response) => {
      const location = new URL(request.url ?? '/', 'http://login').searchParams.get('location') ?? '/';
      const jwt = await new SignJWT({ role }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(key));
      response.writeHead(302, { location: `${published}${location.replace(/^\//, '')}?jwt_token=${jwt}` }).end();
    });
    await new Promise<void>((resolve) => login.listen(0, '127.0.0.1', resolve));
    const auth = await t.call('PATCH', `${sites}/${site.id}/publishing/auth`, {
      token: fx.admin.token,
      body: { backend: 'custom', fallbackURL: `http://127.0.0.1:${(login.address() as AddressInfo).port}/sso` },
    });
    const key = auth.body.privateKey as string;
    const published = (await t.call('POST', `${sites}/${site.id}/publish`, { token: fx.admin.token })).body.urls.published as string;
    try {
      const staff = await browser.createBrowserContext();
      const page = await staff.newPage();
      await page.goto(`${published}faq`, { waitUntil: 'load' });
      await screenshot(page, 'visitor-staff');
      assert.is(new URL(page.url()).pathname, `${new URL(published).pathname}faq`, 'back on the page asked for, the token gone from the URL');
      assert.is(await page.$eval('main h1', (heading) => heading.textContent), 'FAQ');
      await page.click('.variants summary');
      await Promise.all([page.waitForNavigation(), page.click('.variants a[href$="/staff/"]')]);
      assert.ok(page.url().endsWith('/staff/'), page.url());
      assert.is(await page.$eval('main h1', (heading) => heading.textContent), 'Introduction', "the staff handbook's first page");
      assert.match(await page.$eval('body', (body) => body.textContent ?? ''), 'Staff handbook');
      await staff.close();

      role = 'reader';
      const reader = await browser.createBrowserContext();
      const other = await reader.newPage();
      await other.goto(published, { waitUntil: 'load' });
      await screenshot(other, 'visitor-reader');
      assert.is(await other.$eval('main h1', (heading) => heading.textContent), 'Introduction');
      assert.is(await other.$('a[href$="/staff/"]'), null, 'no way to the staff section');
      const hidden = await other.goto(`${published}staff/`, { waitUntil: 'load' });
      assert.is(hidden?.status(), 404);
      await reader.close();
    } finally {
      login.close();
    }
  }));

test('with script on, nothing a writer typed runs', () =>
  explained(async () => {
    const space = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Guide', template: { id: 'getting-started' } } });
    const payload = '"><script>window.pwned=1</script><img src=x onerror="window.pwned=2"><svg onload="window.pwned=3">';
    const changeRequest = (await t.call('POST', `/v1/spaces/${space.body.id}/change-requests`, { token: fx.admin.token, body: { subject: 'Attack' } })).body;
    await t.call('POST', `/v1/spaces/${space.body.id}/change-requests/${changeRequest.id}/content`, {
      token: fx.admin.token,
      body: { changes: [{ operation: 'insert_page', title: `Attack ${payload}`, document: { markdown: `# Attack\n\n${payload}\n\n[x](javascript:window.pwned=4)\n` } }] },
    });
    assert.is((await t.call('POST', `/v1/spaces/${space.body.id}/change-requests/${changeRequest.id}/merge`, { token: fx.admin.token })).body.result, 'merge');
    const site = await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Attack docs', spaces: [space.body.id] } });
    const url = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.body.id}/publish`, { token: fx.admin.token })).body.urls.published as string;
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(url, { waitUntil: 'load' });
    const attack = await page.$eval('nav.toc a[href*="attack"]', (link) => (link as HTMLAnchorElement).href);
    await page.goto(attack, { waitUntil: 'load' });
    await screenshot(page, 'attack');
    assert.equal(await page.$$eval('main a', (anchors) => anchors.filter((anchor) => anchor.textContent === 'x').map((anchor) => anchor.outerHTML)), [], 'the javascript: link is no link');
    assert.is(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    assert.equal(dialogs, []);
    assert.match(await page.$eval('main', (main) => main.textContent ?? ''), '<script>window.pwned=1</script>', 'the payload shows as text');
    await page.close();
  }));

test.run();
