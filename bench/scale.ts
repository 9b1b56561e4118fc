// The scale-out issue's figures (issue 25), as far as it is built: SQLite against PostgreSQL on one
// node, and storage nodes (a request routed one hop, a commit each way). Through the built server (dist/): page GET, space GET and search req/s and latencies, a
// metadata write's latency, the server's memory. In this process, on the storage layer: transactions
// racing for one row (retries on PostgreSQL), the time another process's commit takes to reach a read
// cache, search over 1,000 spaces × 100 pages (latency, index size), 100,000 spaces' metadata, and
// the lists a PostgreSQL plan audit found slow: members, comments, change requests (listsAtScale).
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { startPostgresCluster, type PostgresCluster } from '../scripts/postgresCluster.js';
import { openDatabase, type Database } from '../storage/db.js';
import { corpusCounts, countIssueInCorpus } from '../storage/issueClusters.js';
import { addContributor, insertChangeRequest, listChangeRequests } from '../storage/changeRequests.js';
import { insertComment, listComments } from '../storage/comments.js';
import { ensureMembership, listMembers } from '../storage/members.js';
import { insertOrganization } from '../storage/organizations.js';
import { transactionStats } from '../storage/postgres.js';
import { searchIndexBytes, searchSections, updateSpaceIndex, type IndexedPage } from '../storage/search.js';
import { insertSpace, listAllSpacesOfOrganization } from '../storage/spaces.js';
import { recordedSpaceHeads, recordSpaceHead } from '../storage/spaceHeads.js';
import { createUser } from '../storage/users.js';
import { buildQuire, fmt, sharedTemporalAddress, spawnQuire, tempDataDir } from './lib.js';
import { seedOrganization } from './seed.js';

type Driver = 'sqlite' | 'postgres';

const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * p))]!;
const p50p99 = (samples: number[]) => `${fmt(percentile(samples, 0.5))} / ${fmt(percentile(samples, 0.99))}`;

