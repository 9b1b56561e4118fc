import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { consolidateIssues } from '../../domain/conversations/consolidationTasks.js';
import { configuredExtractor, processPendingConversations } from '../../domain/conversations/conversations.js';
import { embedTexts, issueText, modelFolder } from '../../domain/conversations/embedding.js';
import { extractIssuesLocally } from '../../domain/conversations/extractIssues.js';
import { issueTerms } from '../../domain/conversations/issueTerms.js';
import { issuesOfConversation, upsertConversation } from '../../storage/conversations.js';
import { adjustedRandIndex, purity } from './clusterQuality.js';
import { organization, testDatabase } from './factories.js';
import { projectRoot } from './processes.js';

/**
 * The clustering of `domain/conversations` scored on a labelled set: as the conversations arrive,
 * by the production code itself over a database of its own; and consolidated, by the production
 * consolidation on the issues the local extraction finds. The API suite checks the whole path
 * (redaction, jobs) on the first set.
 */
export interface Labelled {
  id: string;
  topic: string;
  subject: string;
  parts: Array<{ type: string; role: string; body: string }>;
}

export interface Figures {
  rand: number;
  purity: number;
  clusters: number;
  /** Issues found in conversations labelled `none`. */
  strayIssues: number;
  /** Conversations with a topic where no issue was found. */
  missedIssues: number;
}

interface Issue {
  id: string;
  topic: string;
  text: string;
  counts: Record<string, number>;
}

function issuesOf(conversations: Labelled[]): Issue[] {
  return conversations.flatMap((conversation) =>
    extractIssuesLocally(conversation)
      .slice(0, 1)
      .map((issue) => ({ id: conversation.id, topic: conversation.topic, text: issueText(issue), counts: issueTerms(conversation, issue, true).counts })),
  );
}

/**
 * Clusters as the conversations arrive, one at a time in this order: each stored and processed by
 * the conversations job's own command (processPendingConversations), in a database of its own. A
 * conversation counts in the cluster of its first issue.
 */
export async function arrived(conversations: Labelled[]): Promise<Map<string, string>> {
  const store = await testDatabase('arrival');
  try {
    const { organization: made } = await organization(store.db, 'Support');
    const extractor = configuredExtractor({ local: true });
    const assignment = new Map<string, string>();
    for (const conversation of conversations) {
      await store.db.transaction((tx) => upsertConversation(tx, made.id, { id: conversation.id, source: 'labelled', subject: conversation.subject, parts: conversation.parts, metadata: {} }));
      await processPendingConversations({ db: store.db }, made.id, extractor, 1);
    }
    for (const conversation of conversations) {
      const first = extractIssuesLocally(conversation)[0];
      const issues = await issuesOfConversation(store.db, made.id, conversation.id);
      const issue = issues.find((stored) => stored.title === first?.title) ?? issues[0];
      if (issue?.clusterId) assignment.set(conversation.id, issue.clusterId);
    }
    return assignment;
  } finally {
    await store.close();
  }
}

/** Embeddings by text, kept for the process: the suites embed the same issues again in subsets. */
const embeddedTexts = new Map<string, Float32Array>();

/**
 * Embeddings kept between runs, by the hash of the model that made them (its weights and
 * tokenizer): the labelled sets' issues are embedded once per model, not on every run (about 45 s
 * of CPU). In QUIRE_TEST_CACHE_DIR (`.ci/run` keeps it outside the clone), else .cache/test.
 */
const diskCache = (() => {
  let loaded: { file: string; vectors: Record<string, string> } | undefined;
  const textKey = (text: string) => createHash('sha256').update(text).digest('base64url');
  const load = () => {
    if (loaded) return loaded;
    const folder = modelFolder();
    const model = createHash('sha256');
    for (const name of ['model.onnx', 'tokenizer.json']) model.update(folder && existsSync(path.join(folder, name)) ? readFileSync(path.join(folder, name)) : '');
    const file = path.join(process.env.QUIRE_TEST_CACHE_DIR ?? path.join(projectRoot, '.cache', 'test'), `embeddings-${model.digest('hex').slice(0, 16)}.json`);
    loaded = { file, vectors: existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {} };
    return loaded;
  };
  return {
    get(text: string): Float32Array | undefined {
      const stored = load().vectors[textKey(text)];
      return stored === undefined ? undefined : new Float32Array(new Uint8Array(Buffer.from(stored, 'base64')).buffer);
    },
    keep(entries: Array<[string, Float32Array]>) {
      const cache = load();
      for (const [text, vector] of entries) cache.vectors[textKey(text)] = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
      mkdirSync(path.dirname(cache.file), { recursive: true });
      const partial = `${cache.file}.${process.pid}`;
      writeFileSync(partial, JSON.stringify(cache.vectors));
      renameSync(partial, cache.file);
    },
  };
})();

/** The issues' embeddings by conversation id, as consolidation gets them (none without the model). */
export async function embeddingsOf(conversations: Labelled[]): Promise<Map<string, Float32Array> | undefined> {
  const issues = issuesOf(conversations);
  for (const issue of issues) {
    const kept = embeddedTexts.has(issue.text) ? undefined : diskCache.get(issue.text);
    if (kept) embeddedTexts.set(issue.text, kept);
  }
  const missing = [...new Set(issues.map((issue) => issue.text).filter((text) => !embeddedTexts.has(text)))];
  if (missing.length) {
    const vectors = await embedTexts(missing);
    if (!vectors) return undefined;
    missing.forEach((text, i) => embeddedTexts.set(text, vectors[i]!));
    if (missing.length) diskCache.keep(missing.map((text, i) => [text, vectors[i]!]));
  }
  return new Map(issues.map((issue) => [issue.id, embeddedTexts.get(issue.text)!]));
}

/**
 * Clusters the whole set again, as consolidation does (the worker pool's task, given what planConsolidation gives it); `salt` changes the issues' keys, and so the
 * orders the runs visit them in. With `embeddings` (embeddingsOf), similarity mixes them in.
 */
export function consolidated(conversations: Labelled[], salt = '', embeddings?: Map<string, Float32Array>): Map<string, string> {
  const issues = issuesOf(conversations).map((issue) => ({
    id: issue.id,
    terms: issue.counts,
    key: createHash('sha1')
      .update(JSON.stringify([Object.entries(issue.counts).sort(), issue.id, salt]))
      .digest('hex'),
    ...(embeddings?.has(issue.id) && { embedding: embeddings.get(issue.id)!, text: issue.text }),
  }));
  issues.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const assignment = new Map<string, string>();
  consolidateIssues(issues).groups.forEach((group, i) => group.forEach((id) => assignment.set(id, `g${i}`)));
  return assignment;
}

export function figures(conversations: Labelled[], assignment: Map<string, string>): Figures {
  const topical = conversations.filter((conversation) => conversation.topic !== 'none');
  const labels = topical.map((conversation) => conversation.topic);
  // A topical conversation without an issue counts as a cluster of its own.
  const clusters = topical.map((conversation) => assignment.get(conversation.id) ?? `missing:${conversation.id}`);
  return {
    rand: adjustedRandIndex(labels, clusters),
    purity: purity(labels, clusters),
    clusters: new Set([...assignment.values()]).size,
    strayIssues: conversations.filter((conversation) => conversation.topic === 'none' && assignment.has(conversation.id)).length,
    missedIssues: topical.filter((conversation) => !assignment.has(conversation.id)).length,
  };
}

export function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i -= 1) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
