// The change requests issue's figures: a one-page batch on a 1,000-page space over loopback, and
// the merge of a change request touching 10 pages into a 10,000-page space, beside
// `git merge-tree --write-tree` on a copy of the same repository in the same run.
import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { commitToBranchHead } from '../engine/commitChanges.js';
import { renderPageFile } from '../engine/layout/pageFile.js';
import { renderSummary, type SummaryEntry } from '../engine/layout/summary.js';
import { mergeBranch } from '../engine/mergeBranch.js';
import { openRepository, primaryBranch } from '../engine/repository.js';
import { openSpaceRepository, spaceGitdir } from '../engine/spaceRepositories.js';
import { buildQuire, fmt, median, sharedTemporalAddress, spawnQuire, spread, tempDataDir } from './lib.js';
import { seedOrganization } from './seed.js';

const author = { name: 'Bench', email: 'bench@example.com' };
/** The number of the j-th page that isn't a section's README (those are 10, 20, …). */
export const pageNumber = (j: number) => Math.floor(j / 9) * 10 + (j % 9) + 1;
export const body = (n: number, edit = '') => `# Page ${n}\n\n${edit}Page ${n} explains one thing.\n\n${Array.from({ length: 20 }, (_, line) => `Line ${line} of page ${n}.`).join('\n\n')}\n`;

/** `count` pages in sections of 10 (a README and 9 pages each), one commit on the primary branch; `edit` opens each page's text (different spaces, different blobs). */
export async function writePages(dataDir: string, spaceId: string, count: number, edit = '') {
  const changes = [];
  const entries: SummaryEntry[] = [];
  for (let section = 0; section < count / 10; section += 1) {
    const children: SummaryEntry[] = [];
    for (let page = 0; page < 9; page += 1) {
      const n = section * 10 + page + 1;
      const file = `section-${section}/page-${page}.md`;
      changes.push({ path: file, content: renderPageFile({ meta: { pageId: `p${n}` }, body: body(n, edit) }) });
      children.push({ title: `Page ${n}`, target: file, children: [] });
    }
    const file = `section-${section}/README.md`;
    changes.push({ path: file, content: renderPageFile({ meta: { pageId: `s${section}` }, body: body(section * 10, edit) }) });
    entries.push({ title: `Section ${section}`, target: file, children });
  }
  changes.push({ path: 'SUMMARY.md', content: renderSummary([{ title: null, entries }]) });
  await commitToBranchHead({ repo: openSpaceRepository(dataDir, spaceId), branch: primaryBranch, changes, message: 'Generated pages', author });
}

/** The fields of the API's answers the benchmark reads. */
interface Answer {
  id: string;
  revision: string;
  revisionInitial: string;
  result: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
function call(url: string, method: string, auth: Record<string, string>, payload?: unknown): Promise<{ status: number; body: Answer; ms: number }> {
  const started = process.hrtime.bigint();
  const data = payload === undefined ? undefined : Buffer.from(JSON.stringify(payload));
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, agent, headers: { ...auth, ...(data ? { 'content-type': 'application/json', 'content-length': String(data.length) } : {}) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const text = Buffer.concat(chunks).toString('utf8');
        const status = response.statusCode ?? 500;
        if (status >= 400) reject(new Error(`${method} ${url}: ${status} ${text.slice(0, 300)}`));
        else resolve({ status, body: (text ? JSON.parse(text) : {}) as Answer, ms });
      });
    });
    request.on('error', reject);
    request.end(data);
  });
}

const timedMs = (work: () => void) => {
  const started = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - started) / 1e6;
};

