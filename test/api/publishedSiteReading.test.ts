import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chromiumPath } from '../../domain/pdf/browser.js';
import type { OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

// Reading a published site as readers know it from the best documentation sites (issue 55):
// tabs that are tabs, the pages behind a menu on a phone, hints with an icon and a colour, an
// outline that follows the reading, a theme that stays chosen, search from the keyboard.
// At 1280 and 390 pixels, in light and dark; screenshots kept only when a test fails.
const test = suite('published sites read well: tabs, hints, phone menu, outline, theme, keyboard search');
let t: TestServer;
let fx: OrganizationFixture;
let browser: Browser;
let site = '';
const screenshots = mkdtempSync(path.join(tmpdir(), 'quire-reading-screens-'));
const taken: string[] = [];
let failed = false;
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

withOrganization(test, (setup) => ({ t, fx } = setup));

const tabs = (first: string, second: string) => `{% tabs %}\n{% tab title="npm" %}\n${first}\n{% endtab %}\n\n{% tab title="Docker" %}\n${second}\n{% endtab %}\n{% endtabs %}`;
/** A page with two tab groups of the same titles, the four hint styles and sections to scroll through. */
const readingPage = [
  '## Install',
  tabs('Run `npm install acme`.', 'Run `docker run acme`.'),
  '## Upgrade',
  tabs('Run `npm update acme`.', 'Pull the new image.'),
  ...['info', 'success', 'warning', 'danger'].map((style) => `{% hint style="${style}" %}\nA ${style} hint.\n{% endhint %}`),
  // A table wider than a phone: it scrolls in its own box, the page doesn't.
  `| ${['Option', 'Default', 'Environment variable', 'Description', 'Since', 'Scope'].join(' | ')} |\n|${' --- |'.repeat(6)}\n| ${['listen_address_of_the_server', '0.0.0.0:3000', 'ACME_LISTEN_ADDRESS', 'Where the server takes requests from', '1.0.0', 'server'].join(' | ')} |`,
  '{% code title="install.sh" lineNumbers="true" %}\n```bash\nnpm install acme\n# then start it\n$ docker run -p 3000:3000 acme\n```\n{% endcode %}',
  ...['Configure', 'Deploy', 'Monitor', 'Troubleshoot'].map((title) => `## ${title}\n\n${`${title} your installation with care. `.repeat(60)}`),
].join('\n\n');

test.before(async () => {
  browser = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, pipe: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Guide', template: { id: 'getting-started' } } })).body;
  const pages = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.admin.token })).body.pages as Array<{ id: string; path: string }>;
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.admin.token, body: { subject: 'Reading' } })).body;
  const changes = [{ operation: 'update_page', page: pages.find((page) => page.path === 'faq')!.id, document: { markdown: readingPage } }];
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { token: fx.admin.token, body: { changes } })).status, 200);
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: fx.admin.token })).body.result, 'merge');
  const created = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Reading docs', spaces: [space.id] } })).body;
  site = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${created.id}/publish`, { token: fx.admin.token })).body.urls.published;
});
test.after(async () => {
  await browser?.close();
  // Kept to explain a failure, or when asked (QUIRE_KEEP_SCREENSHOTS=1) to look at the pages.
  if (!failed && !process.env.QUIRE_KEEP_SCREENSHOTS) rmSync(screenshots, { recursive: true, force: true });
  else process.stdout.write(`screenshots: ${screenshots}\n`);
});

async function screenshot(page: Page, name: string) {
  const file = path.join(screenshots, `${name}.png`);
  await page.screenshot({ path: file as `${string}.png`, fullPage: false });
  taken.push(file);
}

async function explained(run: () => Promise<void>) {
  try {
    await run();
  } catch (error) {
    failed = true;
    throw new Error(`${(error as Error).message}\nscreenshots: ${taken.join(', ') || 'none'}`, { cause: error });
  }
}

async function opened(width: number, options: { script?: boolean; scheme?: 'light' | 'dark' } = {}): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  await page.setViewport({ width, height: width < 500 ? 844 : 900 });
  await page.setJavaScriptEnabled(options.script !== false);
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: options.scheme ?? 'light' }]);
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(String(error)));
  return { page, problems };
}

const selectedTabs = (page: Page) => page.$$eval('.tabs [role=tab][aria-selected=true]', (tabs) => tabs.map((tab) => tab.textContent));
const visiblePanels = (page: Page) => page.$$eval('.tabs [role=tabpanel]:not([hidden])', (panels) => panels.map((panel) => panel.textContent?.trim()));

test('tabs are an ARIA tablist worked by keyboard; a choice holds in every group of those titles, on later pages too', () =>
  explained(async () => {
    const { page, problems } = await opened(1280);
    await page.goto(`${site}faq`, { waitUntil: 'load' });
    assert.is(await page.$$eval('.tabs [role=tablist]', (lists) => lists.length), 2);
    assert.equal(await selectedTabs(page), ['npm', 'npm']);
    assert.equal(await visiblePanels(page), ['Run npm install acme.', 'Run npm update acme.']);
    await page.focus('.tabs [role=tab][aria-selected=true]');
    await page.keyboard.press('ArrowRight');
    assert.equal(await selectedTabs(page), ['Docker', 'Docker'], 'the other group follows');
    assert.is(await page.evaluate(() => document.activeElement?.textContent), 'Docker', 'focus moves with the arrow');
    await page.keyboard.press('Home');
    assert.equal(await selectedTabs(page), ['npm', 'npm']);
    await page.keyboard.press('End');
    await screenshot(page, 'tabs-1280-light');
    await page.reload({ waitUntil: 'load' });
    assert.equal(await selectedTabs(page), ['Docker', 'Docker'], 'remembered on the next page load');
    assert.equal(await visiblePanels(page), ['Run docker run acme.', 'Pull the new image.']);
    // Printed, every tab's content is on the paper.
    await page.emulateMediaType('print');
    assert.equal(await page.$$eval('.tabs [role=tabpanel]', (panels) => panels.map((panel) => getComputedStyle(panel).display)), ['block', 'block', 'block', 'block']);
    await page.emulateMediaType('screen');
    assert.equal(problems, []);
    await page.close();

    // Without script every tab's content is there to read, each a disclosure.
    const bare = await opened(1280, { script: false });
    await bare.page.goto(`${site}faq`, { waitUntil: 'load' });
    assert.equal(await bare.page.$$eval('.tabs details.tab summary', (summaries) => summaries.map((summary) => summary.textContent)), ['npm', 'Docker', 'npm', 'Docker']);
    await bare.page.close();
  }));

test('hints have an icon, a label and their own colour; the page has no accessibility violation in either theme', () =>
  explained(async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { page } = await opened(1280, { scheme });
      await page.setBypassCSP(true);
      await page.goto(`${site}faq`, { waitUntil: 'load' });
      const hints = await page.$$eval('aside.hint', (asides) =>
        asides.map((aside) => ({ label: aside.querySelector('.hint-label')?.textContent, icon: !!aside.querySelector('.hint-label svg'), background: getComputedStyle(aside).backgroundColor })),
      );
      assert.equal(
        hints.map((hint) => [hint.label, hint.icon]),
        [
          ['Note', true],
          ['Tip', true],
          ['Warning', true],
          ['Danger', true],
        ],
      );
      assert.is(new Set(hints.map((hint) => hint.background)).size, 4, `each style its own tint (${scheme})`);
      await page.evaluate(() => document.querySelector('aside.hint')?.scrollIntoView());
      await screenshot(page, `hints-1280-${scheme}`);
      await page.addScriptTag({ path: axePath });
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(options: object): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
        const result = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
        return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
      });
      assert.equal(violations, [], `${scheme}: ${violations.join('\n')}`);
      await page.close();
    }
  }));

test('a titled code block has a title bar and line numbers; a shell’s commands are highlighted; copying copies the code alone', () =>
  explained(async () => {
    const { page, problems } = await opened(1280);
    await page.goto(`${site}faq`, { waitUntil: 'load' });
    const block = await page.$eval('figure.code.titled', (figure) => ({
      title: figure.querySelector('figcaption')?.textContent,
      gutter: figure.querySelector('.gutter')?.textContent,
      commands: [...figure.querySelectorAll('code .hljs-built_in')].map((span) => span.textContent),
      comment: figure.querySelector('code .hljs-comment')?.textContent,
    }));
    assert.equal(block, { title: 'install.sh', gutter: '1\n2\n3\n', commands: ['npm', 'docker'], comment: '# then start it' });
    await page.evaluate(() => document.querySelector('figure.code.titled')?.scrollIntoView());
    await screenshot(page, 'code-1280');
    const context = browser.defaultBrowserContext();
    await context.overridePermissions(new URL(site).origin, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    await page.click('figure.code.titled button.copy');
    await page.waitForFunction(() => document.querySelector('figure.code.titled button.copy')?.textContent === 'Copied', { timeout: 5000 });
    assert.is(await page.evaluate(() => navigator.clipboard.readText()), 'npm install acme\n# then start it\n$ docker run -p 3000:3000 acme');
    assert.equal(problems, []);
    await page.close();
  }));

test('on a phone the pages are behind Menu, with or without script; the title is in the first screen; the outline folds above the page', () =>
  explained(async () => {
    for (const script of [true, false]) {
      for (const scheme of ['light', 'dark'] as const) {
        const { page } = await opened(390, { script, scheme });
        await page.goto(`${site}quick-start`, { waitUntil: 'load' });
        await screenshot(page, `phone-${script ? 'script' : 'bare'}-${scheme}`);
        assert.is(await page.$eval('nav.toc', (nav) => getComputedStyle(nav).display), 'none', 'the sidebar waits behind the menu');
        const title = await page.$eval('main h1', (heading) => heading.getBoundingClientRect().bottom);
        assert.ok(title < 844, `the page title ends at ${title}px, within the 844px screen`);
        await page.click('label.menu-label');
        assert.is(await page.$eval('nav.toc', (nav) => getComputedStyle(nav).display), 'block');
        assert.ok(await page.$eval('nav.toc a[aria-current=page]', (link) => link.getBoundingClientRect().height > 0), 'the current page shows in the open menu');
        await page.goto(`${site}faq`, { waitUntil: 'load' });
        assert.is(await page.$eval('aside.outline', (aside) => getComputedStyle(aside).display), 'none');
        assert.is(await page.$eval('details.outline-compact', (details) => getComputedStyle(details).display), 'block');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.is(overflow, 0, 'nothing runs off the side of the screen');
        assert.ok(await page.$eval('main .table', (box) => box.scrollWidth > box.clientWidth), 'the wide table scrolls sideways in its own box');
        await page.close();
      }
    }
  }));

test('the outline marks the section being read, and stays in view with the sidebar', () =>
  explained(async () => {
    const { page } = await opened(1280);
    await page.goto(`${site}faq`, { waitUntil: 'load' });
    await page.evaluate(() => document.getElementById('monitor')?.scrollIntoView());
    await page.waitForFunction(() => document.querySelector('aside.outline a[aria-current]')?.textContent === 'Monitor', { timeout: 5000 });
    await screenshot(page, 'outline-1280');
    const tops = await page.evaluate(() => [document.querySelector('aside.outline')!.getBoundingClientRect().top, document.querySelector('nav.toc')!.getBoundingClientRect().top]);
    assert.ok(
      tops.every((top) => top >= 0 && top < 100),
      `outline and sidebar in view after scrolling: ${tops.join(', ')}`,
    );
    await page.close();
  }));

test('the theme chosen stays chosen on the next page', () =>
  explained(async () => {
    const { page } = await opened(1280, { scheme: 'light' });
    await page.goto(site, { waitUntil: 'load' });
    await page.click('label.theme-label');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.is(await background(), 'rgb(13, 17, 23)');
    await page.goto(`${site}faq`, { waitUntil: 'load' });
    assert.is(await background(), 'rgb(13, 17, 23)', 'still dark');
    await page.click('label.theme-label');
    await page.goto(site, { waitUntil: 'load' });
    assert.is(await background(), 'rgb(255, 255, 255)', 'back to light, and kept');
    await page.close();
  }));

test('search from the keyboard: / or Ctrl-K opens a dialog, results come as one types with the words marked, arrows and Enter follow one', () =>
  explained(async () => {
    const { page, problems } = await opened(1280);
    await page.goto(site, { waitUntil: 'load' });
    await page.keyboard.press('/');
    assert.is(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'q');
    assert.is(await page.evaluate(() => document.querySelector<HTMLDialogElement>('dialog.search-dialog')?.open), true, 'a search dialog opens');
    await page.keyboard.press('Escape');
    assert.is(await page.evaluate(() => document.querySelector<HTMLDialogElement>('dialog.search-dialog')?.open), false, 'Esc closes it');
    await page.keyboard.down('Control');
    await page.keyboard.press('k');
    await page.keyboard.up('Control');
    await page.keyboard.type('setting');
    await page.waitForSelector('.live-results a', { timeout: 5000 });
    assert.is(await page.$eval('header input[name=q]', (box) => (box as HTMLInputElement).value), '', 'the header’s box is left alone while the dialog is open');
    assert.ok((await page.$$eval('.live-results mark', (marks) => marks.map((mark) => mark.textContent?.toLowerCase()))).includes('setting'), 'the words are marked');
    assert.match(await page.$eval('.live-results a.section', (link) => link.textContent ?? ''), /Every setting lives in one file/, 'the matching section, with its excerpt');
    await page.keyboard.press('ArrowDown');
    assert.is(await page.evaluate(() => document.activeElement?.closest('.live-results') !== null), true);
    await screenshot(page, 'search-1280');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    assert.is(await page.$eval('main h1', (heading) => heading.textContent), 'Configuration');
    // Typing in the header's box goes on in the dialog.
    await page.type('header input[type=search]', 'docker');
    await page.waitForSelector('dialog.search-dialog[open] .live-results a', { timeout: 5000 });
    assert.is(await page.$eval('dialog.search-dialog input[name=q]', (field) => (field as HTMLInputElement).value), 'docker');
    assert.equal(problems, []);
    await page.close();
  }));

test('the customization’s fonts come first where the reader has them, the system’s faces after; none is downloaded', () =>
  explained(async () => {
    const siteId = new URL(site).pathname.split('/')[2]!;
    const path = `/v1/orgs/${fx.org.id}/sites/${siteId}/customization`;
    const current = (await t.call('GET', path, { token: fx.admin.token })).body;
    const put = await t.call('PUT', path, { token: fx.admin.token, body: { ...current, styling: { ...current.styling, font: 'Merriweather', monospaceFont: 'JetBrainsMono' } } });
    assert.is(put.status, 200, JSON.stringify(put.body));
    try {
      const { page } = await opened(1280);
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(`${site}faq`, { waitUntil: 'load' });
      const fonts = await page.evaluate(() => [
        getComputedStyle(document.body).fontFamily,
        getComputedStyle(document.querySelector('main h1')!).fontFamily,
        getComputedStyle(document.querySelector('pre code')!).fontFamily,
      ]);
      assert.match(fonts[0]!, /^Merriweather, Georgia/, 'a serif face falls back on serifs');
      assert.match(fonts[1]!, /^Merriweather/, 'headings follow the body font unless given their own');
      assert.match(fonts[2]!, /^"JetBrains Mono", ui-monospace/);
      assert.ok(
        requested.every((url) => url.startsWith(new URL(site).origin)),
        `nothing from elsewhere: ${requested.join(', ')}`,
      );
      await page.close();
    } finally {
      await t.call('PUT', path, { token: fx.admin.token, body: current });
    }
  }));

test.run();
