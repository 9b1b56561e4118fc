// The conversations issue's figures: ingest-to-clustered latency through the built server and its
// worker; the API's responsiveness while 1,000 conversations arrive in a minute; and the clustering
// cost per new issue at 1,000 and 10,000 issues on SQLite and on PostgreSQL (the domain's processing, in this process),
// and a consolidation's at 1,000 (with the embedding model) and 10,000 issues.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { closeEmbeddingThread, configuredExtractor, consolidateClusters, processPendingConversations } from '../domain/conversations/index.js';
import { upsertConversation } from '../storage/conversations.js';
import { databaseLocation, openDatabase } from '../storage/db.js';
import { startPostgresCluster } from '../scripts/postgresCluster.js';
import { organizationClusterIds } from '../storage/issueClusters.js';
import { buildQuire, fmt, median, root, sharedTemporalAddress, spawnQuire, tempDataDir } from './lib.js';
import { seedOrganization } from './seed.js';
import { localSpaceRepositories } from '../engine/spaceRepositories.js';

interface Labelled {
  id: string;
  topic: string;
  subject: string;
  parts: Array<{ type: string; role: string; body: string }>;
}
const labelled = JSON.parse(readFileSync(path.join(root, 'test/fixtures/conversations/labelled.json'), 'utf8')) as Labelled[];
const topical = labelled.filter((conversation) => conversation.topic !== 'none');

const syllables = ['ka', 'lo', 'mi', 'ren', 'tu', 'sa', 'vor', 'ni', 'pel', 'dra', 'quo', 'zin', 'fe', 'mar', 'gol', 'bri'];
/** A made-up product word, so synthetic conversations spread over many topics as real ones do. */
const word = (n: number) => syllables[n % 16]! + syllables[Math.floor(n / 16) % 16]! + syllables[Math.floor(n / 256) % 16]!;

/** The n-th synthetic conversation: a labelled one with a made-up product named in its question. */
function synthetic(n: number) {
  const base = topical[n % topical.length]!;
  const product = word(Math.floor(n / 7) % 4096);
  return {
    id: `syn-${n}`,
    subject: `${base.subject} in ${product}`,
    parts: base.parts.map((part) => (part.role === 'user' ? { ...part, body: `${part.body} How does this work with ${product}?` } : part)),
  };
}

const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * p))]!;