async function requestRate(url: string, headers: Record<string, string>): Promise<{ rps: number; p50: number; p99: number }> {
  await autocannon({ url, headers, connections: 10, duration: 2 }); // warm-up
  const result = await autocannon({ url, headers, connections: 10, duration: 8 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function timedRequests(count: number, request: (round: number) => Promise<Response>): Promise<number[]> {
  const samples: number[] = [];
  for (let round = 0; round < count + 20; round += 1) {
    const started = performance.now();
    const response = await request(round);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`answered ${response.status}`);
    if (round >= 20) samples.push(performance.now() - started);
  }
  return samples;
}

/** The HTTP figures of one server, its metadata on `driver`. */
async function serverFigures(driver: Driver, cluster: PostgresCluster, figures: Record<string, string>): Promise<number> {
  const dataDir = tempDataDir();
  let databaseUrl: string | undefined;
  if (driver === 'postgres') {
    await cluster.createDatabase('quire_bench_http');
    databaseUrl = cluster.url('quire_bench_http');
  }
  const { organizationId, token } = await seedOrganization(dataDir, 1, databaseUrl);
  const server = await spawnQuire({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS: await sharedTemporalAddress(), ...(databaseUrl && { QUIRE_DATABASE_URL: databaseUrl }) });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  try {
    const space = (await (
      await fetch(`${server.url}/v1/orgs/${organizationId}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: 'Bench', template: { id: 'getting-started' } }) })
    ).json()) as { id: string };
    const pages = (await (await fetch(`${server.url}/v1/spaces/${space.id}/content/pages`, { headers })).json()) as { pages: Array<{ id: string }> };
    const page = await requestRate(`${server.url}/v1/spaces/${space.id}/content/page/${pages.pages[0]!.id}`, headers);
    const spaceRead = await requestRate(`${server.url}/v1/spaces/${space.id}`, headers);
    const search = await requestRate(`${server.url}/v1/spaces/${space.id}/search?query=space`, headers);
    const name = driver === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    figures[`${name}: page GET req/s (p50 / p99 ms, 10 connections)`] = `${fmt(page.rps, 0)} (${page.p50} / ${page.p99})`;
    figures[`${name}: space GET req/s (p50 / p99 ms)`] = `${fmt(spaceRead.rps, 0)} (${spaceRead.p50} / ${spaceRead.p99})`;
    figures[`${name}: search GET req/s (p50 / p99 ms)`] = `${fmt(search.rps, 0)} (${search.p50} / ${search.p99})`;
    const writes = await timedRequests(200, (round) => fetch(`${server.url}/v1/spaces/${space.id}`, { method: 'PATCH', headers, body: JSON.stringify({ title: `Bench ${round}` }) }));
    figures[`${name}: space PATCH (a metadata write), sequential: p50 / p99 ms`] = p50p99(writes);
    const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1];
    figures[`${name}: the server's RSS after these, MB`] = rss ? fmt(Number(rss) / 1024, 0) : 'unknown';
    return page.rps;
  } finally {
    await server.stop();
  }
}

/** Two API processes over one database (and DATA_DIR): a title written through one, read at once through the other, 1,000 times. */
/** Write-then-read pairs across two processes: the issue asks for 1,000 with none stale. */
const pairs = 3000;

async function crossNodeReads(cluster: PostgresCluster): Promise<string> {
  await cluster.createDatabase('quire_bench_nodes');
  const databaseUrl = cluster.url('quire_bench_nodes');
  const dataDir = tempDataDir();
  const { organizationId, token } = await seedOrganization(dataDir, 1, databaseUrl);
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS: await sharedTemporalAddress(), QUIRE_DATABASE_URL: databaseUrl };
  const [a, b] = await Promise.all([spawnQuire(env), spawnQuire(env)]);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  try {
    let stale = 0;
    for (let round = 0; round < pairs; round += 1) {
      const written = await fetch(`${a!.url}/v1/orgs/${organizationId}`, { method: 'PATCH', headers, body: JSON.stringify({ title: `Title ${round}` }) });
      if (!written.ok) throw new Error(`PATCH answered ${written.status}`);
      await written.arrayBuffer();
      const read = (await (await fetch(`${b!.url}/v1/orgs/${organizationId}`, { headers })).json()) as { title: string };
      if (read.title !== `Title ${round}`) stale += 1;
    }
    return `${stale} stale of ${pairs.toLocaleString('en')}`;
  } finally {
    await Promise.all([a!.stop(), b!.stop()]);
  }
}

/**
 * Storage nodes: node A keeps storage s1, node C keeps none and routes. Page GETs of a space on s1
 * straight to A and through C (the proxy hop), and a one-page commit each way.
 */
async function routedFigures(cluster: PostgresCluster, figures: Record<string, string>): Promise<void> {
  await cluster.createDatabase('quire_bench_routed');
  const databaseUrl = cluster.url('quire_bench_routed');
  const { organizationId, token } = await seedOrganization(tempDataDir(), 1, databaseUrl);
  const env = { PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS: await sharedTemporalAddress(), QUIRE_DATABASE_URL: databaseUrl, QUIRE_WORKER: 'off' };
  const [a, c] = await Promise.all([spawnQuire({ ...env, DATA_DIR: tempDataDir(), QUIRE_STORAGE: 's1' }), spawnQuire({ ...env, DATA_DIR: tempDataDir(), QUIRE_STORAGE: 'none' })]);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  try {
    let space: { id?: string } = {};
    for (let tries = 0; !space.id && tries < 100; tries += 1) {
      const made = await fetch(`${c!.url}/v1/orgs/${organizationId}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: 'Routed', template: { id: 'getting-started' } }) });
      space = (await made.json()) as { id?: string };
      if (!space.id) await new Promise((resolve) => setTimeout(resolve, 100)); // A hasn't claimed s1 yet
    }
    const pages = (await (await fetch(`${a!.url}/v1/spaces/${space.id}/content/pages`, { headers })).json()) as { pages: Array<{ id: string }> };
    const pagePath = `/v1/spaces/${space.id}/content/page/${pages.pages[0]!.id}`;
    const direct = await requestRate(`${a!.url}${pagePath}`, headers);
    const routed = await requestRate(`${c!.url}${pagePath}`, headers);
    figures['Storage nodes: page GET req/s straight to its node (p50 / p99 ms)'] = `${fmt(direct.rps, 0)} (${direct.p50} / ${direct.p99})`;
    figures['Storage nodes: page GET req/s through a routing node (p50 / p99 ms)'] = `${fmt(routed.rps, 0)} (${routed.p50} / ${routed.p99})`;
    const sequential = async (base: string) => p50(await timedRequests(300, () => fetch(`${base}${pagePath}`, { headers })));
    const [straight, hop] = [await sequential(a!.url), await sequential(c!.url)];
    figures['Storage nodes: the proxy hop, one request at a time: p50 ms added (target ≤ 1)'] = `${fmt(hop - straight, 2)} (${fmt(straight, 2)} → ${fmt(hop, 2)})`;
    for (const [name, base] of [
      ['straight to its node', a!.url],
      ['through a routing node', c!.url],
    ] as const) {
      const changeRequest = (await (await fetch(`${base}/v1/spaces/${space.id}/change-requests`, { method: 'POST', headers, body: JSON.stringify({ subject: name }) })).json()) as { id: string };
      const commits = await timedRequests(100, (round) =>
        fetch(`${base}/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ changes: [{ operation: 'insert_page', title: `Page ${round}`, document: { markdown: `# Page ${round}\n` } }] }),
        }),
      );
      figures[`Storage nodes: one-page commit ${name}, sequential: p50 / p99 ms`] = p50p99(commits);
    }

    // Commits/s from 8 writers through the router: their spaces all on s1, then spread over s1 and s2.
    const makeSpaces = async (count: number) => {
      const ids: string[] = [];
      for (let index = 0; index < count; index += 1)
        ids.push(((await (await fetch(`${c!.url}/v1/orgs/${organizationId}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: `Written ${index}` }) })).json()) as { id: string }).id);
      return ids;
    };
    const onS1 = await makeSpaces(4);
    figures['Storage nodes: commits/s, 8 writers through the router, one storage'] = fmt(await commitRate(c!.url, headers, [...onS1, ...onS1]), 0);
    const b = await spawnQuire({ ...env, DATA_DIR: tempDataDir(), QUIRE_STORAGE: 's2' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000)); // B takes s2
      const onS2 = await makeSpaces(4); // the emptier storage: s2
      figures['Storage nodes: commits/s, 8 writers through the router, two storages'] = fmt(await commitRate(c!.url, headers, [...onS1, ...onS2]), 0);
      const rss = (pid: number | undefined) => fmt(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024, 0);
      figures['Storage nodes: RSS of A (s1) / B (s2) / C (router), MB'] = `${rss(a!.child.pid)} / ${rss(b.child.pid)} / ${rss(c!.child.pid)}`;
    } finally {
      await b.stop();
    }
  } finally {
    await Promise.all([a!.stop(), c!.stop()]);
  }
}

/** Commits per second over 5 s, one writer per entry of `spaceIds`, each adding pages to a change request of its own. */
async function commitRate(base: string, headers: Record<string, string>, spaceIds: string[]): Promise<number> {
  const until = Date.now() + 5000;
  let commits = 0;
  await Promise.all(
    spaceIds.map(async (spaceId, writer) => {
      const changeRequest = (await (await fetch(`${base}/v1/spaces/${spaceId}/change-requests`, { method: 'POST', headers, body: JSON.stringify({ subject: `Writer ${writer}` }) })).json()) as {
        id: string;
      };
      for (let round = 0; Date.now() < until; round += 1) {
        const response = await fetch(`${base}/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ changes: [{ operation: 'insert_page', title: `W${writer} ${round}`, document: { markdown: `# ${round}\n` } }] }),
        });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`a commit answered ${response.status}`);
        commits += 1;
      }
    }),
  );
  return commits / 5;
}

