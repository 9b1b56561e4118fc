/**
 * Issue clustering by TF-IDF cosine similarity. An issue is a bag of stems; its vector is
 * sublinear term frequency (1 + ln count), unit length. A cluster's centroid is the sum of its
 * members' vectors. Similarity weights both by the organization's current inverse document
 * frequencies, so words every issue uses ("login", "page") count for little as the corpus grows.
 */

export type TermVector = Record<string, number>;

/** How many issues the organization has, and in how many of them each stem appears. */
export interface Corpus {
  documents: number;
  documentFrequency(term: string): number;
}

/** An issue joins the most similar cluster when the similarity reaches this; else it starts one. */
export const joinThreshold = 0.15;
/** Two clusters whose centroids are this similar are one topic. */
export const mergeThreshold = 0.25;

export function termVector(counts: Record<string, number>): TermVector {
  const vector: TermVector = {};
  let norm = 0;
  for (const [term, count] of Object.entries(counts)) {
    const weight = 1 + Math.log(count);
    vector[term] = weight;
    norm += weight * weight;
  }
  norm = Math.sqrt(norm) || 1;
  for (const term of Object.keys(vector)) vector[term]! /= norm;
  return vector;
}

export const idfOf = (corpus: Corpus) => (term: string) => Math.log((corpus.documents + 1) / (corpus.documentFrequency(term) + 1)) + 1;

/** Cosine of two vectors weighted by `idf`; the smaller one is walked. */
export function similarity(a: TermVector, b: TermVector, idf: (term: string) => number): number {
  const [small, large] = Object.keys(a).length <= Object.keys(b).length ? [a, b] : [b, a];
  let dot = 0;
  for (const [term, weight] of Object.entries(small)) {
    const other = large[term];
    if (other !== undefined) dot += weight * other * idf(term) ** 2;
  }
  if (dot === 0) return 0;
  return dot / (weightedNorm(a, idf) * weightedNorm(b, idf));
}

function weightedNorm(vector: TermVector, idf: (term: string) => number): number {
  let sum = 0;
  for (const [term, weight] of Object.entries(vector)) sum += (weight * idf(term)) ** 2;
  return Math.sqrt(sum) || 1;
}

export function addInto(sum: TermVector, vector: TermVector, sign = 1): TermVector {
  for (const [term, weight] of Object.entries(vector)) {
    const next = (sum[term] ?? 0) + sign * weight;
    if (Math.abs(next) < 1e-9) delete sum[term];
    else sum[term] = next;
  }
  return sum;
}

export interface Candidate {
  id: string;
  centroid: TermVector;
}

/** The most similar candidate, if similar enough to join. */
export function nearest(vector: TermVector, candidates: Iterable<Candidate>, idf: (term: string) => number, threshold = joinThreshold): { id: string; similarity: number } | undefined {
  let best: { id: string; similarity: number } | undefined;
  for (const candidate of candidates) {
    const score = similarity(vector, candidate.centroid, idf);
    if (score >= threshold && (!best || score > best.similarity || (score === best.similarity && candidate.id < best.id))) best = { id: candidate.id, similarity: score };
  }
  return best;
}

export interface ClusteringItem {
  id: string;
  vector: TermVector;
}

/**
 * Clusters the whole set again, in a way that depends on the set and not on the order issues
 * arrived in: one pass in `items`' order (callers sort by content), then rounds of reassigning
 * every issue to its nearest centroid (an issue near none starts its own cluster: incoherent
 * clusters split) and merging centroids that drifted together, until nothing moves. Returns the
 * groups of issue ids.
 */
export function recluster(items: ClusteringItem[], idf: (term: string) => number, rounds = 8): string[][] {
  const centroids = new Map<number, TermVector>();
  const assignment = new Map<string, number>();
  let next = 0;
  for (const item of items) {
    const best = nearest(item.vector, [...centroids].map(([id, centroid]) => ({ id: String(id), centroid })), idf);
    const group = best ? Number(best.id) : next++;
    centroids.set(group, addInto(centroids.get(group) ?? {}, item.vector));
    assignment.set(item.id, group);
  }
  for (let round = 0; round < rounds; round += 1) {
    let moved = mergeClose(centroids, assignment, idf);
    const candidates = [...centroids].map(([id, centroid]) => ({ id: String(id), centroid }));
    const reassigned = new Map<string, number>();
    for (const item of items) {
      const best = nearest(item.vector, candidates, idf);
      const group = best ? Number(best.id) : next++;
      if (group !== assignment.get(item.id)) moved = true;
      reassigned.set(item.id, group);
    }
    centroids.clear();
    for (const item of items) {
      const group = reassigned.get(item.id)!;
      centroids.set(group, addInto(centroids.get(group) ?? {}, item.vector));
    }
    for (const [id, group] of reassigned) assignment.set(id, group);
    if (!moved) break;
  }
  const groups = new Map<number, string[]>();
  for (const item of items) {
    const group = assignment.get(item.id)!;
    groups.set(group, [...(groups.get(group) ?? []), item.id]);
  }
  return [...groups.values()];
}

/**
 * Merges centroids above the threshold, most similar pairs first, each cluster at most once per
 * call (the centroids moved; the next round looks again); whether any merged.
 */
function mergeClose(centroids: Map<number, TermVector>, assignment: Map<string, number>, idf: (term: string) => number): boolean {
  const ids = [...centroids.keys()].sort((x, y) => x - y);
  const pairs: Array<{ a: number; b: number; score: number }> = [];
  for (let i = 0; i < ids.length; i += 1) {
    for (let j = i + 1; j < ids.length; j += 1) {
      const score = similarity(centroids.get(ids[i]!)!, centroids.get(ids[j]!)!, idf);
      if (score >= mergeThreshold) pairs.push({ a: ids[i]!, b: ids[j]!, score });
    }
  }
  pairs.sort((x, y) => y.score - x.score || x.a - y.a || x.b - y.b);
  const touched = new Set<number>();
  const into = new Map<number, number>();
  for (const { a, b } of pairs) {
    if (touched.has(a) || touched.has(b)) continue;
    touched.add(a).add(b);
    addInto(centroids.get(a)!, centroids.get(b)!);
    centroids.delete(b);
    into.set(b, a);
  }
  for (const [id, group] of assignment) if (into.has(group)) assignment.set(id, into.get(group)!);
  return into.size > 0;
}