export async function throughServer(figures: Record<string, string>) {
  buildQuire();
  const dataDir = tempDataDir();
  const { organizationId, token } = await seedOrganization(dataDir, 1);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const server = await spawnQuire({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS: await sharedTemporalAddress(), QUIRE_TASK_QUEUE: `bench-${randomUUID()}` });
  const base = `${server.url}/v1/orgs/${organizationId}`;
  const processedAt = async (id: string) => ((await (await fetch(`${base}/conversations/${id}`, { headers })).json()) as { conversation: { processedAt?: string } }).conversation.processedAt;
  try {
    // One at a time: from just before the POST to the conversation's processedAt (same clock: this
    // machine). Polled every 20 ms only to know when to post the next: polling harder would load
    // the server whose latency is measured.
    const latencies: number[] = [];
    for (let i = 0; i < 120; i += 1) {
      const conversation = synthetic(i);
      const started = Date.now();
      const response = await fetch(`${base}/conversations`, { method: 'POST', headers, body: JSON.stringify(conversation) });
      if (response.status !== 204) throw new Error(`ingest answered ${response.status}`);
      let processed: string | undefined;
      while (!(processed = await processedAt(conversation.id))) await new Promise((resolve) => setTimeout(resolve, 20));
      if (i >= 20) latencies.push(Date.parse(processed) - started);
    }
    figures['ingest to clustered, one conversation at a time: median ms (target ≤ 40)'] = fmt(median(latencies), 1);
    figures['… p95 ms'] = fmt(percentile(latencies, 0.95), 1);

    // 1,000 conversations posted over one minute, one per request, while another client reads.
    const total = 1000;
    const others: number[] = [];
    let posting = true;
    const reader = (async () => {
      while (posting) {
        const started = performance.now();
        await (await fetch(`${base}/conversations-clusters?limit=20`, { headers })).arrayBuffer();
        others.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const start = performance.now();
    for (let i = 0; i < total; i += 1) {
      const due = start + (i * 60_000) / total;
      if (performance.now() < due) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
      const response = await fetch(`${base}/conversations`, { method: 'POST', headers, body: JSON.stringify(synthetic(1000 + i)) });
      if (response.status !== 204) throw new Error(`ingest answered ${response.status}`);
    }
    const posted = performance.now();
    posting = false;
    await reader;
    let pending = total;
    while (pending > 0) {
      const listed = (await (await fetch(`${base}/conversations?limit=1000`, { headers })).json()) as { items: Array<{ id: string; processedAt?: string }> };
      pending = listed.items.filter((item) => item.id.startsWith('syn-') && Number(item.id.slice(4)) >= 1000 && !item.processedAt).length;
      if (pending) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    figures[`${total} conversations posted over ${fmt((posted - start) / 1000, 1)} s: other requests' p99 ms (target ≤ 50)`] = fmt(percentile(others, 0.99), 1);
    figures['… their median ms'] = fmt(median(others), 1);
    figures['… all processed, s after the last post'] = fmt((performance.now() - posted) / 1000, 2);
  } finally {
    await server.stop();
  }
}

/** Per new conversation (one issue each), with the organization at 1,000 and 10,000 issues, on SQLite or (given its URL) PostgreSQL. */
export async function clusteringCost(figures: Record<string, string>, databaseUrl?: string) {
  const dataDir = tempDataDir();
  const { organizationId } = await seedOrganization(dataDir, 1, databaseUrl);
  const db = await openDatabase(databaseLocation(dataDir, databaseUrl));
  const on = databaseUrl ? ', PostgreSQL' : '';
  const deps = { db, dataDir, repositories: localSpaceRepositories(dataDir) };
  const extractor = configuredExtractor({ local: true });
  let made = 0;
  const grow = async (to: number, measure: boolean) => {
    const costs: number[] = [];
    while (made < to) {
      const batch = Math.min(100, to - made);
      await db.transaction(async (tx) => {
        for (let i = 0; i < batch; i += 1) {
          const conversation = synthetic(made + i);
          await upsertConversation(tx, organizationId, { ...conversation, source: 'integration:api:bench', metadata: {} });
        }
      });
      const started = performance.now();
      await processPendingConversations(deps, organizationId, extractor, batch);
      if (measure) costs.push((performance.now() - started) / batch);
      made += batch;
    }
    return costs;
  };
  await grow(900, false);
  const at1k = await grow(1000, true);
  figures[`clustering a new conversation at 1,000 issues${on}: ms each (extraction, clustering, commit)`] = fmt(median(at1k), 2);
  figures[`… clusters at 1,000 issues${on}`] = String((await organizationClusterIds(db, organizationId)).length);
  // Consolidation, as an organization's quiet moment runs it: the first embeds every issue (the
  // model, when it is there: words alone otherwise); the next embeds only the new ones.
  const consolidation = async () => {
    const started = performance.now();
    const outcome = await consolidateClusters(deps, organizationId);
    if (outcome !== 'consolidated') throw new Error(`consolidation: ${outcome}`);
    return (performance.now() - started) / 1000;
  };
  figures[`consolidating 1,000 issues, the first time (each embedded)${on}: s`] = fmt(await consolidation(), 2);
  await grow(1100, false);
  figures[`… again after 100 new issues${on}: s`] = fmt(await consolidation(), 2);
  figures[`… clusters after it${on}`] = String((await organizationClusterIds(db, organizationId)).length);
  await grow(9900, false);
  const at10k = await grow(10_000, true);
  figures[`clustering a new conversation at 10,000 issues${on}: ms each`] = fmt(median(at10k), 2);
  figures[`… clusters at 10,000 issues${on}`] = String((await organizationClusterIds(db, organizationId)).length);
  figures[`consolidating 10,000 issues (words alone past 2,000)${on}: s`] = fmt(await consolidation(), 2);
  await db.close();
}

export async function benchConversations(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  await throughServer(figures);
  await clusteringCost(figures);
  const cluster = await startPostgresCluster({ durable: true });
  try {
    await cluster.createDatabase('clustering');
    await clusteringCost(figures, cluster.url('clustering'));
  } finally {
    await cluster.stop();
    await closeEmbeddingThread();
  }
  return figures;
}
