import { createRequire } from 'node:module';
import type { Browser, Page } from 'puppeteer';
import * as assert from 'uvu/assert';

/** The web app in Chromium: axe-core's findings on a page, in both themes, and a signed-in browser context. */
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(options: object): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  });
}

/** axe on the page in both themes (what it finds added to `found`), and that it fits the viewport's width. */
export async function checkAppPage(page: Page, what: string, found: string[]): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    found.push(...(await axeViolations(page)).map((violation) => `${scheme} ${what}: ${violation}`));
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${what} fits ${page.viewport()?.width} px (${overflow} px too wide)`);
}

/** A new browser context (its own cookies) signed in with a password at the app's sign-in form, at `path` afterwards. */
export async function signedInPage(browser: Browser, input: { url: string; email: string; password: string; path: string; width?: number }): Promise<Page> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: input.width ?? 390, height: 844 });
  await page.setBypassCSP(true); // axe is injected as a script, which the app's CSP refuses
  await page.goto(`${input.url}${input.path}`);
  await page.locator('::-p-aria(Email[role="textbox"])').fill(input.email);
  await page.locator('::-p-aria(Password)').fill(input.password);
  await Promise.all([page.waitForNavigation(), page.locator('::-p-aria(Sign in[role="button"])').click()]);
  assert.is(new URL(page.url()).pathname, input.path, 'back where the visit began');
  return page;
}
