// Issue 21's re-indexing figure: page reads of one space while one-page commits land on a
// 10,000-page space, whose search index Quire brings to each new head. The reads' p99 during the
// commits against their p99 without (target ≤ 2×).
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { writePages } from './changeRequests.js';
import { fmt, median, quireWithOrganization } from './lib.js';

const percentile = (samples: number[], share: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * share))]!;

/** `clients` loops of GET `url` until `done()`; each request's milliseconds. */
async function readLoops(url: string, headers: Record<string, string>, clients: number, done: () => boolean): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const samples: number[] = [];
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const started = performance.now();
      http
        .get(url, { agent, headers }, (response) => {
          response.resume();
          response.on('end', () => {
            if (response.statusCode !== 200) reject(new Error(`${url} answered ${response.statusCode}`));
            samples.push(performance.now() - started);
            resolve();
          });
        })
        .on('error', reject);
    });
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!done()) await once();
    }),
  );
  agent.destroy();
  return samples;
}

export async function benchSearchRefresh(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  const { dataDir, organizationId, token, server, api } = await quireWithOrganization();
  const auth = { authorization: `Bearer ${token}` };
  const spaceWith = async (title: string, pages: number) => {
    const space = await api('POST', `/orgs/${organizationId}/spaces`, { title, empty: true });
    await writePages(dataDir, space.id, pages);
    return space.id as string;
  };
  // On connections of their own: one kept alive across a long write could be closed by the server
  // just as it is reused.
  const getJson = (route: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) =>
      http
        .get(`${server.url}/v1${route}`, { headers: auth, agent: false }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => (response.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))) : reject(new Error(`GET ${route}: ${response.statusCode}`))));
        })
        .on('error', reject),
    );
  try {
    const read = await spaceWith('Read', 1000);
    const large = await spaceWith('Searched', 10_000);
    const pageUrl = `${server.url}/v1/spaces/${read}/content/page/p1`;
    const search = async (word: string) => ((await getJson(`/spaces/${large}/search?query=${word}`)).items as unknown[]).length;
    const indexStarted = performance.now();
    await search('explains');
    figures['first index of the 10,000-page space (through a search): ms'] = fmt(performance.now() - indexStarted, 0);

    const seconds = 8;
    await readLoops(
      pageUrl,
      auth,
      2,
      (
        (end) => () =>
          performance.now() > end
      )(performance.now() + 1000),
    ); // warm-up
    const quietEnd = performance.now() + seconds * 1000;
    const quiet = await readLoops(pageUrl, auth, 2, () => performance.now() > quietEnd);

    // One-page commits to the large space's primary branch (as the worker makes them: a Git Sync
    // import, a translation), each followed by a search that must find it: from a process of
    // their own (searchRefreshWriter.ts), so their work never delays this one's timing of the reads.
    const writer = fork(fileURLToPath(new URL('./searchRefreshWriter.ts', import.meta.url)), [dataDir, large, server.url, token], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const written = new Promise<{ commits: number; searches: number[] }>((resolve, reject) => {
      writer.on('message', (message) => message !== 'ready' && resolve(message as { commits: number; searches: number[] }));
      writer.once('exit', (code) => reject(new Error(`the writer exited with ${code} before reporting`)));
    });
    await new Promise<void>((resolve, reject) => {
      writer.once('message', () => resolve());
      writer.once('exit', (code) => reject(new Error(`the writer exited with ${code} before it started`)));
    });
    const busyEnd = performance.now() + seconds * 1000;
    const busy = await readLoops(pageUrl, auth, 2, () => performance.now() > busyEnd);
    writer.send('stop');
    const { commits, searches } = await written;

    figures['page reads (2 clients) without commits: p50 / p99 ms'] = `${fmt(median(quiet))} / ${fmt(percentile(quiet, 0.99))} (n=${quiet.length})`;
    figures[`page reads while ${commits} one-page commits land on a 10,000-page space, each searched for: p50 / p99 ms`] = `${fmt(median(busy))} / ${fmt(percentile(busy, 0.99))} (n=${busy.length})`;
    figures['… p99 during the commits / p99 without (target ≤ 2)'] = fmt(percentile(busy, 0.99) / percentile(quiet, 0.99), 2);
    figures['search right after a one-page commit (re-index included): median ms'] = fmt(median(searches));
  } finally {
    await server.stop();
  }
  return figures;
}
