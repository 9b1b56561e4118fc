import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chromiumPath } from '../../domain/pdf/browser.js';
import type { OrganizationFixture } from '../helpers/fixtures.js';
import { ok } from '../helpers/gitClient.js';
import { runAdmin } from '../helpers/processes.js';
import type { TestServer } from '../helpers/server.js';
import { siteMaker } from '../helpers/sites.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('static export of a published site: relative links, agents files, redirects, Pagefind search');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
});
const { space, publishedSite } = siteMaker(() => ({ t, fx }));
const out = mkdtempSync(path.join(tmpdir(), 'quire-export-'));
test.after(() => rmSync(out, { recursive: true, force: true }));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/** A plain static file server over the export, as any web server would be. */
function serve(dir: string): Promise<{ url: string; close(): void }> {
  const server = http.createServer((request, response) => {
    let file = path.join(dir, decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!file.startsWith(dir) || !existsSync(file)) return void response.writeHead(404).end();
    const types: Record<string, string> = { '.html': 'text/html', '.js': 'application/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };
    response.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() })));
}

test('npm run admin -- site export writes the site as static files whose every link leads to a file; search works from Pagefind alone', async () => {
  const guide = await space('Guide');
  // Files a browser would run if a static server sent them as what they are: an HTML page and an SVG.
  const clone = path.join(out, '..', `${path.basename(out)}-clone`);
  await ok(path.dirname(clone), 'clone', '--quiet', `${t.url.replace('://', `://writer:${fx.admin.token}@`)}/git/${guide.id}.git`, clone);
  mkdirSync(path.join(clone, '.gitbook', 'assets'), { recursive: true });
  writeFileSync(path.join(clone, '.gitbook', 'assets', 'evil.html'), '<script>alert(document.domain)</script>');
  writeFileSync(path.join(clone, '.gitbook', 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)"><rect width="10" height="10"/></svg>');
  // Tabs whose code ends one and starts the next: Pagefind reads the page's text as its characters come.
  const tabs = '{% tabs %}\n{% tab title="npm" %}\n```bash\ncd my-project\n```\n{% endtab %}\n\n{% tab title="Docker" %}\n```bash\ndocker run acme\n```\n{% endtab %}\n{% endtabs %}';
  writeFileSync(path.join(clone, 'faq.md'), `${readFileSync(path.join(clone, 'faq.md'), 'utf8')}\n[The page](.gitbook/assets/evil.html)\n\n![Logo](.gitbook/assets/logo.svg)\n\n${tabs}\n`);
  await ok(clone, 'add', '-A');
  await ok(clone, 'commit', '-qm', 'Active files');
  await ok(clone, 'push', '--quiet', 'origin', 'HEAD:main');
  rmSync(clone, { recursive: true, force: true });
  const site = await publishedSite('Exported docs', [guide.id]);
  const siteSpace = (await t.call('GET', `/v1/orgs/${fx.org.id}/sites/${site.id}/site-spaces`, { token: fx.admin.token })).body.items[0].id as string;
  const pages = (await t.call('GET', `/v1/spaces/${guide.id}/content/pages`, { token: fx.admin.token })).body.pages as Array<{ id: string; path: string }>;
  const faq = pages.find((page) => page.path === 'faq')!;
  await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.id}/redirects`, {
    token: fx.admin.token,
    body: { source: '/questions', destination: { kind: 'site-page', siteSpaceId: siteSpace, pageId: faq.id } },
  });

  const exported = await runAdmin(['site', 'export', site.id, out], { DATA_DIR: t.dataDir });
  assert.is(exported.code, 0, exported.stderr);
  assert.match(exported.stdout, /^exported 4 pages and 3 files of site \w+ to /);
  for (const file of [
    'index.html',
    'index.md',
    'quick-start/index.html',
    'quick-start.md',
    'quick-start/configuration/index.html',
    'faq/index.html',
    'llms.txt',
    'llms-full.txt',
    '404.html',
    'search/index.html',
    'pagefind/pagefind-ui.js',
    'questions/index.html',
  ]) {
    assert.ok(existsSync(path.join(out, file)), `${file} is written`);
  }
  assert.match(readFileSync(path.join(out, 'llms.txt'), 'utf8'), '- [Configuration](quick-start/configuration.md)');
  assert.match(readFileSync(path.join(out, 'questions/index.html'), 'utf8'), '<meta http-equiv="refresh" content="0; url=../faq/index.html">');

  // The active files are downloads; the page links to the HTML one as such and shows the SVG inline.
  const exportedFiles = filesUnder(out).map((file) => path.relative(out, file));
  assert.ok(
    exportedFiles.some((file) => file.endsWith('/evil.html.download')),
    exportedFiles.join('\n'),
  );
  assert.ok(exportedFiles.some((file) => file.endsWith('/logo.svg.download')));
  assert.not.ok(
    exportedFiles.some((file) => /\/(evil\.html|logo\.svg)$/.test(file)),
    'neither is written under its own type',
  );
  const faqPage = readFileSync(path.join(out, 'faq/index.html'), 'utf8');
  assert.match(faqPage, /href="[^"]*evil\.html\.download"/);
  assert.match(faqPage, /<img src="data:image\/svg\+xml;base64,/);

  const html = filesUnder(out).filter((file) => file.endsWith('.html') && !file.includes(`${path.sep}pagefind${path.sep}`));
  for (const file of html) {
    const body = readFileSync(file, 'utf8');
    assert.match(
      body.replace(/&#x27;/g, "'"),
      /<head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'wasm-unsafe-eval';/,
      `${path.relative(out, file)} carries the site's policy`,
    );
    assert.not.match(body, `/sites/${site.id}/`, `${path.relative(out, file)} keeps no link to the live site`);
    for (const [, link] of body.matchAll(/(?:href|src|action)="([^"#?]+)[^"]*"/g)) {
      if (/^(https?:|mailto:|data:)/.test(link!)) continue;
      assert.ok(existsSync(path.join(path.dirname(file), decodeURIComponent(link!))), `${path.relative(out, file)} links to ${link}, which exists`);
    }
  }

  const browser = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, pipe: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const served = await serve(out);
  try {
    const page = await browser.newPage();
    await page.setJavaScriptEnabled(false);
    await page.goto(pathToFileURL(path.join(out, 'index.html')).toString());
    await Promise.all([page.waitForNavigation(), page.click('nav.toc a[href="faq/index.html"]')]);
    assert.is(await page.$eval('main h1', (heading) => heading.textContent), 'FAQ', 'opened from disk, the sidebar leads to the page');
    await page.close();

    const search = await browser.newPage();
    await search.goto(`${served.url}search/index.html?q=setting`, { waitUntil: 'load' });
    await search.waitForSelector('.pagefind-ui__result-link', { timeout: 10_000 });
    assert.equal(await search.$$eval('.pagefind-ui__result-link', (links) => links.map((link) => link.textContent)), ['Configuration']);
    // One block's last word and the next block's first stay two words in the excerpts.
    await search.goto(`${served.url}search/index.html?q=docker`, { waitUntil: 'load' });
    await search.waitForSelector('.pagefind-ui__result-excerpt', { timeout: 10_000 });
    const excerpt = await search.$eval('.pagefind-ui__result-excerpt', (found) => found.textContent ?? '');
    assert.match(excerpt, /my-project\s+Docker\s+docker run/, excerpt);
    await search.close();

    // The exported pages keep the script (copy buttons, tabs, the theme), without its server parts.
    const reader = await browser.newPage();
    await reader.goto(`${served.url}quick-start/configuration/index.html`, { waitUntil: 'load' });
    await reader.waitForSelector('figure.code button.copy', { timeout: 5000 });
    assert.is(await reader.$eval('header form[role=search]', (form) => form.hasAttribute('data-live')), false, 'no results as one types: no server');
    await reader.close();
  } finally {
    served.close();
    await browser.close();
  }

  const refused = await runAdmin(['site', 'export', 'nosuchsite', out], { DATA_DIR: t.dataDir });
  assert.is(refused.code, 2);
  assert.match(refused.stderr, 'site nosuchsite is not published for anyone to read');
});

test.run();
