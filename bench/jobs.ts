// The Temporal issue's figures: how much starting a job adds to a request, and `npm start` to
// ready with the local dev server (the CLI already built). Runs the built server, as `npm start` does.
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { JobClient } from '../workflows/client.js';

import { buildQuire, fmt, median, sharedTemporalAddress, spawnQuire, spread, tempDataDir } from './lib.js';
import { seedOrganization } from './seed.js';

const spaces = 150;

async function timed(work: () => Promise<Response>): Promise<number> {
  const started = process.hrtime.bigint();
  const response = await work();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export async function benchJobs(): Promise<Record<string, string>> {
  buildQuire();
  const figures: Record<string, string> = {};
  const TEMPORAL_ADDRESS = await sharedTemporalAddress();
  const dataDir = tempDataDir();
  const { organizationId, token } = await seedOrganization(dataDir, 1);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const server = await spawnQuire({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS, QUIRE_TASK_QUEUE: `bench-${randomUUID()}` });
  try {
    const ids: string[] = [];
    for (let i = 0; i < spaces; i += 1) {
      const response = await fetch(`${server.url}/v1/orgs/${organizationId}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: `Bench ${i}` }) });
      ids.push(((await response.json()) as { id: string }).id);
    }
    // The same space row written without a job (a rename), then put in the bin with its job started.
    const renames: number[] = [];
    const deletes: number[] = [];
    for (const [i, id] of ids.entries()) {
      renames.push(await timed(() => fetch(`${server.url}/v1/spaces/${id}`, { method: 'PATCH', headers, body: JSON.stringify({ title: `Renamed ${i}` }) })));
      deletes.push(await timed(() => fetch(`${server.url}/v1/spaces/${id}`, { method: 'DELETE', headers })));
    }
    const warm = (samples: number[]) => samples.slice(20);
    figures[`PATCH /spaces/{id} (a write without a job): median ms, ${spaces - 20} requests`] = fmt(median(warm(renames)));
    figures['DELETE /spaces/{id} (the write plus starting space-deletion:<id>): median ms'] = fmt(median(warm(deletes)));
    figures['… added by starting the job: median ms (target ≤ 50)'] = fmt(median(warm(deletes)) - median(warm(renames)));

    // The job start alone, from a client of its own: what the request waits on Temporal for.
    const jobs = new JobClient({ address: TEMPORAL_ADDRESS, namespace: 'default', taskQueue: `bench-idle-${randomUUID()}` });
    const starts: number[] = [];
    for (let i = 0; i < 120; i += 1) {
      const started = process.hrtime.bigint();
      await jobs.startSpaceDeletion({ spaceId: `bench-${randomUUID()}`, deletedAt: new Date().toISOString(), retentionMs: 86_400_000 });
      if (i >= 20) starts.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    await jobs.close();
    figures['starting a workflow alone (client to dev server): median ms'] = fmt(median(starts));
  } finally {
    await server.stop();
  }

  // `npm start` to ready: the built server launching its own dev server over a fresh DATA_DIR.
  const ready: number[] = [];
  const stops: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const started = Date.now();
    const env = { DATA_DIR: tempDataDir(), PORT: '0', HOST: '127.0.0.1', QUIRE_TEMPORAL_PORT: '0', QUIRE_TEMPORAL_UI_PORT: '0' };
    const service = await spawnQuire(env);
    const response = await fetch(`${service.url}/v1/`);
    const body = (await response.json()) as { jobs: { status: string } };
    if (body.jobs.status !== 'up') throw new Error('ready, but the job service is not up');
    ready.push(Date.now() - started);
    const stopping = Date.now();
    await service.stop();
    stops.push(Date.now() - stopping);
  }
  figures['npm start to ready, launching the local dev server: median ms (target ≤ 10000)'] = fmt(median(ready), 0);
  figures['… slowest of 5: ms'] = fmt(Math.max(...ready), 0);
  figures['SIGTERM to exit (API, worker and its dev server stopped): median ms (target ≤ 5000)'] = spread(stops, 0);

  // Temporal unreachable (a port held here that drops every connection): how soon a delete gives
  // up with its 503 — the first waits out the tries, later ones know Temporal just failed.
  const refusing = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  const downDir = tempDataDir();
  const down = await seedOrganization(downDir, 1);
  const downHeaders = { authorization: `Bearer ${down.token}`, 'content-type': 'application/json' };
  const cut = await spawnQuire({ DATA_DIR: downDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS: `127.0.0.1:${(refusing.address() as AddressInfo).port}` });
  try {
    const refusals: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const space = (await (await fetch(`${cut.url}/v1/orgs/${down.organizationId}/spaces`, { method: 'POST', headers: downHeaders, body: JSON.stringify({ title: `Stays ${i}` }) })).json()) as {
        id: string;
      };
      const started = process.hrtime.bigint();
      const response = await fetch(`${cut.url}/v1/spaces/${space.id}`, { method: 'DELETE', headers: downHeaders });
      await response.arrayBuffer();
      if (response.status !== 503) throw new Error(`DELETE with Temporal unreachable answered ${response.status}`);
      refusals.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    figures['DELETE with Temporal unreachable, until its 503: first ms'] = fmt(refusals[0]!, 0);
    figures['… the next 9: median (min–max) ms'] = spread(refusals.slice(1));
  } finally {
    await cut.stop();
    await new Promise((resolve) => refusing.close(resolve));
  }
  return figures;
}
