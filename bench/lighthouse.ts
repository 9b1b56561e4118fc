// The rendered-site issue's Lighthouse budgets (issue 23): the getting-started template published
// as a site, each of its pages audited by Lighthouse driving Debian's Chromium on loopback
// (Lighthouse's default: a mobile device, simulated slow 4G). The lowest score of each category
// over the pages is reported, with the page that had it.
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer';
import { rmSync } from 'node:fs';
// Debian's Chromium, as the PDF export and the browser tests use it (PUPPETEER_EXECUTABLE_PATH overrides).
const chromiumPath = () => process.env.PUPPETEER_EXECUTABLE_PATH ?? '/usr/bin/chromium';
import { quireWithOrganization } from './lib.js';

const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const targets: Record<(typeof categories)[number], number> = { performance: 98, accessibility: 100, 'best-practices': 100, seo: 100 };

export async function benchLighthouse(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  const { dataDir, organizationId, server, api } = await quireWithOrganization();
  const browser = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--remote-debugging-port=0'] });
  try {
    const space = await api('POST', `/orgs/${organizationId}/spaces`, { title: 'Guide', template: { id: 'getting-started' } });
    const site = await api('POST', `/orgs/${organizationId}/sites`, { title: 'Lighthouse docs', spaces: [space.id] });
    const published = (await api('POST', `/orgs/${organizationId}/sites/${site.id}/publish`)).urls.published as string;
    const port = Number(new URL(browser.wsEndpoint()).port);
    // Lighthouse's two settings: a phone on slow 4G (its default), and a desktop on a fast line.
    for (const [form, config] of [
      ['mobile', undefined],
      ['desktop', desktopConfig],
    ] as const) {
      const lowest = new Map<string, { score: number; page: string; failing: string[] }>();
      for (const path of ['', 'quick-start', 'quick-start/configuration', 'faq']) {
        const result = await lighthouse(`${published}${path}`, { port, output: 'json', logLevel: 'error', onlyCategories: [...categories] }, config);
        if (!result) throw new Error(`Lighthouse gave no result for /${path}`);
        for (const category of categories) {
          const scored = result.lhr.categories[category]!;
          const score = Math.round((scored.score ?? 0) * 100);
          const failing = scored.auditRefs.filter((ref) => ref.weight > 0 && (result.lhr.audits[ref.id]?.score ?? 1) < 1).map((ref) => ref.id);
          if (!lowest.has(category) || score < lowest.get(category)!.score) lowest.set(category, { score, page: `/${path}`, failing });
        }
      }
      for (const category of categories) {
        const { score, page, failing } = lowest.get(category)!;
        figures[`Lighthouse ${category} (${form}), lowest of the template's 4 pages (target ≥ ${targets[category]})`] = `${score} (${page}${failing.length ? `; short on ${failing.join(', ')}` : ''})`;
      }
    }
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}
