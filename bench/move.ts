// Moving a space between storages: node A keeps s1, node B keeps s2, each with its worker, over a
// throwaway PostgreSQL; `npm run admin -- space move` (the built one) moves spaces of 100 and 1,000
// pages from s1 to s2 while nothing else runs. The time includes the command's own start and the
// Temporal job's hops; the source keeps answering reads meanwhile (tested in test/process/storageNodes).
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { startPostgresCluster } from '../scripts/postgresCluster.js';
import { writePages } from './changeRequests.js';
import { buildQuire, fmt, median, root, sharedTemporalAddress, spawnQuire, tempDataDir } from './lib.js';
import { seedOrganization } from './seed.js';

export async function benchMove(): Promise<Record<string, string>> {
  buildQuire();
  const figures: Record<string, string> = {};
  const cluster = await startPostgresCluster();
  try {
    await cluster.createDatabase('quire_bench_move');
    const databaseUrl = cluster.url('quire_bench_move');
    const { organizationId, token } = await seedOrganization(tempDataDir(), 1, databaseUrl);
    const temporal = { TEMPORAL_ADDRESS: await sharedTemporalAddress(), QUIRE_TASK_QUEUE: `bench-move-${randomUUID()}` };
    const env = { PORT: '0', HOST: '127.0.0.1', QUIRE_DATABASE_URL: databaseUrl, ...temporal };
    const dataDirs = { s1: tempDataDir(), s2: tempDataDir() };
    const a = await spawnQuire({ ...env, DATA_DIR: dataDirs.s1, QUIRE_STORAGE: 's1' });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    try {
      // Made before B starts, so both land on s1.
      const spaces: Record<number, string> = {};
      for (const pages of [100, 1000]) {
        const made = (await (await fetch(`${a.url}/v1/orgs/${organizationId}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: `${pages} pages`, empty: true }) })).json()) as {
          id: string;
        };
        await writePages(dataDirs.s1, made.id, pages);
        spaces[pages] = made.id;
      }
      const b = await spawnQuire({ ...env, DATA_DIR: dataDirs.s2, QUIRE_STORAGE: 's2' });
      try {
        const bare = performance.now();
        spawnSync(process.execPath, [path.join(root, 'dist/api/cli/admin.js')], { stdio: 'pipe' }); // its usage, exit 2
        figures['the admin command alone (starts, prints its usage), for comparison: ms'] = fmt(performance.now() - bare, 0);
        for (const pages of [100, 1000]) {
          const samples: number[] = [];
          for (let round = 0; round < 3; round += 1) {
            const to = round % 2 === 0 ? 's2' : 's1';
            const started = performance.now();
            execFileSync(process.execPath, [path.join(root, 'dist/api/cli/admin.js'), 'space', 'move', spaces[pages]!, '--to', to, '--release-after', '1s'], {
              env: { ...process.env, ...temporal, QUIRE_DATABASE_URL: databaseUrl, DATA_DIR: tempDataDir() },
              stdio: 'pipe',
            });
            samples.push(performance.now() - started);
          }
          figures[`move a ${fmt(pages, 0)}-page space between storages (admin command, its start included): median (min–max) ms`] =
            `${fmt(median(samples), 0)} (${fmt(Math.min(...samples), 0)}–${fmt(Math.max(...samples), 0)}, n=3)`;
        }
      } finally {
        await b.stop();
      }
    } finally {
      await a.stop();
    }
  } finally {
    await cluster.stop();
  }
  return figures;
}
