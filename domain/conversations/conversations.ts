import { createHash } from 'node:crypto';
import type { Queryable, Transaction } from '../../storage/db.js';
import {
  deleteConversationIssue,
  findConversation,
  getConversation,
  insertConversationIssue,
  issuesOfCluster,
  issuesOfConversation,
  issuesOfOrganization,
  markConversationProcessed,
  pendingConversations,
  setIssueCluster,
  upsertConversation,
  type ConversationPart,
  type ConversationRecord,
} from '../../storage/conversations.js';
import {
  addToCentroid,
  clusterCentroids,
  clustersSharingTerms,
  corpusCounts,
  countIssueInCorpus,
  deleteIssueCluster,
  insertIssueCluster,
  markCorpusConsolidated,
  organizationClusterIds,
  recountIssueCluster,
  adjustIssueClusterCounts,
  replaceCentroid,
  setIssueClusterLabel,
  type IssueClusterRecord,
} from '../../storage/issueClusters.js';
import { now } from '../../storage/ids.js';
import { addInto, idfOf, nearest, termVector, type TermVector } from './clustering.js';
import { graphLimit, type Consolidation } from './consolidation.js';
import { issueEmbeddings, issueText } from './embedding.js';
import { extractIssuesLocally, type ConversationText, type ExtractedIssue } from './extractIssues.js';
import { labelCluster } from './labels.js';
import { issueTerms } from './issueTerms.js';
import { configuredModel, extractIssuesWithModel } from './modelIssues.js';
import type { ModelUse } from '../common/chatModel.js';
import { runInPool, siblingModule } from '../../engine/index.js';
import { storedConversationId } from './redact.js';
import type { ContentDeps, JobDeps } from '../common/deps.js';
import { errorFields, log } from '../common/log.js';

/** Personal data is redacted in the worker pool (redactTasks.ts), before anything is stored. */
const redactTasks = siblingModule(import.meta.url, 'redactTasks');
/** Consolidation's clustering runs in the worker pool too (consolidationTasks.ts): seconds of CPU for a large organization. */
const consolidationTasks = siblingModule(import.meta.url, 'consolidationTasks');
/** The job's own limit (30 minutes) is the real bound; this one stops a runaway thread. */
const consolidationLimitMs = 10 * 60_000;

export interface ConversationPost {
  id: string;
  subject?: string;
  parts: ConversationPart[];
  metadata?: { url?: string; attributes?: Record<string, string>; createdAt?: string };
}

/**
 * Stores posted conversations (personal data redacted first; a known id is updated, never
 * duplicated) and tells the organization's processing job. The posts are stored whether or not
 * the job service answers: the periodic consolidation job sweeps up what is left pending.
 */
export async function ingestConversations(deps: JobDeps, organizationId: string, posts: ConversationPost[], source: string): Promise<void> {
  const redacted = await runInPool<ConversationPost[]>(redactTasks, 'redactPosts', { organizationId, posts }, 'Redacting the conversations');
  const changed = await deps.db.transaction(async (tx) => {
    let any = false;
    for (const post of redacted) {
      const stored = await upsertConversation(tx, organizationId, {
        id: post.id,
        source,
        subject: post.subject ?? null,
        parts: post.parts,
        metadata: post.metadata ?? {},
      });
      any ||= stored;
    }
    return any;
  });
  if (!changed) return;
  try {
    await deps.jobs.signalConversationsIngested(organizationId);
  } catch (error) {
    log.warn('conversations stored; their processing waits for the job service', { organizationId, reason: error instanceof Error ? error.message : String(error) });
  }
}

/** Issues found in a conversation, and whether the local method found them (it reads the whole user side). */
export type Extractor = (conversation: ConversationText, use?: ModelUse) => Promise<{ issues: ExtractedIssue[]; local: boolean }>;

/** The model when one is configured, falling back to the local method when it fails; else the local method. */
export function configuredExtractor(options: { local?: boolean } = {}): Extractor {
  const endpoint = options.local ? undefined : configuredModel();
  const local = async (conversation: ConversationText) => ({ issues: extractIssuesLocally(conversation), local: true });
  if (!endpoint) return local;
  return async (conversation, use) => {
    try {
      return { issues: await extractIssuesWithModel(conversation, endpoint, use), local: false };
    } catch (error) {
      log.warn('the chat model could not extract issues; extracting them locally', { reason: error instanceof Error ? error.message : String(error) });
      return local(conversation);
    }
  };
}

/**
 * Processes up to `limit` pending conversations of the organization, each in its own transaction:
 * its issues replaced, each issue joined to its nearest cluster or starting one. What is still
 * pending afterwards is reported so the job goes on.
 */
export async function processPendingConversations(deps: Pick<ContentDeps, 'db'>, organizationId: string, extractor: Extractor, limit = 20): Promise<{ processed: number; remaining: boolean }> {
  const pending = await pendingConversations(deps.db, organizationId, limit);
  let processed = 0;
  for (const conversation of pending) if (await processConversation(deps, conversation, extractor)) processed += 1;
  return { processed, remaining: pending.length === limit };
}

