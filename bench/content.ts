// The content engine issue's figures, on generated spaces of 1,000 pages of about 2 KB each.
// Runs the built server (dist/) as its own process; writes the pages with the engine directly,
// from this process, the way a git push or the worker would.
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { commitToBranchHead } from '../engine/commitChanges.js';
import { renderPageFile } from '../engine/layout/pageFile.js';
import { renderSummary, type SummaryEntry } from '../engine/layout/summary.js';
import { primaryBranch } from '../engine/repository.js';
import { openSpaceRepository } from '../engine/spaceRepositories.js';
import { buildQuire, dropPageCache, fmt, latency, median, root, sharedTemporalAddress, type Spawned, spawnQuire, spawnServer, spread, tempDataDir, throughput } from './lib.js';
import { seedOrganization } from './seed.js';

// A vocabulary of 4,000 made-up words, used with a skewed frequency: text whose word counts look
// like real prose, so a search for a word finds some pages, not all of them.
const syllables = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'po', 'de', 'va', 'zu', 'ble', 'tro', 'gan', 'fel', 'mor', 'qui', 'sen', 'dar', 'lin'];
const words = Array.from({ length: 4000 }, (_, i) => syllables[i % 20]! + syllables[Math.floor(i / 20) % 20]! + (i >= 400 ? syllables[Math.floor(i / 400) % 20]! : ''));

function paragraph(seed: number, length: number): string {
  const out: string[] = [];
  let state = seed * 2654435761 + 1;
  for (let i = 0; i < length; i += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const r = state / 2147483648;
    out.push(words[Math.floor(words.length * r * r * r)]!); // frequent words are few, rare ones many
  }
  return out.join(' ') + '.';
}

/** About 2 KB of markdown: a few sections of prose, a list and a code block. */
function pageBody(n: number): string {
  return [
    `A page about topic ${n}: ${paragraph(n, 40)}`,
    `## Overview ${n}`,
    paragraph(n + 1, 60),
    `## Details ${n}`,
    paragraph(n + 2, 60),
    `- ${paragraph(n + 3, 8)}\n- ${paragraph(n + 4, 8)}\n- see [the first page](../README.md)`,
    '```bash\nquire --page ' + n + '\n```',
    paragraph(n + 5, 40),
  ].join('\n\n');
}

async function writeThousandPages(dataDir: string, spaceId: string, salt: string) {
  const changes = [];
  const entries: SummaryEntry[] = [];
  for (let section = 0; section < 100; section += 1) {
    const children: SummaryEntry[] = [];
    for (let page = 0; page < 9; page += 1) {
      const n = section * 10 + page + 1;
      const file = `section-${section}/page-${page}.md`;
      changes.push({ path: file, content: renderPageFile({ meta: { pageId: `p${salt}${n}` }, body: `# Page ${n}\n\n${pageBody(n)}\n` }) });
      children.push({ title: `Page ${n}`, target: file, children: [] });
    }
    const file = `section-${section}/README.md`;
    changes.push({ path: file, content: renderPageFile({ meta: { pageId: `s${salt}${section}` }, body: `# Section ${section}\n\n${pageBody(section * 10)}\n` }) });
    entries.push({ title: `Section ${section}`, target: file, children });
  }
  changes.push({ path: 'SUMMARY.md', content: renderSummary([{ title: null, entries }]) });
  await commitToBranchHead({ repo: openSpaceRepository(dataDir, spaceId), branch: primaryBranch, changes, message: 'Generated pages', author: { name: 'Bench', email: 'bench@example.com' } });
}

/**
 * Waits out the start of a new server's worker: it starts once no request has been in flight for
 * 100 ms (2 s after ready at the latest, api/main.ts), then takes about 0.7 s of the main thread.
 */
const workerStarted = () => new Promise((resolve) => setTimeout(resolve, 4000));

const timed = async (work: () => Promise<unknown>) => {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
};
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** The answer's bytes over a kept-alive connection, not decoded: the time is the server's and the wire's. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
export function get(url: string, auth: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: auth, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks);
          if ((response.statusCode ?? 500) >= 400) reject(new Error(`${url}: ${response.statusCode} ${body.toString('utf8', 0, 200)}`));
          else resolve(body);
        });
      })
      .on('error', reject);
  });
}

