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

/**
 * The weights issues are compared by: the inverse document frequency, but nothing for a word only
 * one issue has. Such a word can match no other issue and only lengthens its issue's vector, so a
 * long message full of its own details (names, backstory, typos) would never reach the join
 * threshold with the few words it shares with its topic.
 */
export const matchingIdfOf = (corpus: Corpus) => {
  const idf = idfOf(corpus);
  return (term: string) => (corpus.documentFrequency(term) <= 1 ? 0 : idf(term));
};

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