/** Processing and consolidation all write the organization's corpus counts: one at a time, not retried against each other. */
const corpusWrites = (organizationId: string) => ({ exclusive: `conversation-corpus:${organizationId}` });

async function processConversation(deps: Pick<ContentDeps, 'db'>, conversation: ConversationRecord, extractor: Extractor): Promise<boolean> {
  const extracted = await extractor(conversation, { db: deps.db, organizationId: conversation.organizationId, feature: 'conversations' });
  const issues = extracted.issues.map((issue) => ({ ...issue, ...issueTerms(conversation, issue, extracted.local) }));
  const organizationId = conversation.organizationId;
  return deps.db.transaction(async (tx) => {
    const current = await findConversation(tx, organizationId, conversation.id);
    if (!current || current.revision !== conversation.revision || current.processedRevision >= conversation.revision) return false;
    // Per cluster, how its counts move: issues one by one, the conversation once per cluster.
    const before = new Map<string, number>();
    const after = new Map<string, number>();
    for (const old of await issuesOfConversation(tx, organizationId, conversation.id)) {
      if (old.clusterId) {
        await addToCentroid(tx, organizationId, old.clusterId, termVector(old.terms), -1);
        before.set(old.clusterId, (before.get(old.clusterId) ?? 0) + 1);
      }
      await countIssueInCorpus(tx, organizationId, Object.fromEntries(Object.keys(old.terms).map((term) => [term, term])), -1);
      await deleteConversationIssue(tx, old.id);
    }
    for (const issue of issues) {
      await countIssueInCorpus(tx, organizationId, issue.surface, 1);
      const clusterId = (await nearestCluster(tx, organizationId, issue.vector)) ?? (await insertIssueCluster(tx, organizationId));
      await insertConversationIssue(tx, {
        organizationId,
        conversationId: conversation.id,
        title: issue.title,
        summary: issue.summary,
        terms: issue.counts,
        clusterId,
        createdAt: conversation.createdAt,
      });
      await addToCentroid(tx, organizationId, clusterId, issue.vector, 1);
      after.set(clusterId, (after.get(clusterId) ?? 0) + 1);
    }
    for (const clusterId of new Set([...before.keys(), ...after.keys()])) {
      const issues = (after.get(clusterId) ?? 0) - (before.get(clusterId) ?? 0);
      const conversations = (after.has(clusterId) ? 1 : 0) - (before.has(clusterId) ? 1 : 0);
      const cluster = await adjustIssueClusterCounts(tx, clusterId, { issues, conversations });
      // Labels are made again as a cluster doubles: often while it is small, rarely once it is large.
      if (cluster && cluster.issues >= 2 * cluster.labelledAtSize) await relabel(tx, cluster);
    }
    return markConversationProcessed(tx, organizationId, conversation.id, conversation.revision);
  }, corpusWrites(organizationId));
}

/** Clusters compared exactly with a new issue: the best few by shared rare terms. */
const candidateCount = 8;
/** A candidate's heaviest terms compared: the tail of a large centroid weighs next to nothing. */
const centroidTerms = 200;
/** The issue's terms that pick the candidates: its rarest, so common words don't fetch every cluster. */
const lookupTerms = 12;

async function nearestCluster(tx: Transaction, organizationId: string, vector: TermVector): Promise<string | undefined> {
  const own = await corpusCounts(tx, organizationId, Object.keys(vector));
  const ownIdf = idfOf({ documents: own.issues, documentFrequency: (term) => own.documents.get(term) ?? 0 });
  const lookup = Object.entries(vector)
    .map(([term, weight]) => ({ term, weight: weight * ownIdf(term) ** 2 }))
    .sort((a, b) => b.weight - a.weight)
    .slice(0, lookupTerms);
  const candidates = await clustersSharingTerms(tx, organizationId, lookup, candidateCount);
  if (!candidates.length) return undefined;
  const centroids = await clusterCentroids(tx, candidates, centroidTerms);
  const terms = new Set(Object.keys(vector));
  for (const centroid of centroids.values()) for (const term of Object.keys(centroid)) terms.add(term);
  const corpus = await corpusCounts(tx, organizationId, [...terms]);
  const idf = idfOf({ documents: corpus.issues, documentFrequency: (term) => corpus.documents.get(term) ?? 0 });
  return nearest(
    vector,
    [...centroids].map(([id, centroid]) => ({ id, centroid })),
    idf,
  )?.id;
}

async function relabel(tx: Transaction, cluster: IssueClusterRecord): Promise<void> {
  const centroid = (await clusterCentroids(tx, [cluster.id])).get(cluster.id)!;
  const members = (await issuesOfCluster(tx, cluster.id)).map((issue) => ({ title: issue.title, vector: termVector(issue.terms) }));
  const corpus = await corpusCounts(tx, cluster.organizationId, Object.keys(centroid));
  const idf = idfOf({ documents: corpus.issues, documentFrequency: (term) => corpus.documents.get(term) ?? 0 });
  const label = labelCluster(centroid, members, cluster, idf, (term) => corpus.surface.get(term) ?? term);
  await setIssueClusterLabel(tx, cluster.id, { ...label, size: cluster.issues });
}