const p50 = (samples: number[]) => percentile(samples, 0.5);

async function openBoth(cluster: PostgresCluster, name: string): Promise<Record<Driver, () => Promise<Database>>> {
  await cluster.createDatabase(name);
  const file = `${tempDataDir()}/quire.sqlite`;
  return { sqlite: () => openDatabase(file), postgres: () => openDatabase(cluster.url(name)) };
}

/** 8 writers × 25 transactions that each read and bump one organization's corpus row. */
async function contention(db: Database): Promise<string> {
  const owner = await createUser(db, { email: `contention-${Date.now()}@example.com` });
  const organization = await db.transaction((tx) => insertOrganization(tx, { title: 'Contention', createdBy: owner.id }));
  const started = performance.now();
  const before = { ...transactionStats };
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = 0; i < 25; i += 1) await db.transaction((tx) => countIssueInCorpus(tx, organization.id, { bench: 'bench' }, 1));
    }),
  );
  const ms = performance.now() - started;
  const counted = (await corpusCounts(db, organization.id, [])).issues;
  const retried = transactionStats.retried - before.retried;
  const share = db.dialect === 'postgres' ? `; ${retried} of 200 retried (${fmt((retried / 200) * 100, 1)} %), most tries ${transactionStats.mostAttempts}` : '';
  return `${counted} of 200 counted, ${fmt(200 / (ms / 1000), 0)} transactions/s${share}`;
}

