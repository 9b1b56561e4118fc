import { createHash } from 'node:crypto';
import { addInto, idfOf, nearest, type TermVector } from '../../domain/conversations/clustering.js';
import { consolidateIssues } from '../../domain/conversations/consolidationTasks.js';
import { embedTexts, issueText } from '../../domain/conversations/embedding.js';
import { extractIssuesLocally } from '../../domain/conversations/extractIssues.js';
import { issueTerms } from '../../domain/conversations/issueTerms.js';
import { adjustedRandIndex, purity } from './clusterQuality.js';

/**
 * The clustering of `domain/conversations` run in memory on a labelled set, without a server: the
 * same extraction, terms, candidate lookup and join rule as `processConversation`, and the same
 * consolidation. For tuning; the API suite checks the real path.
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
  vector: TermVector;
}

const candidateCount = 8;
const centroidTerms = 200;
const lookupTerms = 12;

function issuesOf(conversations: Labelled[]): Issue[] {
  return conversations.flatMap((conversation) =>
    extractIssuesLocally(conversation)
      .slice(0, 1)
      .map((issue) => ({ id: conversation.id, topic: conversation.topic, text: issueText(issue), ...issueTerms(conversation, issue, true) })),
  );
}

function heaviest(centroid: TermVector, top: number): TermVector {
  return Object.fromEntries(Object.entries(centroid).sort((a, b) => b[1] - a[1]).slice(0, top));
}

/** Clusters as the issues arrive, one at a time. */
export function arrived(conversations: Labelled[]): Map<string, string> {
  const documents = new Map<string, number>();
  let count = 0;
  const centroids = new Map<string, TermVector>();
  const assignment = new Map<string, string>();
  for (const issue of issuesOf(conversations)) {
    count += 1;
    for (const term of Object.keys(issue.counts)) documents.set(term, (documents.get(term) ?? 0) + 1);
    const idf = idfOf({ documents: count, documentFrequency: (term) => documents.get(term) ?? 0 });
    const lookup = Object.entries(issue.vector)
      .map(([term, weight]) => ({ term, weight: weight * idf(term) ** 2 }))
      .sort((a, b) => b.weight - a.weight)
      .slice(0, lookupTerms);
    const scored = [...centroids]
      .map(([id, centroid]) => ({ id, score: lookup.reduce((sum, { term, weight }) => sum + (centroid[term] ?? 0) * weight, 0), shares: lookup.some(({ term }) => term in centroid) }))
      .filter((candidate) => candidate.shares)
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, candidateCount);
    const best = nearest(issue.vector, scored.map(({ id }) => ({ id, centroid: heaviest(centroids.get(id)!, centroidTerms) })), idf);
    const clusterId = best?.id ?? `c${centroids.size}`;
    centroids.set(clusterId, addInto(centroids.get(clusterId) ?? {}, issue.vector));
    assignment.set(issue.id, clusterId);
  }
  return assignment;
}

/** Embeddings by text, kept for the process: the suites embed the same issues again in subsets. */
const embeddedTexts = new Map<string, Float32Array>();

/** The issues' embeddings by conversation id, as consolidation gets them (none without the model). */
export async function embeddingsOf(conversations: Labelled[]): Promise<Map<string, Float32Array> | undefined> {
  const issues = issuesOf(conversations);
  const missing = [...new Set(issues.map((issue) => issue.text).filter((text) => !embeddedTexts.has(text)))];
  const vectors = await embedTexts(missing);
  if (!vectors) return undefined;
  missing.forEach((text, i) => embeddedTexts.set(text, vectors[i]!));
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
    key: createHash('sha1').update(JSON.stringify([Object.entries(issue.counts).sort(), issue.id, salt])).digest('hex'),
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