/**
 * Clusters the organization's issues again from scratch (see `recluster`): the result depends on
 * the issues, not on the order they came in. Clusters keep their ids where they keep most of
 * their members; every cluster is labelled again. Computed outside the write transaction and
 * applied only if no issue changed meanwhile. After three plans overtaken by new issues it is left
 * to the next consolidation (the organization's next quiet moment, or the hourly sweep, which
 * finds it still behind): planned inside the transaction, it would hold the database's writer
 * for the seconds the planning takes, and for as long as the embedding thread, if that hangs.
 */
export async function consolidateClusters(deps: ContentDeps, organizationId: string): Promise<'unchanged' | 'consolidated' | 'overtaken'> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const plan = await planConsolidation(deps.db, organizationId);
    if (!plan) return 'unchanged';
    const applied = await deps.db.transaction(async (tx) => {
      if ((await corpusCounts(tx, organizationId, [])).version !== plan.version) return false;
      await applyConsolidation(tx, organizationId, plan);
      return true;
    }, corpusWrites(organizationId));
    if (applied) return 'consolidated';
  }
  log.info('consolidation overtaken by new issues three times: left to the next one', { organizationId });
  return 'overtaken';
}

type Plan = NonNullable<Awaited<ReturnType<typeof planConsolidation>>>;

async function planConsolidation(db: ContentDeps['db'], organizationId: string) {
  const corpus = await corpusCounts(db, organizationId, []);
  if (corpus.version === corpus.consolidatedVersion) return undefined;
  const stored = await issuesOfOrganization(db, organizationId);
  const embeddings =
    stored.length <= graphLimit
      ? await issueEmbeddings(stored).catch((error: unknown) => void log.warn('issue clustering uses words only this time: embedding failed', errorFields(error)))
      : undefined;
  const toConsolidate = stored.map((issue) => ({
    id: issue.id,
    // Issues are visited in orders given by their content (never their arrival, nor their ids).
    key: createHash('sha1')
      .update(JSON.stringify([Object.entries(issue.terms).sort(), issue.conversationId, issue.title]))
      .digest('hex'),
    terms: issue.terms,
    ...(embeddings && { embedding: embeddings.get(issue.id)!, text: issueText(issue) }),
  }));
  toConsolidate.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const { groups, vectors } = await runInPool<Consolidation>(consolidationTasks, 'consolidateIssues', toConsolidate, `Consolidating the ${stored.length} issues of organization ${organizationId}`, {
    limitMs: consolidationLimitMs,
  });
  const issues = stored.map((issue) => ({ id: issue.id, clusterId: issue.clusterId, vector: vectors[issue.id]! }));
  return { version: corpus.version, issues, groups };
}

async function applyConsolidation(tx: Transaction, organizationId: string, plan: Plan): Promise<void> {
  const byId = new Map(plan.issues.map((issue) => [issue.id, issue]));
  const existing = new Set(await organizationClusterIds(tx, organizationId));
  const kept = new Set<string>();
  const changed = new Set<string>();
  const sizes = new Map<string, number>();
  for (const issue of plan.issues) if (issue.clusterId) sizes.set(issue.clusterId, (sizes.get(issue.clusterId) ?? 0) + 1);
  const groups = [...plan.groups].sort((a, b) => b.length - a.length);
  for (const group of groups) {
    const overlap = new Map<string, number>();
    for (const id of group) {
      const clusterId = byId.get(id)!.clusterId;
      if (clusterId && existing.has(clusterId) && !kept.has(clusterId)) overlap.set(clusterId, (overlap.get(clusterId) ?? 0) + 1);
    }
    const reused = [...overlap].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
    const clusterId = reused ?? (await insertIssueCluster(tx, organizationId, now()));
    kept.add(clusterId);
    if (!reused || overlap.get(clusterId) !== group.length || sizes.get(clusterId) !== group.length) changed.add(clusterId);
    const centroid: TermVector = {};
    for (const id of group) {
      const issue = byId.get(id)!;
      addInto(centroid, issue.vector);
      if (issue.clusterId !== clusterId) await setIssueCluster(tx, id, clusterId);
    }
    await replaceCentroid(tx, organizationId, clusterId, centroid);
  }
  for (const clusterId of existing) if (!kept.has(clusterId)) await deleteIssueCluster(tx, clusterId);
  // Only clusters whose members changed: the others keep their label and updatedAt.
  for (const clusterId of changed) {
    const cluster = await recountIssueCluster(tx, clusterId);
    if (cluster) await relabel(tx, cluster);
  }
  await markCorpusConsolidated(tx, organizationId, plan.version);
}

/** A conversation by the id it was posted with (an id holding personal data is stored as its hash). */
export function readConversation(db: Queryable, organizationId: string, id: string): Promise<ConversationRecord> {
  return getConversation(db, organizationId, storedConversationId(organizationId, id));
}