/** How long another handle's commit takes to clear this handle's cached read: 40 samples. */
async function invalidation(reader: Database, writer: Database): Promise<string> {
  const samples: number[] = [];
  for (let round = 0; round < 40; round += 1) {
    let loads = 0;
    const read = () => reader.cached(`probe-${round}`, ['users'], async () => ++loads);
    await read();
    await createUser(writer, { email: `probe-${round}-${Date.now()}@example.com` });
    const started = performance.now();
    while (loads < 2) {
      await read();
      if (loads < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    samples.push(performance.now() - started);
  }
  return `${p50p99(samples)} (max ${fmt(Math.max(...samples))})`;
}

const words = [
  'install',
  'configure',
  'deploy',
  'token',
  'webhook',
  'billing',
  'search',
  'cache',
  'release',
  'migrate',
  'backup',
  'cluster',
  'résumé',
  'naïve',
  'café',
  '文档',
  'schema',
  'quota',
  'region',
  'audit',
];

/** 1,000 spaces × 100 pages × 3 sections indexed, then 200 searches over 5 spaces. Every word is in most sections: the worst case for ranking, which weighs each word by how many sections hold it. */
async function searchAtScale(db: Database): Promise<{ latency: string; size: string; indexing: string }> {
  const owner = await createUser(db, { email: `search-${Date.now()}@example.com` });
  const organization = await db.transaction((tx) => insertOrganization(tx, { title: 'Search', createdBy: owner.id }));
  const searchedSpaces = 1000;
  const spaceIds: string[] = [];
  const indexingStarted = performance.now();
  for (let s = 0; s < searchedSpaces; s += 1) {
    const space = await db.transaction((tx) => insertSpace(tx, { organizationId: organization.id, collectionId: null, title: `Space ${s}`, emoji: null, createdBy: owner.id }));
    const pages: IndexedPage[] = Array.from({ length: 100 }, (_, p) => ({
      pageId: `page-${p}`,
      title: `${words[(s + p) % words.length]} guide ${p}`,
      path: `guide-${p}`,
      ancestors: [],
      contentHash: `${s}-${p}`,
      sections: Array.from({ length: 3 }, (_, n) => ({
        id: `section-${n}`,
        title: `${words[(p + n) % words.length]} step ${n}`,
        body: Array.from({ length: 60 }, (_, w) => words[(s * 7 + p * 3 + n + w * 11) % words.length]).join(' '),
      })),
    }));
    await db.transaction((tx) => updateSpaceIndex(tx, space.id, 'r1', pages, []));
    spaceIds.push(space.id);
  }
  const indexing = `${fmt((performance.now() - indexingStarted) / 1000, 1)} s`;
  const samples: number[] = [];
  for (let round = 0; round < 220; round += 1) {
    const within = spaceIds.slice((round * 5) % (searchedSpaces - 5), ((round * 5) % (searchedSpaces - 5)) + 5);
    const started = performance.now();
    await searchSections(db, within, `${words[round % words.length]} ${words[(round * 3) % words.length]!.slice(0, 3)}`, 50);
    if (round >= 20) samples.push(performance.now() - started);
  }
  const size = await searchIndexBytes(db);
  return { latency: p50p99(samples), size: `${fmt(size / 1024 / 1024, 1)} MB`, indexing };
}

/**
 * Metadata for 100,000 spaces (1,000 organizations of 100), written in transactions of 1,000; then
 * what a request reads of it: one organization's spaces, and their recorded heads.
 */
async function metadataAtScale(db: Database): Promise<{ written: string; list: string }> {
  const owner = await createUser(db, { email: `metadata-${Date.now()}@example.com` });
  const started = performance.now();
  const organizations: string[] = [];
  for (let batch = 0; batch < 100; batch += 1) {
    await db.transaction(async (tx) => {
      for (let o = 0; o < 10; o += 1) {
        const organization = await insertOrganization(tx, { title: `Org ${batch}-${o}`, createdBy: owner.id });
        organizations.push(organization.id);
        for (let s = 0; s < 100; s += 1) {
          const space = await insertSpace(tx, { organizationId: organization.id, collectionId: null, title: `Space ${s}`, emoji: null, createdBy: owner.id });
          await recordSpaceHead(tx, space.id, 'f'.repeat(40));
        }
      }
    });
  }
  const seconds = (performance.now() - started) / 1000;
  const samples: number[] = [];
  for (let round = 0; round < 220; round += 1) {
    const begun = performance.now();
    const spaces = await listAllSpacesOfOrganization(db, organizations[(round * 37) % organizations.length]!);
    await recordedSpaceHeads(
      db,
      spaces.map((space) => space.id),
    );
    if (round >= 20) samples.push(performance.now() - begun);
  }
  return { written: `${fmt(seconds, 1)} s (${fmt(100_000 / seconds, 0)} spaces/s)`, list: p50p99(samples) };
}

/** p50 / p99 of `rounds` runs of `read` (after 10 unmeasured ones), the round number given. */
async function timedReads(rounds: number, read: (round: number) => Promise<unknown>): Promise<string> {
  const samples: number[] = [];
  for (let round = 0; round < rounds + 10; round += 1) {
    const started = performance.now();
    await read(round);
    if (round >= 10) samples.push(performance.now() - started);
  }
  return p50p99(samples);
}

/**
 * The lists a PostgreSQL plan audit found reading far more than they return, at the sizes it used
 * (smaller, so both databases fill in a minute or two): an organization of 20,000 members among
 * 40,000 users, a space's 10,000 comments, and the change requests of an organization's 2,000
 * spaces (5 each) filtered by contributor. Each a page of 50 (comments: 20), with its count.
 */
async function listsAtScale(db: Database): Promise<Record<string, string>> {
  const stamp = Date.now();
  const owner = await createUser(db, { email: `lists-${stamp}@example.com` });
  const organization = await db.transaction((tx) => insertOrganization(tx, { title: 'Lists', createdBy: owner.id }));
  // Ids are kept from what each transaction returns: a PostgreSQL transaction may run again.
  const users: string[] = [];
  for (let batch = 0; batch < 40; batch += 1) {
    const made = await db.transaction(async (tx) => {
      const ids: string[] = [];
      for (let i = 0; i < 1000; i += 1) {
        const n = batch * 1000 + i;
        const user = await createUser(tx, { email: `member-${n}-${stamp}@example${n % 97}.com`, displayName: `Member ${n}` });
        ids.push(user.id);
        if (n % 2 === 0) await ensureMembership(tx, { organizationId: organization.id, userId: user.id, role: 'read' });
      }
      return ids;
    });
    users.push(...made);
  }
  const spaces: string[] = [];
  for (let batch = 0; batch < 4; batch += 1) {
    const made = await db.transaction(async (tx) => {
      const ids: string[] = [];
      for (let s = 0; s < 500; s += 1) {
        const space = await insertSpace(tx, { organizationId: organization.id, collectionId: null, title: `Space ${batch * 500 + s}`, emoji: null, createdBy: owner.id });
        ids.push(space.id);
        for (let c = 0; c < 5; c += 1) {
          const changeRequest = await insertChangeRequest(tx, {
            spaceId: space.id,
            subject: `Change ${c}`,
            createdBy: owner.id,
            revisionInitial: 'f'.repeat(40),
            branchOf: (number) => `cr/${number}`,
          });
          await addContributor(tx, changeRequest.id, users[(s * 5 + c) % 50]!);
        }
      }
      return ids;
    });
    spaces.push(...made);
  }
  const commented = spaces[0]!;
  for (let batch = 0; batch < 20; batch += 1) {
    await db.transaction(async (tx) => {
      for (let i = 0; i < 500; i += 1) {
        await insertComment(
          tx,
          { spaceId: commented, changeRequestId: null },
          {
            pageId: null,
            nodeId: null,
            tableCell: null,
            revision: 'f'.repeat(40),
            postedBy: users[i % 100]!,
            body: { markdown: `Comment ${batch * 500 + i}`, document: JSON.stringify({ object: 'document', nodes: [] }) },
          },
        );
      }
    });
  }
  const firstComments = await listComments(db, { spaceId: commented, changeRequestId: null }, { status: 'all' }, { limit: 20 });
  return {
    'members: a page of 50 among 20,000': await timedReads(100, () => listMembers(db, organization.id, {}, { limit: 50 })),
    'members: a search matching 1 in 20,000': await timedReads(100, (round) => listMembers(db, organization.id, { search: `member-${(round * 2 * 37) % 40000}-${stamp}@` }, { limit: 50 })),
    'comments: the first page of 20 among 10,000': await timedReads(100, () => listComments(db, { spaceId: commented, changeRequestId: null }, { status: 'all' }, { limit: 20 })),
    'comments: the second page, by its cursor': await timedReads(100, () =>
      listComments(db, { spaceId: commented, changeRequestId: null }, { status: 'all' }, { limit: 20, page: firstComments.next }),
    ),
    'change requests of 2,000 spaces by one contributor': await timedReads(100, (round) =>
      listChangeRequests(db, { spaceIds: spaces }, { status: 'open', contributor: users[round % 50]! }, { limit: 50 }),
    ),
    'change requests of 20 spaces': await timedReads(100, (round) =>
      listChangeRequests(db, { spaceIds: spaces.slice((round * 20) % 1980, ((round * 20) % 1980) + 20) }, { status: 'open' }, { limit: 50 }),
    ),
  };
}

export async function benchScale(): Promise<Record<string, string>> {
  buildQuire();
  const figures: Record<string, string> = {};
  const cluster = await startPostgresCluster({ durable: true });
  try {
    const sqliteRps = await serverFigures('sqlite', cluster, figures);
    const postgresRps = await serverFigures('postgres', cluster, figures);
    figures['PostgreSQL page GET as % of SQLite’s (target ≥ 80)'] = fmt((postgresRps / sqliteRps) * 100, 1);
    figures['PostgreSQL, two API processes: organization title written through one, read at once through the other'] = await crossNodeReads(cluster);
    await routedFigures(cluster, figures);

    const opened = await openBoth(cluster, 'quire_bench_storage');
    for (const driver of ['sqlite', 'postgres'] as const) {
      const name = driver === 'sqlite' ? 'SQLite' : 'PostgreSQL';
      const db = await opened[driver]();
      const other = await opened[driver]();
      try {
        figures[`${name}: 200 transactions racing for one row`] = await contention(db);
        figures[`${name}: another handle's commit clearing a cached read: p50 / p99 ms (target ≤ 100)`] = await invalidation(db, other);
        const search = await searchAtScale(db);
        figures[`${name}: search over 5 of 1,000 spaces × 100 pages (300,000 sections): p50 / p99 ms`] = search.latency;
        figures[`${name}: indexing 1,000 spaces × 100 pages, one transaction per space`] = search.indexing;
        figures[`${name}: search index size`] = search.size;
        const metadata = await metadataAtScale(db);
        figures[`${name}: 100,000 spaces' metadata written (1,000 organizations)`] = metadata.written;
        figures[`${name}: an organization's 100 spaces and their heads, among 100,000: p50 / p99 ms`] = metadata.list;
        for (const [label, figure] of Object.entries(await listsAtScale(db))) figures[`${name}: ${label}: p50 / p99 ms`] = figure;
      } finally {
        await other.close();
        await db.close();
      }
    }
  } finally {
    await cluster.stop();
  }
  return figures;
}
