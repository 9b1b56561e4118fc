// The foundation issue's figures: member listing latency, authenticated throughput against bare
// Koa, and cold start. Runs the built server (dist/) as its own process, as `npm start` does.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildQuire, fmt, latency, root, sharedTemporalAddress, spawnQuire, spawnServer, tempDataDir, throughput } from './lib.js';
import { seedOrganization } from './seed.js';

export async function benchFoundation(): Promise<Record<string, string>> {
  buildQuire();
  const TEMPORAL_ADDRESS = await sharedTemporalAddress();
  const figures: Record<string, string> = {};

  const dataDir = tempDataDir();
  const { organizationId, token } = await seedOrganization(dataDir, 10_000);
  const quire = await spawnQuire({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS });
  const auth = { authorization: `Bearer ${token}` };
  // The baseline answers with the very document Quire answers, so both write the same bytes.
  const organizationBody = path.join(dataDir, 'organization.json');
  writeFileSync(organizationBody, await (await fetch(`${quire.url}/v1/orgs/${organizationId}`, { headers: auth })).text());
  const bare = await spawnServer(['--import', 'tsx', path.join(root, 'bench/servers/bareKoa.ts'), organizationBody]);
  const bareSmall = await spawnServer(['--import', 'tsx', path.join(root, 'bench/servers/bareKoa.ts')]);
  try {
    const members = await latency(`${quire.url}/v1/orgs/${organizationId}/members?limit=100`, auth, 300);
    figures['members?limit=100 of 10,000: median ms (target ≤ 5)'] = fmt(members.median);
    figures['members?limit=100 of 10,000: p95 ms'] = fmt(members.p95);

    await throughput(`${quire.url}/v1/orgs/${organizationId}`, auth, 2); // warm-up
    await throughput(bare.url, {}, 2);
    const bareRps = await throughput(bare.url, {}, 10);
    const quireRps = await throughput(`${quire.url}/v1/orgs/${organizationId}`, auth, 10);
    const bareSmallRps = await throughput(bareSmall.url, {}, 10);
    figures['bare Koa JSON route, same organization body: req/s'] = fmt(bareRps, 0);
    figures['authenticated GET /v1/orgs/{id}: req/s'] = fmt(quireRps, 0);
    figures['… as % of bare Koa with the same body (target ≥ 50)'] = fmt((quireRps / bareRps) * 100, 1);
    figures['bare Koa JSON route, 60-byte body: req/s'] = fmt(bareSmallRps, 0);
    figures['… as % of bare Koa with a 60-byte body'] = fmt((quireRps / bareSmallRps) * 100, 1);
  } finally {
    await Promise.all([quire.stop(), bare.stop(), bareSmall.stop()]);
  }

  const starts: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const started = Date.now();
    const server = await spawnQuire({ DATA_DIR: tempDataDir(), PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS });
    const response = await fetch(`${server.url}/v1/`);
    if (!response.ok) throw new Error(`cold start: GET /v1/ answered ${response.status}`);
    starts.push(Date.now() - started);
    await server.stop();
  }
  starts.sort((a, b) => a - b);
  figures['cold start to ready, fresh DATA_DIR: median ms (target ≤ 1500)'] = fmt(starts[2]!, 0);
  return figures;
}
