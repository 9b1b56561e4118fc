// The rendered-site issue's server figures (issue 23): a published 1,000-page space read as a
// reader's browser does. An uncached render (each page's first visit: its Document converted,
// then the page built and serialised), a cached page's latency, and a cached page's throughput
// against bare Koa serving the same bytes pre-encoded. Through the built server (dist/), warm.
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { fmt, latency, median, quireWithOrganization, root, spawnServer, spread, throughput } from './lib.js';
import { writePages } from './packed.js';

const execFileAsync = promisify(execFile);
const git = async (cwd: string, ...args: string[]) =>
  (
    await execFileAsync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } })
  ).stdout.trim();

/** The bytes on the wire of an answer a browser accepting brotli gets (fetch would decompress them). */
function compressedBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'br, gzip' } }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () => resolve(bytes));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

export async function benchSitePages(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  const { dataDir, scratch, organizationId, token, server, api } = await quireWithOrganization();
  try {
    const space = await api('POST', `/orgs/${organizationId}/spaces`, { title: 'Guide', empty: true });
    const work = path.join(scratch, 'space');
    await git(scratch, 'clone', '--quiet', `${server.url.replace('://', `://bench:${token}@`)}/git/${space.id}.git`, work);
    writePages(work, 1, 100); // 100 parts of 10 pages: 1,000 pages
    await git(work, 'add', '-A');
    await git(work, 'commit', '-qm', 'Pages');
    await git(work, 'push', '--quiet', 'origin', 'HEAD:main');
    const site = await api('POST', `/orgs/${organizationId}/sites`, { title: 'Bench docs', spaces: [space.id] });
    const published = (await api('POST', `/orgs/${organizationId}/sites/${site.id}/publish`)).urls.published as string;

    const pageUrl = (index: number) => `${published}part-${Math.floor(index / 9) % 100}/topic-${index % 9}`;
    await (await fetch(pageUrl(899))).arrayBuffer(); // the revision read once
    const uncached: number[] = [];
    for (let index = 0; index < 200; index += 1) {
      const started = performance.now();
      const response = await fetch(pageUrl(index));
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${pageUrl(index)} answered ${response.status}`);
      uncached.push(performance.now() - started);
    }
    figures['uncached page render (first visit of each page), 1,000-page space: median ms (target ≤ 15)'] = spread(uncached, 1);

    const cachedUrl = pageUrl(5);
    const cached = await latency(cachedUrl, {}, 300);
    figures['cached page, sequential: median ms'] = fmt(cached.median);
    const html = Buffer.from(await (await fetch(cachedUrl)).arrayBuffer());
    figures['page size: bytes of HTML (uncompressed)'] = fmt(html.length, 0);
    const stylesheet = new URL(/<link rel="stylesheet" href="([^"]+)">/.exec(html.toString())![1]!, published).toString();
    const script = new URL(/<script src="([^"]+)" defer>/.exec(html.toString())![1]!, published).toString();
    const [pageBr, cssBr, scriptBr] = [await compressedBytes(cachedUrl), await compressedBytes(stylesheet), await compressedBytes(script)];
    figures['the deferred script (search as you type), as sent with brotli: KB (target ≤ 10)'] = fmt(scriptBr / 1024, 2);
    figures['first visit, HTML + CSS as sent with brotli: KB (target ≤ 40)'] = fmt((pageBr + cssBr) / 1024, 1);
    figures['later navigation, HTML as sent with brotli: KB (target ≤ 10)'] = fmt(pageBr / 1024, 1);
    writeFileSync(path.join(dataDir, 'page.html'), html);
    const bare = await spawnServer(['--import', 'tsx', path.join(root, 'bench/servers/bareKoa.ts'), path.join(dataDir, 'page.html')]);
    await throughput(cachedUrl, {}, 2);
    await throughput(bare.url, {}, 2);
    const rounds: Array<{ bareRps: number; quireRps: number }> = [];
    for (let round = 0; round < 3; round += 1) rounds.push({ bareRps: await throughput(bare.url, {}, 5), quireRps: await throughput(cachedUrl, {}, 5) });
    await bare.stop();
    const ratios = rounds.map(({ bareRps, quireRps }) => (quireRps / bareRps) * 100);
    const { bareRps, quireRps } = rounds[ratios.indexOf(median(ratios))]!;
    figures['cached page, access log on: req/s'] = fmt(quireRps, 0);
    figures['bare Koa serving the same bytes, pre-encoded: req/s'] = fmt(bareRps, 0);
    figures[`… cached page as % of bare Koa, median of 3 rounds (${ratios.map((ratio) => fmt(ratio, 1)).join(', ')}) (target ≥ 50)`] = fmt(median(ratios), 1);

    // The static export, as an operator runs it beside the running server.
    const exportDir = path.join(scratch, 'export');
    const started = performance.now();
    await execFileAsync('npm', ['run', '-s', 'admin', '--', 'site', 'export', site.id as string, exportDir], { cwd: root, env: { ...process.env, DATA_DIR: dataDir } });
    figures['static export of the 1,000-page site, Pagefind index included: s (target ≤ 30)'] = fmt((performance.now() - started) / 1000, 1);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}
