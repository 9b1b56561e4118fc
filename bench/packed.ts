// The layers issue's figure for packed repositories: spaces of ~1,000 pages whose content arrived
// by `git push`, kept as the one pack git received, against the same kind of spaces whose pushed
// objects were unpacked loose. Built with the system git; read through the built server (dist/).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderPageFile } from '../engine/layout/pageFile.js';
import { renderSummary, type SummaryEntry } from '../engine/layout/summary.js';
import { spaceGitdir } from '../engine/spaceRepositories.js';
import { buildQuire, fmt, median, sharedTemporalAddress, type Spawned, spawnQuire, tempDataDir } from './lib.js';
import { seedOrganization } from './seed.js';

const spacesPerKind = 10;
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Prose of made-up words, different for every (space, page): no two spaces share a blob. */
function prose(seed: number, words: number): string {
  let state = seed;
  const out: string[] = [];
  for (let i = 0; i < words; i += 1) {
    state = (state * 48271) % 2147483647;
    out.push(['lorem', 'quire', 'branch', 'page', 'tree', 'commit', 'delta', 'pack', 'index', 'space'][state % 10]! + (state % 97).toString(36));
  }
  return `${out.join(' ')}.`;
}

/** ~1,000 pages in the Git Sync layout (100 sections of a README and 9 pages, SUMMARY.md; `sections` for more), written as a work tree. */
export function writePages(workTree: string, space: number, sections = 100): void {
  const entries: SummaryEntry[] = [];
  for (let section = 0; section < sections; section += 1) {
    mkdirSync(path.join(workTree, `part-${section}`), { recursive: true });
    const children: SummaryEntry[] = [];
    for (let page = 0; page < 9; page += 1) {
      const file = `part-${section}/topic-${page}.md`;
      const seed = space * 100_000 + section * 10 + page + 1;
      writeFileSync(
        path.join(workTree, file),
        renderPageFile({ meta: { description: `Topic ${section}.${page}` }, body: `# Topic ${section}.${page}\n\n${prose(seed, 150)}\n\n## More\n\n${prose(seed + 7, 150)}\n` }),
      );
      children.push({ title: `Topic ${section}.${page}`, target: file, children: [] });
    }
    const readme = `part-${section}/README.md`;
    writeFileSync(path.join(workTree, readme), `# Part ${section}\n\n${prose(space * 100_000 + section, 100)}\n`);
    entries.push({ title: `Part ${section}`, target: readme, children });
  }
  writeFileSync(path.join(workTree, 'SUMMARY.md'), renderSummary([{ title: null, entries }]));
}

/** Clones the space's repository, commits the pages with git and pushes them back: one pack, or unpacked loose. */
function pushPages(dataDir: string, spaceId: string, space: number, kind: 'packed' | 'loose', scratch: string): void {
  const gitdir = spaceGitdir(dataDir, spaceId);
  // git keeps a pushed pack of 100 objects or more as it is; a high limit unpacks it loose instead.
  git(gitdir, 'config', 'receive.unpackLimit', kind === 'packed' ? '100' : '1000000');
  const workTree = path.join(scratch, spaceId);
  execFileSync('git', ['clone', '--quiet', gitdir, workTree], { stdio: 'ignore' });
  writePages(workTree, space);
  git(workTree, 'add', '-A');
  git(workTree, '-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '--quiet', '-m', 'Pages pushed with git');
  git(workTree, 'push', '--quiet', 'origin', 'HEAD:main');
  const packs = readdirSync(path.join(gitdir, 'objects', 'pack')).filter((name) => name.endsWith('.pack')).length;
  if ((kind === 'packed') !== (packs === 1)) throw new Error(`${kind} space ${spaceId} has ${packs} packs`);
}

async function timedGet(url: string, auth: Record<string, string>): Promise<number> {
  const started = process.hrtime.bigint();
  const response = await fetch(url, { headers: auth });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const spread = (samples: number[]) => `${fmt(median(samples), 0)} (min ${fmt(Math.min(...samples), 0)}, max ${fmt(Math.max(...samples), 0)})`;

export async function benchPacked(): Promise<Record<string, string>> {
  buildQuire();
  const TEMPORAL_ADDRESS = await sharedTemporalAddress();
  const figures: Record<string, string> = {};
  const dataDir = tempDataDir();
  const scratch = mkdtempSync(path.join(dataDir, 'work-'));
  const { organizationId, token } = await seedOrganization(dataDir, 1);
  const auth = { authorization: `Bearer ${token}` };
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS };
  let server: Spawned = await spawnQuire(env);
  const create = async (title: string) => {
    const response = await fetch(`${server.url}/v1/orgs/${organizationId}/spaces`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title, empty: true }),
    });
    if (response.status !== 201) throw new Error(`creating a space answered ${response.status}`);
    return ((await response.json()) as { id: string }).id;
  };
  const spaces = { packed: [] as string[], loose: [] as string[] };
  const warmup = await create('Already served');
  for (let i = 0; i < spacesPerKind; i += 1) {
    for (const kind of ['packed', 'loose'] as const) {
      const id = await create(`${kind} ${i}`);
      pushPages(dataDir, id, spaces.packed.length + spaces.loose.length + 1, kind, scratch);
      spaces[kind].push(id);
    }
  }
  rmSync(scratch, { recursive: true, force: true });

  // A new process that already serves another space, then each space's first read, the kinds alternating.
  await server.stop();
  server = await spawnQuire(env);
  await timedGet(`${server.url}/v1/spaces/${warmup}/content`, auth);
  const first = { packed: [] as number[], loose: [] as number[] };
  for (let i = 0; i < spacesPerKind; i += 1) {
    for (const kind of ['packed', 'loose'] as const) first[kind].push(await timedGet(`${server.url}/v1/spaces/${spaces[kind][i]}/content`, auth));
  }
  figures['first GET content of a space pushed as one pack (1,000 pages): median ms (target ≤ 150)'] = spread(first.packed);
  figures['… the same, pushed objects unpacked loose: median ms (target ≤ 150)'] = spread(first.loose);
  await server.stop();

  for (const kind of ['packed', 'loose'] as const) {
    for (const worker of ['on', 'off']) {
      server = await spawnQuire({ ...env, QUIRE_WORKER: worker });
      for (const id of spaces[kind]) await timedGet(`${server.url}/v1/spaces/${id}/content`, auth);
      figures[`server RSS after reading the 10 ${kind} spaces, worker ${worker}: MB${worker === 'on' ? ' (target ≤ 300)' : ''}`] = fmt(rssMb(server.child.pid!), 0);
      await server.stop();
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
  return figures;
}
