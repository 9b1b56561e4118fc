// Issue 21's cache figure: pages read round-robin from ten 10,000-page spaces, with the content
// caches' hit rate and the server's resident memory (target ≤ 400 MB), at the default budget and
// at a larger one; and one 10,000-page space read over and over, which must not thrash.
import { buildQuire, fmt, median, sharedTemporalAddress, spawnQuire, tempDataDir } from './lib.js';
import { pageNumber, writePages } from './changeRequests.js';
import { seedOrganization } from './seed.js';
import { get as getBytes } from './content.js';

const get = async (url: string, auth: Record<string, string>) => (await getBytes(url, auth)).toString('utf8');

const metricOf = (metrics: string, name: string) => Number(new RegExp(`^${name.replace(/[{}"]/g, (c) => `\\${c}`)} (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN);
const mb = (bytes: number) => fmt(bytes / 1024 / 1024, 0);

export async function benchCache(): Promise<Record<string, string>> {
  buildQuire();
  const figures: Record<string, string> = {};
  const dataDir = tempDataDir();
  const { organizationId, token } = await seedOrganization(dataDir, 1);
  const auth = { authorization: `Bearer ${token}` };
  const TEMPORAL_ADDRESS = await sharedTemporalAddress();
  const spaces: string[] = [];
  {
    const server = await spawnQuire({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS });
    for (let i = 0; i < 10; i += 1) {
      const response = await fetch(`${server.url}/v1/orgs/${organizationId}/spaces`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Space ${i}`, empty: true }),
      });
      const space = (await response.json()) as { id: string };
      await writePages(dataDir, space.id, 10_000, `In space ${i}. `);
      spaces.push(space.id);
    }
    await server.stop();
  }

  /** Three rounds over `order`, 20 pages of each space a round, on a server started afresh. */
  const rounds = async (label: string, order: string[], env: Record<string, string> = {}) => {
    const server = await spawnQuire({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS, ...env });
    try {
      const metrics = () => get(`${server.url}/metrics`, {});
      const reads: number[][] = [];
      let before = await metrics();
      let after = before;
      for (let round = 0; round < 3; round += 1) {
        if (round === 1) before = await metrics(); // the first round fills the caches
        const times: number[] = [];
        for (const [index, spaceId] of order.entries()) {
          for (let i = 0; i < 20; i += 1) {
            const started = performance.now();
            await get(`${server.url}/v1/spaces/${spaceId}/content/page/p${pageNumber((round * 7919 + index * 131 + i * 449) % 9000)}`, auth);
            times.push(performance.now() - started);
          }
        }
        reads.push(times);
      }
      after = await metrics();
      const lookups = (metrics: string, cache: string, result: string) => metricOf(metrics, `quire_cache_lookups_total{cache="${cache}",result="${result}"}`) || 0;
      const rate = (cache: string) => {
        const hits = lookups(after, cache, 'hit') - lookups(before, cache, 'hit');
        const misses = lookups(after, cache, 'miss') - lookups(before, cache, 'miss');
        return `${cache} ${hits + misses ? fmt((100 * hits) / (hits + misses), 1) : '–'} % of ${hits + misses}`;
      };
      figures[`${label}: cache hit rates after the first round (budget ${mb(metricOf(after, 'quire_cache_budget_bytes'))} MB)`] = ['presented revisions', 'revisions', 'page files', 'trees']
        .map(rate)
        .join('; ');
      figures[`${label}: page read median / p95 / max ms, rounds 1, 2, 3`] = reads
        .map((times) => `${fmt(median(times))} / ${fmt([...times].sort((a, b) => a - b)[Math.floor(times.length * 0.95)]!)} / ${fmt(Math.max(...times))}`)
        .join(', ');
      figures[`${label}: resident memory after the rounds, MB (target ≤ 400); cache holds; JS heap in use; buffers`] = [
        'quire_process_resident_bytes',
        'quire_cache_bytes',
        'quire_heap_used_bytes',
        'quire_external_bytes',
      ]
        .map((name) => mb(metricOf(after, name)))
        .join('; ');
    } finally {
      await server.stop();
    }
  };
  await rounds('one 10,000-page space', [spaces[0]!]);
  await rounds('ten 10,000-page spaces round-robin', spaces);
  await rounds('ten 10,000-page spaces round-robin, QUIRE_CACHE_MB=192', spaces, { QUIRE_CACHE_MB: '192' });
  return figures;
}
