import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configuredExtractor, consolidateClusters, processPendingConversations } from '../../domain/conversations/index.js';
import { corpusCounts } from '../../storage/issueClusters.js';
import { shuffled } from '../helpers/clusterSimulation.js';
import type { OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

// Issue 57: the clusters read consistently. Conversations are processed and consolidated (the
// jobs' own commands, run here so the test decides when) while a reader reads the clusters and
// the issues through the API over and over. Every answer is one snapshot: each cluster's stated
// issues are the issues its sources count. A page after a consolidation isn't served from a
// cursor of the clustering before it. Whenever nothing changed the clustering while it read (the
// corpus version and its consolidated version the same before and after), what it read must
// agree: every issue's cluster is listed, each cluster counts exactly the issues and conversations
// that name it, and the issue list filtered by a cluster holds exactly those issues.
const test = suite('conversation clusters read consistently, through processing and consolidations');
let t: TestServer;
let fx: OrganizationFixture;

interface Labelled {
  id: string;
  subject: string;
  parts: Array<{ type: string; role: string; body: string }>;
}
const labelled = JSON.parse(readFileSync(new URL('../fixtures/conversations/labelled.json', import.meta.url), 'utf8')) as Labelled[];
const paraphrased = JSON.parse(readFileSync(new URL('../fixtures/conversations/labelled-paraphrased.json', import.meta.url), 'utf8')) as Labelled[];

withOrganization(test, (setup) => ({ t, fx } = setup));

type Issue = { issue: { id: string; cluster?: string; conversation: string } };
type Cluster = { id: string; stats: { issues: number; conversations: number }; sources: Record<string, number> };

/** Problems seen within single answers, whatever was changing: none may ever be. */
const answerProblems: string[] = [];
/** Readings begun again because a consolidation came between two of their pages. */
let restarts = 0;
class ClusteredAgain extends Error {}

/** Every item of a list, page after page; ClusteredAgain when the clustering changed between two pages. */
async function all<T>(path: string): Promise<T[]> {
  const items: T[] = [];
  let page: string | undefined;
  do {
    const answered = await t.call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=20${page ? `&page=${encodeURIComponent(page)}` : ''}`, { token: fx.admin.token });
    if (page && answered.status === 400 && /clustered again/.test(answered.body.error?.message)) throw new ClusteredAgain();
    assert.is(answered.status, 200, JSON.stringify(answered.body));
    for (const cluster of path.includes('conversations-clusters') ? (answered.body.items as Cluster[]) : []) {
      const sourced = Object.values(cluster.sources).reduce((sum, n) => sum + n, 0);
      if (sourced !== cluster.stats.issues) answerProblems.push(`cluster ${cluster.id} says ${cluster.stats.issues} issues and its sources ${sourced}, in one answer`);
    }
    items.push(...(answered.body.items as T[]));
    page = answered.body.next?.page;
  } while (page);
  return items;
}

const generation = async () => {
  const corpus = await corpusCounts(t.server.db, fx.org.id, []);
  return `${corpus.version}/${corpus.consolidatedVersion}`;
};

/** One reading of the clustering; undefined when something changed it meanwhile (nothing to check then). */
async function read(): Promise<{ clusters: Cluster[]; issues: Issue[]; byCluster: Map<string, number> } | undefined> {
  const before = await generation();
  try {
    const clusters = await all<Cluster>(`/v1/orgs/${fx.org.id}/conversations-clusters`);
    const issues = await all<Issue>(`/v1/orgs/${fx.org.id}/conversations-issues`);
    const byCluster = new Map<string, number>();
    for (const cluster of clusters.slice(0, 3)) byCluster.set(cluster.id, (await all<Issue>(`/v1/orgs/${fx.org.id}/conversations-issues?cluster=${cluster.id}`)).length);
    return (await generation()) === before ? { clusters, issues, byCluster } : undefined;
  } catch (error) {
    if (!(error instanceof ClusteredAgain)) throw error;
    restarts += 1;
    assert.is.not(await generation(), before, 'a page refused while the clustering stayed the same');
    return undefined;
  }
}

/** What a still clustering must satisfy. */
function problemsOf(seen: NonNullable<Awaited<ReturnType<typeof read>>>): string[] {
  const problems: string[] = [];
  const listed = new Map(seen.clusters.map((cluster) => [cluster.id, cluster]));
  const members = new Map<string, Issue[]>();
  for (const item of seen.issues) {
    const cluster = item.issue.cluster;
    if (!cluster) problems.push(`issue ${item.issue.id} has no cluster`);
    else if (!listed.has(cluster)) problems.push(`issue ${item.issue.id} names cluster ${cluster}, which isn't listed`);
    else members.set(cluster, [...(members.get(cluster) ?? []), item]);
  }
  for (const cluster of seen.clusters) {
    const own = members.get(cluster.id) ?? [];
    if (cluster.stats.issues !== own.length) problems.push(`cluster ${cluster.id} says ${cluster.stats.issues} issues, ${own.length} name it`);
    const conversations = new Set(own.map((item) => item.issue.conversation)).size;
    if (cluster.stats.conversations !== conversations) problems.push(`cluster ${cluster.id} says ${cluster.stats.conversations} conversations, ${conversations} name it`);
    const filtered = seen.byCluster.get(cluster.id);
    if (filtered !== undefined && filtered !== own.length) problems.push(`the issues filtered by cluster ${cluster.id} are ${filtered}, ${own.length} name it`);
  }
  return problems;
}

test('through arrivals and consolidations, every still reading agrees with itself', async () => {
  const deps = { db: t.server.db, repositories: t.server.repositories, dataDir: t.dataDir };
  const extractor = configuredExtractor({ local: true });
  // 72 labelled conversations and 30 of their paraphrases: 102, as the issue's reader posted.
  const arriving = [
    ...shuffled(labelled, 7),
    ...shuffled(paraphrased, 11)
      .slice(0, 30)
      .map((conversation) => ({ ...conversation, id: `again-${conversation.id}` })),
  ];
  const checked: string[] = [];
  const problems: string[] = [];
  let writing = true;
  // At most 200 readings, a few milliseconds apart: about ten requests each, well under the
  // server's rate limit however slowly the writes go. A failure is kept, never thrown unawaited.
  const reader = (async () => {
    for (let readings = 0; writing && readings < 200; readings += 1) {
      const seen = await read();
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (!seen) continue;
      checked.push(`${seen.clusters.length} clusters, ${seen.issues.length} issues`);
      problems.push(...problemsOf(seen).map((problem) => `after ${checked.length} readings: ${problem}`));
    }
  })().catch((error: Error) => problems.push(`the reader failed: ${error.message}`));
  try {
    for (let i = 0; i < arriving.length; i += 17) {
      const batch = arriving.slice(i, i + 17).map(({ id, subject, parts }) => ({ id, subject, parts }));
      assert.is((await t.call('POST', `/v1/orgs/${fx.org.id}/conversations`, { token: fx.admin.token, body: batch })).status, 204);
      while ((await processPendingConversations(deps, fx.org.id, extractor, 5)).remaining);
      // Every other batch, the clusters are made again from scratch, as the quiet-time job does.
      if ((i / 17) % 2 === 1) assert.ok(['consolidated', 'unchanged'].includes(await consolidateClusters(deps, fx.org.id)));
    }
    // Conversations posted again with other words (a support thread that went on): their issues are
    // replaced, in clusters old and new, then consolidated again.
    const again = shuffled(paraphrased, 5)
      .slice(0, 25)
      .map((conversation, index) => ({ id: arriving[index]!.id, subject: conversation.subject, parts: conversation.parts }));
    assert.is((await t.call('POST', `/v1/orgs/${fx.org.id}/conversations`, { token: fx.admin.token, body: again })).status, 204);
    while ((await processPendingConversations(deps, fx.org.id, extractor, 5)).remaining);
    assert.ok(['consolidated', 'unchanged'].includes(await consolidateClusters(deps, fx.org.id)));
  } finally {
    writing = false;
    await reader;
  }
  // And once everything is still, a last reading, which must be whole.
  const last = await read();
  assert.ok(last, 'nothing changes the clustering any more');
  problems.push(...problemsOf(last!).map((problem) => `at rest: ${problem}`));
  console.log(`  ${checked.length} still readings checked, ${restarts} begun again after a consolidation; at rest: ${last!.clusters.length} clusters, ${last!.issues.length} issues`);
  assert.ok(checked.length >= 3, `only ${checked.length} still readings were made`);
  assert.equal(problems, [], problems.slice(0, 20).join('\n'));
  assert.equal(answerProblems, [], answerProblems.slice(0, 20).join('\n'));
  assert.ok(last!.issues.length > 60, `${last!.issues.length} issues`);
});

test('a cursor of the clustering before a consolidation is refused after it, with what to do', async () => {
  const deps = { db: t.server.db, repositories: t.server.repositories, dataDir: t.dataDir };
  const clusters = `/v1/orgs/${fx.org.id}/conversations-clusters?limit=1`;
  const issues = `/v1/orgs/${fx.org.id}/conversations-issues?limit=1`;
  const first = await Promise.all([clusters, issues].map((path) => t.call('GET', path, { token: fx.admin.token })));
  const cursors = first.map((answered) => answered.body.next.page as string);
  // Within one clustering the cursors hold, new issues or not.
  const fresh = shuffled(paraphrased, 3)
    .slice(0, 4)
    .map(({ id, subject, parts }) => ({ id: `late-${id}`, subject, parts }));
  assert.is((await t.call('POST', `/v1/orgs/${fx.org.id}/conversations`, { token: fx.admin.token, body: fresh })).status, 204);
  while ((await processPendingConversations(deps, fx.org.id, configuredExtractor({ local: true }), 5)).remaining);
  for (const [index, path] of [clusters, issues].entries()) {
    assert.is((await t.call('GET', `${path}&page=${encodeURIComponent(cursors[index]!)}`, { token: fx.admin.token })).status, 200);
  }
  assert.is(await consolidateClusters(deps, fx.org.id), 'consolidated');
  for (const [index, path] of [clusters, issues].entries()) {
    const refused = await t.call('GET', `${path}&page=${encodeURIComponent(cursors[index]!)}`, { token: fx.admin.token });
    assert.is(refused.status, 400);
    assert.match(refused.body.error.message, /clustered again since this list's first page: list it again from the first page/);
  }
});

test.run();
