// The published-content issue's figures: a URL lookup and a page's Document as GitBook's renderer
// asks for them (with the site token the lookup minted), on a 1,000-page space; a site search over
// 10,000 pages in 5 site spaces. Through the built server (dist/), warm, sequential requests.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { quireWithOrganization, spread } from './lib.js';
import { writePages } from './packed.js';

// Asynchronous, so the HTTP client's timers run meanwhile: a process blocked through a long push
// would reuse a keep-alive connection the server had closed ("other side closed").
const execFileAsync = promisify(execFile);
const git = async (cwd: string, ...args: string[]) =>
  (
    await execFileAsync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } })
  ).stdout.trim();

async function timed(samples: number[], request: () => Promise<Response>): Promise<void> {
  const started = performance.now();
  const response = await request();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`answered ${response.status}`);
  samples.push(performance.now() - started);
}

export async function benchPublished(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  const { dataDir, scratch, organizationId, token, server, api } = await quireWithOrganization();
  try {
    // Five spaces of 2,000 pages, pushed over Quire's git remote.
    const spaces: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const space = await api('POST', `/orgs/${organizationId}/spaces`, { title: `Part ${index}`, empty: true });
      const work = path.join(scratch, `space-${index}`);
      await git(scratch, 'clone', '--quiet', `${server.url.replace('://', `://bench:${token}@`)}/git/${space.id}.git`, work);
      writePages(work, index + 1, 200);
      await git(work, 'add', '-A');
      await git(work, 'commit', '-qm', 'Pages');
      await git(work, 'push', '--quiet', 'origin', 'HEAD:main');
      spaces.push(space.id as string);
    }
    const site = await api('POST', `/orgs/${organizationId}/sites`, { title: 'Bench docs', spaces });
    await api('POST', `/orgs/${organizationId}/sites/${site.id}/publish`);
    const published = (await api('GET', `/orgs/${organizationId}/sites/${site.id}`)).urls.published as string;

    const lookup = (round: number) =>
      fetch(`${server.url}/v1/urls/published`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${published}part-${round % 100}/topic-${round % 9}` }),
      });
    const found = (await (await lookup(0)).json()) as Record<string, string>;
    const lookups: number[] = [];
    for (let round = 0; round < 220; round += 1) await timed(round < 20 ? [] : lookups, () => lookup(round));
    figures['URL lookup (resolvePublishedContentByUrl), warm: median ms (target ≤ 2)'] = spread(lookups, 2);

    const siteToken = { authorization: `Bearer ${found.apiToken}` };
    const revision = (await api('GET', `/spaces/${found.space}`, undefined, siteToken)).revision as string;
    const page = await api('GET', `/spaces/${found.space}/revisions/${revision}/path/${found.pathname}`, undefined, siteToken);
    const documents: number[] = [];
    for (let round = 0; round < 220; round += 1) {
      const samples = round < 20 ? [] : documents;
      await timed(samples, () => fetch(`${server.url}/v1/spaces/${found.space}/revisions/${revision}/page/${page.id}/document`, { headers: siteToken }));
    }
    figures['page Document with the site token (getPageDocumentInRevisionById), warm, 2,000-page space: median ms (target ≤ 3)'] = spread(documents, 2);

    const searches: number[] = [];
    const words = ['lorem', 'quire', 'branch', 'delta', 'pack', 'index', 'space', 'tree', 'commit', 'page'];
    for (let round = 0; round < 60; round += 1) {
      const samples = round < 10 ? [] : searches;
      await timed(samples, () =>
        fetch(`${server.url}/v1/orgs/${organizationId}/sites/${site.id}/search`, {
          method: 'POST',
          headers: { ...siteToken, 'content-type': 'application/json' },
          body: JSON.stringify({ query: `${words[round % 10]}${round % 7}`, scope: { mode: 'all' } }),
        }),
      );
    }
    figures['site search over 10,000 pages in 5 site spaces (scope all), warm: median ms (target ≤ 15)'] = spread(searches, 1);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}