export async function benchChangeRequests(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  const dataDir = tempDataDir();
  const { organizationId, token } = await seedOrganization(dataDir, 1);
  const auth = { authorization: `Bearer ${token}` };
  buildQuire();
  const server = await spawnQuire({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS: await sharedTemporalAddress() });
  const api = (suffix: string) => `${server.url}/v1${suffix}`;
  try {
    const newSpace = async (pages: number) => {
      const space = (await call(api(`/orgs/${organizationId}/spaces`), 'POST', auth, { title: `${pages} pages`, empty: true })).body;
      await writePages(dataDir, space.id, pages);
      return space.id;
    };

    // One-page update_page batches on a 1,000-page space, each on the head the previous one left.
    const small = await newSpace(1000);
    const changeRequest = (await call(api(`/spaces/${small}/change-requests`), 'POST', auth, { subject: 'Batches' })).body as { id: string };
    const content = api(`/spaces/${small}/change-requests/${changeRequest.id}/content`);
    const batch = (i: number) => ({ changes: [{ operation: 'update_page', page: `p${pageNumber(i % 900)}`, document: { markdown: body(pageNumber(i % 900), `Edit ${i}. `) } }] });
    for (let i = 0; i < 5; i += 1) await call(content, 'POST', auth, batch(i));
    const batches: number[] = [];
    for (let i = 5; i < 45; i += 1) batches.push((await call(content, 'POST', auth, batch(i))).ms);
    figures['one-page update_page batch, 1,000-page space, loopback: median (min–max) ms (target ≤ 15)'] = spread(batches);

    // Merges of 10-page change requests into a 10,000-page space whose primary branch moved too.
    const large = await newSpace(10_000);
    const gitdir = spaceGitdir(dataDir, large);
    const merges: number[] = [];
    const gitMerges: number[] = [];
    const engineMerges: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      const created = (await call(api(`/spaces/${large}/change-requests`), 'POST', auth, { subject: `Ten pages ${round}` })).body as { id: string };
      const url = api(`/spaces/${large}/change-requests/${created.id}`);
      const pages = Array.from({ length: 10 }, (_, i) => pageNumber(round * 1000 + i * 97));
      const written = await call(`${url}/content`, 'POST', auth, { changes: pages.map((n) => ({ operation: 'update_page', page: `p${n}`, document: { markdown: body(n, `Round ${round}. `) } })) });
      // The primary branch moves meanwhile (another page), so the merge is a real three-way one.
      const other = pageNumber(round * 1000 + 500);
      await commitToBranchHead({
        repo: openSpaceRepository(dataDir, large),
        branch: primaryBranch,
        changes: [{ path: `section-${Math.floor((other - 1) / 10)}/page-${(other - 1) % 10}.md`, content: renderPageFile({ meta: { pageId: `p${other}` }, body: body(other, 'Meanwhile. ') }) }],
        message: 'Meanwhile',
        author,
      });
      const copy = path.join(tempDataDir(), 'copy.git');
      cpSync(gitdir, copy, { recursive: true });
      const primary = execFileSync('git', ['-C', copy, 'rev-parse', primaryBranch], { encoding: 'utf8' }).trim();
      gitMerges.push(timedMs(() => execFileSync('git', ['-C', copy, 'merge-tree', '--write-tree', primary, written.body.revision])));
      // The engine's merge alone, in this process, on a second copy (cold caches for that repository).
      const engineCopy = path.join(tempDataDir(), 'engine.git');
      cpSync(gitdir, engineCopy, { recursive: true });
      const started = process.hrtime.bigint();
      const result = await mergeBranch({ repo: openRepository(engineCopy), into: primaryBranch, from: written.body.revision, base: written.body.revisionInitial, message: 'Merge', author });
      engineMerges.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (!result.merged) throw new Error('the engine merge met conflicts');
      const merged = await call(`${url}/merge`, 'POST', auth);
      if (merged.body.result !== 'merge') throw new Error(`merge answered ${JSON.stringify(merged.body)}`);
      merges.push(merged.ms);
    }
    figures['merge of a 10-page change request into a 10,000-page space, over the API: median (min–max) ms (target ≤ 150)'] = spread(merges);
    figures['git merge-tree --write-tree on a copy, same merges (process start included): median (min–max) ms'] = spread(gitMerges);
    figures['the engine merge (mergeBranch: trees, commit, durable ref move), in process: median (min–max) ms'] = spread(engineMerges);
    figures['… API merge / git merge-tree (target ≤ 3)'] = fmt(median(merges) / median(gitMerges), 2);
    figures['… engine merge / git merge-tree'] = fmt(median(engineMerges) / median(gitMerges), 2);
  } finally {
    await server.stop();
    agent.destroy();
  }
  return figures;
}
