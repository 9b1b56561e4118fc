import { mkdtempSync } from 'node:fs';
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
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
});
test.before(async () => {
  browser = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, pipe: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
});
test.after(async () => {
  await browser?.close();
});

async function publishedSite(title: string): Promise<string> {
  const space = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Guide', template: { id: 'getting-started' } } });
  const site = await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title, spaces: [space.body.id] } });
  const published = await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.body.id}/publish`, { token: fx.admin.token });
  return published.body.urls.published as string;
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
    assert.equal(await page.$$eval('.live-results a', (links) => links.map((link) => link.textContent)), ['Configuration']);
    await Promise.all([page.waitForNavigation(), page.click('.live-results a')]);
    assert.is(await page.$eval('main h1', (heading) => heading.textContent), 'Configuration');
    const context = browser.defaultBrowserContext();
    await context.overridePermissions(new URL(url).origin, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    await page.click('figure.code button.copy');
    await page.waitForFunction(() => document.querySelector('figure.code button.copy')?.textContent === 'Copied', { timeout: 5000 });
    assert.is(await page.evaluate(() => navigator.clipboard.readText()), 'port: 3000', 'a code block copies its code');
    assert.equal(problems, []);
    await page.close();
  }));

test('axe-core finds no accessibility violation on the template\'s pages, their search page and 404, in both themes', () =>
  explained(async () => {
    const url = await publishedSite('Accessible docs');
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
