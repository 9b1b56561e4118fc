// The docs-sites figures of issue 13: the published profile of a site of 20 sections × 10 site
// spaces, and moving a section among 200 siblings. Runs the built server (dist/) as its own
// process; the site is built through the API.
import { buildQuire, fmt, latency, median, sharedTemporalAddress, spawnQuire, tempDataDir } from './lib.js';
import { seedOrganization } from './seed.js';

export async function benchSites(): Promise<Record<string, string>> {
  buildQuire();
  const TEMPORAL_ADDRESS = await sharedTemporalAddress();
  const figures: Record<string, string> = {};
  const dataDir = tempDataDir();
  const { organizationId, token } = await seedOrganization(dataDir, 1);
  const server = await spawnQuire({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS, QUIRE_ACCESS_LOG: 'off' });
  const headers = { authorization: `Bearer ${token}` };
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${server.url}/v1${url}`, { method, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<{ id: string }>;
  };
  try {
    // 20 sections × 10 site spaces, over 200 spaces of their own (each a git repository).
    const spaces: string[] = [];
    for (let i = 0; i < 200; i += 1) spaces.push((await call('POST', `/orgs/${organizationId}/spaces`, { title: `Space ${i}` })).id);
    const site = (await call('POST', `/orgs/${organizationId}/sites`, { title: 'Large site' })).id;
    const sites = `/orgs/${organizationId}/sites/${site}`;
    for (let s = 0; s < 20; s += 1) {
      const section = (await call('POST', `${sites}/sections`, { spaceId: spaces[s * 10]!, title: `Section ${s}` })).id;
      for (let v = 1; v < 10; v += 1) await call('POST', `${sites}/site-spaces`, { spaceId: spaces[s * 10 + v]!, sectionId: section });
    }
    await call('POST', `${sites}/publish`);
    const published = await latency(`${server.url}/v1${sites}/published`, headers, 200);
    figures['GET .../published, 20 sections × 10 site spaces: median ms (target ≤ 10)'] = fmt(published.median);
    figures['… p95 ms'] = fmt(published.p95);

    // 200 sibling sections on another site; each move lands between two neighbours in the middle.
    const crowded = (await call('POST', `/orgs/${organizationId}/sites`, { title: 'Crowded site' })).id;
    const crowdedPath = `/orgs/${organizationId}/sites/${crowded}`;
    const sections: string[] = [];
    for (let s = 0; s < 200; s += 1) sections.push((await call('POST', `${crowdedPath}/sections`, { spaceId: spaces[s]!, title: `Sibling ${s}` })).id);
    const moves: number[] = [];
    for (let i = 0; i < 220; i += 1) {
      const mover = sections[i % 2]!;
      const anchor = sections[100 + (i % 50)]!;
      const started = process.hrtime.bigint();
      await call('POST', `${crowdedPath}/sections/${mover}/move`, { position: { before: { type: 'site-section', siteSection: anchor } } });
      if (i >= 20) moves.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    figures['POST .../sections/{id}/move among 200 siblings: median ms (target ≤ 10)'] = fmt(median(moves));
  } finally {
    await server.stop();
  }
  return figures;
}
