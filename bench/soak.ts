// Issue 27's soak: reads, edits, merges, comments, searches and conversation posts mixed, from eight
// clients at once, for QUIRE_SOAK_MINUTES (10) against the built server. Reports every operation's
// p99, any error, and the server's memory over time (it should stay flat).
import { readFileSync } from 'node:fs';
import { buildQuire, fmt, sharedTemporalAddress, spawnQuire, tempDataDir } from './lib.js';
import { seedOrganization } from './seed.js';

const minutes = Number(process.env.QUIRE_SOAK_MINUTES ?? 10);
const clients = 8;

/** Resident memory of a process, in MB: all of it, or one of the kernel's parts (`RssAnon`: the heaps; `RssFile`: mapped files, SQLite's read map among them). */
const residentMb = (pid: number, part: 'VmRSS' | 'RssAnon' | 'RssFile' = 'VmRSS') => Number(new RegExp(`${part}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

export async function benchSoak(): Promise<Record<string, string>> {
  buildQuire();
  const TEMPORAL_ADDRESS = await sharedTemporalAddress();
  const dataDir = tempDataDir();
  const { organizationId, token } = await seedOrganization(dataDir, 1);
  const server = await spawnQuire({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS });
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`);
    return (text ? JSON.parse(text) : {}) as Record<string, unknown> & { id: string };
  };
  const figures: Record<string, string> = {};
  // The server's own error lines: what a 500 was.
  const serverErrors: string[] = [];
  server.child.stderr!.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.includes('"level":"error"')) serverErrors.push(line.slice(0, 1500));
  });
  try {
    const space = await call('POST', `/orgs/${organizationId}/spaces`, { title: 'Soaked', template: { id: 'getting-started' } });
    const pages = ((await call('GET', `/spaces/${space.id}/content/pages`)).pages as Array<{ id: string }>).map((page) => page.id);
    let edits = 0;
    const operations: Record<string, () => Promise<unknown>> = {
      read: () => call('GET', `/spaces/${space.id}/content/page/${pages[Math.floor(Math.random() * pages.length)]}?format=document`),
      search: () => call('GET', `/orgs/${organizationId}/search?query=${['install', 'configure', 'guide', 'page'][Math.floor(Math.random() * 4)]}`),
      comment: () => call('POST', `/spaces/${space.id}/comments`, { body: { markdown: `A remark on **this** at ${Date.now()}, see [the guide](https://example.com).` } }),
      conversation: () =>
        call('POST', `/orgs/${organizationId}/conversations`, {
          id: `soak-${Math.random()}`,
          parts: [{ type: 'message', role: 'user', body: 'How do I export my space as a PDF? Mail me at someone@example.com.' }],
        }),
      'edit and merge': async () => {
        edits += 1;
        const changeRequest = await call('POST', `/spaces/${space.id}/change-requests`, { subject: `Edit ${edits}` });
        const base = `/spaces/${space.id}/change-requests/${changeRequest.id}`;
        // An edit of one of the pages there are: the space keeps its size, so memory can be compared over the run.
        const page = pages[edits % pages.length];
        await call('POST', `${base}/content`, { changes: [{ operation: 'update_page', page, document: { markdown: `Edit ${edits} of the soak.\n\n- a list\n- of **things**\n` } }] });
        await call('POST', `${base}/merge`);
      },
    };
    // How often each is picked: mostly reads, as docs are.
    const weights: Array<[string, number]> = [
      ['read', 50],
      ['search', 15],
      ['comment', 15],
      ['conversation', 10],
      ['edit and merge', 10],
    ];
    const pick = () => {
      let roll = Math.random() * 100;
      for (const [name, weight] of weights) if ((roll -= weight) < 0) return name;
      return 'read';
    };
    const latencies = new Map<string, number[]>(weights.map(([name]) => [name, []]));
    const errors: string[] = [];
    const memory: number[] = [residentMb(server.child.pid!)];
    const anonymous: number[] = [residentMb(server.child.pid!, 'RssAnon')];
    const mappedFiles: number[] = [residentMb(server.child.pid!, 'RssFile')];
    const heap: number[] = [];
    const cached: number[] = [];
    const sample = async () => {
      memory.push(residentMb(server.child.pid!));
      anonymous.push(residentMb(server.child.pid!, 'RssAnon'));
      mappedFiles.push(residentMb(server.child.pid!, 'RssFile'));
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      heap.push(Number(/^quire_heap_used_bytes (\d+)$/m.exec(metrics)?.[1]) / 1024 / 1024);
      cached.push(Number(/^quire_cache_bytes (\d+)$/m.exec(metrics)?.[1]) / 1024 / 1024);
    };
    const sampler = setInterval(() => void sample(), 10_000);
    const until = Date.now() + minutes * 60_000;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (Date.now() < until) {
          const name = pick();
          const started = performance.now();
          try {
            await operations[name]!();
            latencies.get(name)!.push(performance.now() - started);
          } catch (error) {
            errors.push(`${name}: ${(error as Error).message}`);
          }
        }
      }),
    );
    clearInterval(sampler);
    memory.push(residentMb(server.child.pid!));
    const all = [...latencies.values()].flat();
    figures[`operations in ${minutes} min from ${clients} clients: count (per second)`] = `${all.length} (${fmt(all.length / (minutes * 60), 1)})`;
    for (const [name, samples] of latencies) {
      samples.sort((a, b) => a - b);
      figures[`${name}: n, median ms, p99 ms`] = samples.length ? `${samples.length}, ${fmt(samples[Math.floor(samples.length / 2)]!)}, ${fmt(samples[Math.floor(samples.length * 0.99)]!)}` : '0';
    }
    figures['server error lines'] = serverErrors.length
      ? `${serverErrors.length}: ${[...new Set(serverErrors.map((line) => line.replace(/"time":"[^"]+",|"requestId":"[^"]+",/g, '')))].slice(0, 3).join(' | ')}`
      : '0';
    figures['errors'] = errors.length ? `${errors.length}: ${[...new Set(errors)].slice(0, 5).join(' | ')}` : '0';
    const tenth = Math.max(1, Math.floor(memory.length / 10));
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    figures['server resident memory, MB, every 10 s'] = memory.map((mb) => fmt(mb, 0)).join(' ');
    figures['… of which anonymous (heaps), MB, every 10 s'] = anonymous.map((mb) => fmt(mb, 0)).join(' ');
    figures['… of which mapped files (code, SQLite read map), MB, every 10 s'] = mappedFiles.map((mb) => fmt(mb, 0)).join(' ');
    figures['server JavaScript heap in use, MB, every 10 s'] = heap.map((mb) => fmt(mb, 0)).join(' ');
    figures['… of which the content caches, as weighed (budget QUIRE_CACHE_MB), MB, every 10 s'] = cached.map((mb) => fmt(mb, 0)).join(' ');
    figures['server resident memory, MB: first tenth of the run, last tenth, peak'] = `${fmt(mean(memory.slice(0, tenth)), 0)}, ${fmt(mean(memory.slice(-tenth)), 0)}, ${fmt(Math.max(...memory), 0)}`;
  } finally {
    await server.stop();
  }
  return figures;
}