export async function benchContent(): Promise<Record<string, string>> {
  buildQuire();
  const TEMPORAL_ADDRESS = await sharedTemporalAddress();
  const figures: Record<string, string> = {};
  const dataDir = tempDataDir();
  const { organizationId, token } = await seedOrganization(dataDir, 1);
  const auth = { authorization: `Bearer ${token}` };
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS };
  let server: Spawned = await spawnQuire(env);

  const spaceIds: string[] = [];
  for (let i = 0; i < 10; i += 1) {
    const response = await fetch(`${server.url}/v1/orgs/${organizationId}/spaces`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Generated ${i}`, empty: true }),
    });
    const space = (await response.json()) as { id: string };
    await writeThousandPages(dataDir, space.id, `x${i}x`);
    spaceIds.push(space.id);
  }
  const first = spaceIds[0]!;

  // Each space read once before the restarts, as a served space has been: the first read ever of a
  // space written behind Quire's back builds its revision from every page's object.
  const firstEver: number[] = [];
  for (const spaceId of spaceIds.slice(0, 5)) firstEver.push(await timed(() => get(`${server.url}/v1/spaces/${spaceId}/content`, auth)));
  figures['GET content (1,000 pages), the first read ever of a space written with git: median (min–max) ms'] = spread(firstEver);
  // The first read after a restart, several times over: one sample says little on a shared machine.
  const firstReads: number[] = [];
  const cache = new Set<string>();
  for (let i = 0; i < 5; i += 1) {
    await server.stop();
    cache.add(dropPageCache());
    server = await spawnQuire(env);
    firstReads.push(await timed(() => get(`${server.url}/v1/spaces/${spaceIds[i % spaceIds.length]}/content`, auth)));
  }
  figures[`GET content (1,000 pages), first after a restart, page cache ${[...cache].join('/')}: median (min–max) ms (target ≤ 300)`] = spread(firstReads);
  // Warm reads are a running server's: after the start of the worker the restarts above left just ahead.
  await workerStarted();
  const warm: number[] = [];
  for (let i = 0; i < 30; i += 1) warm.push(await timed(() => get(`${server.url}/v1/spaces/${first}/content`, auth)));
  figures['GET content, warm: median ms (target ≤ 5)'] = fmt(median(warm));
  // Twenty-five commits: the first few reads after a server's start build revisions from their
  // parents in code V8 has not optimized yet (22–29 ms, against 10–12 ms from the sixth on, on the
  // development VM). Both are reported; the target is a running server's.
  const afterCommit: number[] = [];
  for (let i = 0; i < 25; i += 1) {
    const n = 100 + i;
    await commitToBranchHead({
      repo: openSpaceRepository(dataDir, first),
      branch: primaryBranch,
      changes: [{ path: `section-${i}/page-3.md`, content: renderPageFile({ meta: { pageId: `px0x${n}` }, body: `# Page ${n}\n\nEdited ${i}: ${pageBody(n + 7)}\n` }) }],
      message: `Edit ${i}`,
      author: { name: 'Bench', email: 'bench@example.com' },
    });
    afterCommit.push(await timed(() => get(`${server.url}/v1/spaces/${first}/content`, auth)));
  }
  figures['GET content after a commit changing one page, the first 5 after the start: median ms'] = fmt(median(afterCommit.slice(0, 5)), 1);
  figures['GET content after a commit changing one page, the next 20: median ms (target ≤ 20)'] = fmt(median(afterCommit.slice(5)), 1);

  const pageUrl = `${server.url}/v1/spaces/${first}/content/page/px0x55`;
  const page = await latency(pageUrl, auth, 300);
  figures['GET content/page/{pageId}: median ms (target ≤ 2)'] = fmt(page.median);
  writeFileSync(path.join(dataDir, 'page.json'), await get(pageUrl, auth));
  // Small authenticated reads against bare Koa serving the very bytes Quire answers, pre-encoded
  // on both sides; Quire with its access log on, as it runs by default.
  const orgUrl = `${server.url}/v1/orgs/${organizationId}`;
  writeFileSync(path.join(dataDir, 'organization.json'), await get(orgUrl, auth));
  for (const [label, url, file] of [
    ['GET content/page/{pageId}', pageUrl, 'page.json'],
    ['GET /v1/orgs/{id}', orgUrl, 'organization.json'],
  ] as const) {
    const bare = await spawnServer(['--import', 'tsx', path.join(root, 'bench/servers/bareKoa.ts'), path.join(dataDir, file)]);
    await throughput(url, auth, 2);
    await throughput(bare.url, {}, 2);
    // Five rounds, each measuring both in turn: a shared machine's load moves between runs (one
    // round in three was a third off on the development VM), and a round's ratio compares two runs
    // seconds apart. The median round is reported.
    const rounds: Array<{ bareRps: number; quireRps: number }> = [];
    for (let round = 0; round < 5; round += 1) rounds.push({ bareRps: await throughput(bare.url, {}, 5), quireRps: await throughput(url, auth, 5) });
    await bare.stop();
    const ratios = rounds.map(({ bareRps, quireRps }) => (quireRps / bareRps) * 100);
    const { bareRps, quireRps } = rounds[ratios.indexOf(median(ratios))]!;
    figures[`${label}, access log on: req/s`] = fmt(quireRps, 0);
    figures[`bare Koa serving the bytes of ${label}, pre-encoded: req/s`] = fmt(bareRps, 0);
    figures[`… ${label} as % of bare Koa, median of 5 rounds (${ratios.map((ratio) => fmt(ratio, 1)).join(', ')})${label.includes('page') ? ' (target ≥ 50)' : ''}`] = fmt(median(ratios), 1);
  }

  for (const spaceId of spaceIds) await get(`${server.url}/v1/spaces/${spaceId}/content`, auth);
  figures['server RSS after the throughput runs and reading all 10 spaces: MB'] = fmt(rssMb(server.child.pid!), 0);
  // The memory target on its own: a server that has read the 10 spaces and nothing else, with its
  // worker and without (the throughput runs above grow V8's young generation, a separate matter).
  for (const [label, worker] of [
    ['a new server after reading all 10 spaces, worker in the process: RSS MB (target ≤ 300)', 'on'],
    ['… the same with QUIRE_WORKER=off (API only): RSS MB', 'off'],
  ] as const) {
    const fresh = await spawnQuire({ ...env, QUIRE_WORKER: worker });
    for (const spaceId of spaceIds) await get(`${fresh.url}/v1/spaces/${spaceId}/content`, auth);
    if (worker === 'on') await workerStarted(); // so that it is in the figure
    figures[label] = fmt(rssMb(fresh.child.pid!), 0);
    await fresh.stop();
  }

  const indexing = await timed(() => get(`${server.url}/v1/orgs/${organizationId}/search?query=warmup`, auth));
  figures['search index of 10 × 1,000 pages built on first search: ms'] = fmt(indexing, 0);
  const searches: number[] = [];
  for (let i = 0; i < 60; i += 1) {
    const query = `${words[(i * 37) % 1000]} ${words[(i * 53) % 2000]!.slice(0, 4)}`;
    searches.push(await timed(() => get(`${server.url}/v1/orgs/${organizationId}/search?query=${encodeURIComponent(query)}&limit=20`, auth)));
  }
  figures['organization search over 10 spaces (10,000 pages): median ms (target ≤ 10)'] = fmt(median(searches), 1);
  const spaceSearches: number[] = [];
  for (let i = 0; i < 60; i += 1) spaceSearches.push(await timed(() => get(`${server.url}/v1/spaces/${first}/search?query=${words[(i * 37) % 1000]}`, auth)));
  figures['space search (1,000 pages): median ms'] = fmt(median(spaceSearches), 1);

  const duplicates: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    duplicates.push(
      await timed(async () => {
        const response = await fetch(`${server.url}/v1/spaces/${first}/duplicate`, { method: 'POST', headers: auth });
        if (response.status !== 201) throw new Error(`duplicate answered ${response.status}`);
        await response.text();
      }),
    );
  }
  figures['duplicate a 1,000-page space: median ms (target ≤ 1000)'] = fmt(median(duplicates), 0);
  figures['server RSS at the end: MB'] = fmt(rssMb(server.child.pid!), 0);
  await server.stop();
  agent.destroy();
  return figures;
}
