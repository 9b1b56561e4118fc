// Issue 12's PDF figures: a change request of 50 and of 200 pages, from GET .../pdf to the PDF
// served; and the memory of the server process (its worker renders) with Chromium open.
// Runs the built server (dist/) with its worker, as `npm start` does.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { call, writePages, type Api } from './jobSpaces.js';
import { buildQuire, fmt, sharedTemporalAddress, spawnQuire, tempDataDir } from './lib.js';
import { seedOrganization } from './seed.js';

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** The RSS of a process and all its descendants (Chromium's processes), MB. */
function treeRssMb(pid: number): number {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const tree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [child, parent] of rows) {
      if (tree.has(parent) && !tree.has(child)) {
        tree.add(child);
        grew = true;
      }
    }
  }
  let total = 0;
  for (const member of tree) {
    try {
      total += rssMb(member);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

export async function benchPdf(): Promise<Record<string, string>> {
  buildQuire();
  const figures: Record<string, string> = {};
  const dataDir = tempDataDir();
  const { organizationId, token } = await seedOrganization(dataDir, 1);
  const server = await spawnQuire({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS: await sharedTemporalAddress(), QUIRE_TASK_QUEUE: `bench-${randomUUID()}` });
  const api: Api = { url: server.url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } };
  try {
    const idle = rssMb(server.child.pid!);
    for (const pages of [50, 200]) {
      const space = await call<{ id: string }>(api, 'POST', `/orgs/${organizationId}/spaces`, { title: `Manual ${pages}` });
      const changeRequest = await call<{ id: string }>(api, 'POST', `/spaces/${space.id}/change-requests`, { subject: `${pages} pages` });
      await writePages(api, space.id, changeRequest.id, pages);
      const started = performance.now();
      const { url } = await call<{ url: string }>(api, 'GET', `/spaces/${space.id}/change-requests/${changeRequest.id}/pdf`);
      let peak = 0;
      let bytes = 0;
      for (;;) {
        peak = Math.max(peak, treeRssMb(server.child.pid!));
        const response = await fetch(url);
        if (response.status === 200) {
          bytes = (await response.arrayBuffer()).byteLength;
          break;
        }
        await response.arrayBuffer();
        if (response.status !== 503) throw new Error(`the PDF answered ${response.status}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      figures[`${pages}-page change request: ms from GET .../pdf to the PDF served (target ≤ ${pages === 50 ? 10000 : 30000})`] = fmt(performance.now() - started, 0);
      figures[`… ${pages} pages: PDF size MB; peak RSS of the server, worker and Chromium, MB`] = `${fmt(bytes / 1e6)}; ${fmt(peak, 0)}`;
    }
    figures['server process RSS before any export, MB'] = fmt(idle, 0);
    figures['server process and Chromium RSS after the exports (browser kept open), MB'] = fmt(treeRssMb(server.child.pid!), 0);
  } finally {
    await server.stop();
  }
  return figures;
}
