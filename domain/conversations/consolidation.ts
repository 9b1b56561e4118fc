import { createHash } from 'node:crypto';
import { UndirectedGraph } from 'graphology';
import louvainModule from 'graphology-communities-louvain';
import { matchingIdfOf, mergeThreshold, termVector, type TermVector } from './clustering.js';
import { alignedToEnglish } from './languageAlignment.js';
import { foldCounts, typoFolding } from './typos.js';

/**
 * Consolidation: an organization's issues clustered again from scratch, so that the result depends
 * on the set of issues and not on the order they arrived in. Pure and CPU-bound: it runs in the
 * worker pool (consolidationTasks.ts).
 */
export interface IssueToConsolidate {
  id: string;
  /** Sets the issue's place in the orders the runs visit issues in: made from its content. */
  key: string;
  terms: Record<string, number>;
  /** The issue's sentence embedding (unit length), when the model is there: with it, similarity mixes meaning and words. */
  embedding?: Float32Array;
  /** False when the issue's text reads as another language (readsAsEnglish): its embedding is then moved to English's side (languageAlignment.ts). */
  english?: boolean;
}

export interface Consolidation {
  groups: string[][];
  /** Each issue's vector as clustered, misspellings folded: the centroids are their sums. */
  vectors: Record<string, TermVector>;
}

/**
 * The groups, by consensus. One run of `recluster` depends on the order it visits issues in
 * (measured on the first labelled set: ARI 0.60 to 0.90 for ten orders of the same 64 issues), so it
 * runs in several orders, each set by the issues' keys, and keeps the run that agrees best with
 * the others (their medoid by adjusted Rand index: on the labelled sets, steadier and better than
 * linking issues most runs put together, which chains topics). An issue left alone then joins the
 * nearest larger group if it would have joined it as a cluster. Misspellings are folded across
 * the whole set first, and words only one issue has weigh nothing (`matchingIdfOf`).
 */
export function consolidate(issues: IssueToConsolidate[], runs = consensusRuns(issues.length)): Consolidation {
  const folding = typoFolding(documentFrequencies(issues.map((issue) => issue.terms)));
  const folded = issues.map((issue) => foldCounts(issue.terms, folding));
  const documents = documentFrequencies(folded);
  const idf = matchingIdfOf({ documents: issues.length, documentFrequency: (term) => documents.get(term) ?? 0 });
  const vectors = folded.map((terms) => termVector(terms));
  // Past graphLimit, words alone: centroid runs over dense vectors cost n × clusters × 768 a pass.
  const mixed = issues.length > 0 && issues.length <= graphLimit && issues.every((issue) => issue.embedding?.length);
  const embeddings = mixed
    ? alignedToEnglish(
        issues.map((issue) => issue.embedding!),
        issues.map((issue) => issue.english !== false),
      )
    : [];
  const weighted = vectors.map((vector, index) => (mixed ? withMeaning(weigh(vector, idf), embeddings[index]!) : weigh(vector, idf)));
  if (mixed) {
    const groups = neighbourCommunities(weighted);
    return {
      groups: groups.map((members) => members.map((index) => issues[index]!.id)),
      vectors: Object.fromEntries(issues.map((issue, index) => [issue.id, vectors[index]!])),
    };
  }

  const labels: Int32Array[] = [];
  for (let run = 0; run < runs; run += 1) {
    const order = issues.map((issue, index) => ({ index, key: run === 0 ? issue.key : createHash('sha1').update(`${run}:${issue.key}`).digest('hex') }));
    order.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index));
    labels.push(
      recluster(
        order.map(({ index }) => index),
        weighted,
      ),
    );
  }
  // The run that agrees best with all the others (the medoid partition).
  let chosen = labels[0]!;
  let best = -Infinity;
  for (const candidate of labels) {
    const agreement = labels.reduce((sum, other) => sum + (other === candidate ? 0 : adjustedRandIndex(candidate, other)), 0);
    if (agreement > best) [best, chosen] = [agreement, candidate];
  }
  const groups = absorbSingletons(membersByLabel(chosen), weighted);
  return {
    groups: groups.map((members) => members.map((index) => issues[index]!.id)),
    vectors: Object.fromEntries(issues.map((issue, index) => [issue.id, vectors[index]!])),
  };
}

/**
 * An issue joins a centroid at this similarity when the whole set is clustered again: above the
 * 0.15 an arriving issue joins at, because without the words only one issue has, similarities run
 * higher (on the labelled sets, 0.18 gave both better agreement and purer clusters than 0.15).
 */
export const regroupThreshold = 0.18;

/**
 * With embeddings, the similarity of two issues is `meaningShare` × the cosine of their embeddings
 * + the rest × the cosine of their weighted words: each vector is its words scaled to length
 * √(1 − share) beside its embedding scaled to √share. Chosen on the first two labelled sets (the
 * other two only scored): see docs/decisions/conversations.md.
 */
export const meaningShare = 0.8;

/**
 * With embeddings and up to this many issues, the groups are the communities of the issues'
 * nearest-neighbour graph (neighbourCommunities). It needs n × n matrices: the issues'
 * similarities, the splits' votes and their merge (about 64 MB at 2,000); past that, the centroid
 * runs below, by words alone.
 */
export const graphLimit = 2000;
// A CommonJS module: its default import is the function its types declare as `default`.
const louvain = louvainModule as unknown as typeof louvainModule.default;
/**
 * The neighbourhood sizes of the partitions the groups are a consensus of: each issue linked to
 * this many of its most similar others. No one size carries from one organization to the next
 * (measured on the labelled sets: the unseen set's ARI went 0.58, 0.60, 0.49 at 12, 16 and 20
 * neighbours, the blind set's 0.56, 0.55, 0.57), so the groups are what the partitions over all of
 * them agree on.
 */
export const graphNeighbourCounts = [6, 8, 10, 12, 14, 16, 20, 24, 32];
/** Louvain's random walks per neighbourhood size: each is seeded, so the same issues make the same groups. */
export const walksPerGraph = 2;
/** Louvain's resolution: above 1, more and smaller communities than plain modularity would make. */
export const graphResolution = 2;
/** Two groups of the consensus merge while their members were in one community in this share of the partitions, on average. */
export const consensusShare = 0.4;

/**
 * The issues' communities, by consensus. Each partition links each issue to its most similar
 * others (each link weighing its similarity), splits the graph by Louvain's modularity at
 * `graphResolution`, then merges communities while their members are `communityMergeThreshold`
 * similar on average. The partitions, over every neighbourhood size in `graphNeighbourCounts` and
 * `walksPerGraph` seeded walks each, then vote: two issues are as close as the share of partitions
 * that put them together, and groups merge by average linkage while that reaches `consensusShare`.
 * A fixed similarity cut (average linkage at 0.17, before) did not carry from one organization to
 * another: it chained one labelled set's topics together (purity 0.59) and split another's into 22
 * clusters; communities of the neighbour graph follow each set's own density, and the vote evens
 * out the one size they depend on (docs/decisions/conversations.md). Groups in the order of their first member.
 */
function neighbourCommunities(weighted: Weighted[]): number[][] {
  const n = weighted.length;
  const similarity = new Float32Array(n * n).fill(-Infinity);
  for (let i = 0; i < n; i += 1) {
    for (let j = i + 1; j < n; j += 1) {
      const computed = cosine(weighted[i]!, weighted[j]!);
      const value = Number.isFinite(computed) ? computed : -Infinity;
      similarity[i * n + j] = value;
      similarity[j * n + i] = value;
    }
  }
  // Each issue's most similar others, most similar first: every neighbourhood size takes its first ones.
  const neighbours = Array.from({ length: n }, (_, i) => mostSimilar(similarity.subarray(i * n, (i + 1) * n), Math.max(...graphNeighbourCounts)));
  const together = new Float32Array(n * n);
  const partitions = graphNeighbourCounts.length * walksPerGraph;
  for (const count of graphNeighbourCounts) {
    const graph = new UndirectedGraph();
    for (let i = 0; i < n; i += 1) graph.addNode(String(i));
    for (let i = 0; i < n; i += 1) {
      for (const j of neighbours[i]!.slice(0, count)) {
        const value = similarity[i * n + j]!;
        if (value > 0) graph.mergeUndirectedEdge(String(Math.min(i, j)), String(Math.max(i, j)), { weight: value });
      }
    }
    for (let walk = 1; walk <= walksPerGraph; walk += 1) {
      const communities = louvain(graph, { resolution: graphResolution, getEdgeWeight: 'weight', rng: seededRandom(walk) });
      const groups = mergeSimilarGroups(membersByLabel(Int32Array.from({ length: n }, (_, i) => communities[String(i)]!)), similarity, n, communityMergeThreshold);
      for (const members of groups) for (const i of members) for (const j of members) together[i * n + j]! += 1 / partitions;
    }
  }
  return mergeSimilarGroups(
    Array.from({ length: n }, (_, i) => [i]),
    together,
    n,
    consensusShare,
  );
}

/**
 * Communities whose members' pairs are this similar on average are merged afterwards: above 1,
 * Louvain's resolution splits a graph that is all one topic (a small organization, or one whose
 * issues are mostly about one thing) into singletons, since one community then scores below many.
 */
export const communityMergeThreshold = 0.2;

/**
 * Average linkage over groups: two groups merge, most similar pair first (nearest-neighbour chain),
 * while the mean similarity of their members' pairs reaches `threshold`. Groups in the order of
 * their first member.
 */
function mergeSimilarGroups(groups: number[][], itemSimilarity: Float32Array, n: number, threshold: number): number[][] {
  const g = groups.length;
  const similarity = new Float64Array(g * g);
  for (let a = 0; a < g; a += 1) {
    for (let b = a + 1; b < g; b += 1) {
      let sum = 0;
      for (const i of groups[a]!) for (const j of groups[b]!) sum += Number.isFinite(itemSimilarity[i * n + j]!) ? itemSimilarity[i * n + j]! : 0;
      const mean = sum / (groups[a]!.length * groups[b]!.length);
      similarity[a * g + b] = mean;
      similarity[b * g + a] = mean;
    }
  }
  const size = Int32Array.from(groups, (members) => members.length);
  const active = new Uint8Array(g).fill(1);
  const parent = Int32Array.from({ length: g }, (_, a) => a);
  const root = (a: number): number => (parent[a] === a ? a : (parent[a] = root(parent[a]!)));
  const chain: number[] = [];
  for (let remaining = g; remaining > 1;) {
    if (chain.length === 0) chain.push(active.indexOf(1));
    const a = chain[chain.length - 1]!;
    const previous = chain.length > 1 ? chain[chain.length - 2]! : -1;
    let b = previous;
    let best = previous >= 0 ? similarity[a * g + previous]! : -Infinity;
    for (let c = 0; c < g; c += 1) {
      if (c === a || !active[c]) continue;
      if (similarity[a * g + c]! > best) [best, b] = [similarity[a * g + c]!, c];
    }
    if (b !== previous) {
      chain.push(b);
      continue;
    }
    chain.length -= 2;
    // a and b are each other's nearest: b joins a (kept apart below the threshold, but the tree goes on).
    if (best >= threshold) parent[root(b)] = root(a);
    for (let c = 0; c < g; c += 1) {
      if (!active[c] || c === a || c === b) continue;
      const value = (size[a]! * similarity[a * g + c]! + size[b]! * similarity[b * g + c]!) / (size[a]! + size[b]!);
      similarity[a * g + c] = value;
      similarity[c * g + a] = value;
    }
    size[a]! += size[b]!;
    active[b] = 0;
    remaining -= 1;
  }
  const labels = new Int32Array(n);
  groups.forEach((members, a) => members.forEach((i) => (labels[i] = root(a))));
  return membersByLabel(labels);
}

/** The indices of the `count` largest values, largest first (ties: the lower index). */
function mostSimilar(values: Float32Array, count: number): number[] {
  const top: number[] = [];
  for (let j = 0; j < values.length; j += 1) {
    if (values[j] === -Infinity) continue;
    if (top.length === count && values[j]! <= values[top[count - 1]!]!) continue;
    let at = Math.min(top.length, count - 1);
    top[at] = j;
    for (; at > 0 && values[top[at - 1]!]! < values[j]!; at -= 1) [top[at], top[at - 1]] = [top[at - 1]!, top[at]!];
  }
  return top;
}

/** Mulberry32: Louvain's random walk, the same on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function cosine(a: Weighted, b: Weighted): number {
  if (a.norm === 0 || b.norm === 0) return 0;
  let dot = sparseDot(a.terms, b.terms);
  if (a.dense && b.dense) for (let d = 0; d < a.dense.length; d += 1) dot += a.dense[d]! * b.dense[d]!;
  return dot / (a.norm * b.norm);
}

/** The dot product of two sparse vectors, walking the smaller. */
function sparseDot(a: Map<string, number>, b: Map<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [term, value] of small) {
    const match = large.get(term);
    if (match !== undefined) dot += value * match;
  }
  return dot;
}

function withMeaning(words: Weighted, embedding: Float32Array): Weighted {
  const scale = words.norm > 0 ? Math.sqrt(1 - meaningShare) / words.norm : 0;
  const terms = new Map<string, number>();
  for (const [term, value] of words.terms) terms.set(term, value * scale);
  const dense = new Float64Array(embedding.length);
  const meaning = Math.sqrt(meaningShare);
  let denseSquared = 0;
  for (let d = 0; d < embedding.length; d += 1) {
    dense[d] = embedding[d]! * meaning;
    denseSquared += dense[d]! * dense[d]!;
  }
  return { terms, dense, norm: Math.sqrt((words.norm > 0 ? 1 - meaningShare : 0) + denseSquared) };
}

/**
 * How many orders are tried: fewer for a large organization, where one run costs more (measured:
 * 80 ms for 1,000 issues, 0.5 s for 3,000, 2.5 s for 10,000), so that a consolidation stays within
 * seconds; past 30,000 issues, one run.
 */
export const consensusRuns = (issues: number) => (issues <= 1000 ? 21 : issues <= 3000 ? 7 : issues <= 10_000 ? 3 : issues <= 30_000 ? 2 : 1);

/** A vector weighted by the matching idf, with its length: a similarity is then a dot product over the shorter side. */
interface Weighted {
  terms: Map<string, number>;
  /** The scaled embedding, when similarity mixes in meaning (withMeaning). */
  dense?: Float64Array;
  norm: number;
}

function weigh(vector: TermVector, idf: (term: string) => number): Weighted {
  const terms = new Map<string, number>();
  let sum = 0;
  for (const [term, weight] of Object.entries(vector)) {
    const value = weight * idf(term);
    if (value === 0) continue;
    terms.set(term, value);
    sum += value * value;
  }
  return { terms, norm: Math.sqrt(sum) };
}

/** A cluster's centroid: the sum of its members' weighted vectors, its length kept as they come and go. */
class Centroid {
  readonly terms = new Map<string, number>();
  private normSquared = 0;

  add(vector: Weighted | Centroid, sign = 1): this {
    for (const [term, value] of vector.terms) {
      const before = this.terms.get(term) ?? 0;
      const after = before + sign * value;
      this.normSquared += after * after - before * before;
      if (Math.abs(after) < 1e-9) this.terms.delete(term);
      else this.terms.set(term, after);
    }
    return this;
  }

  cosine(other: Weighted | Centroid): number {
    const norm = other instanceof Centroid ? other.norm() : other.norm;
    if (norm === 0 || this.norm() === 0) return 0;
    return sparseDot(this.terms, other.terms) / (norm * this.norm());
  }

  norm(): number {
    return Math.sqrt(Math.max(this.normSquared, 0));
  }
}

/**
 * One run: one pass in `order` (each issue joins its nearest cluster or starts one), then rounds
 * of merging centroids that drifted together and reassigning every issue to its nearest centroid
 * (an issue near none starts its own cluster: incoherent clusters split), until nothing moves.
 * Returns each issue's cluster number, by index.
 */
export function recluster(order: number[], weighted: Weighted[], rounds = 8): Int32Array {
  const assignment = new Int32Array(weighted.length);
  let centroids = new Map<number, Centroid>();
  let next = 0;
  for (const index of order) {
    const group = nearestCentroid(weighted[index]!, centroids) ?? next++;
    centroids.set(group, (centroids.get(group) ?? new Centroid()).add(weighted[index]!));
    assignment[index] = group;
  }
  for (let round = 0; round < rounds; round += 1) {
    let moved = mergeClose(centroids, assignment);
    const reassigned = new Int32Array(weighted.length);
    for (const index of order) {
      const group = nearestCentroid(weighted[index]!, centroids) ?? next++;
      if (group !== assignment[index]) moved = true;
      reassigned[index] = group;
    }
    centroids = new Map();
    for (const index of order) {
      const group = reassigned[index]!;
      centroids.set(group, (centroids.get(group) ?? new Centroid()).add(weighted[index]!));
      assignment[index] = group;
    }
    if (!moved) break;
  }
  return assignment;
}

function nearestCentroid(vector: Weighted, centroids: Map<number, Centroid>, threshold = regroupThreshold): number | undefined {
  let best: { group: number; score: number } | undefined;
  for (const [group, centroid] of centroids) {
    const score = centroid.cosine(vector);
    if (score >= threshold && (!best || score > best.score || (score === best.score && group < best.group))) best = { group, score };
  }
  return best?.group;
}

/**
 * Merges centroids above the threshold, most similar pairs first, each cluster at most once per
 * call (the centroids moved; the next round looks again); whether any merged.
 */
function mergeClose(centroids: Map<number, Centroid>, assignment: Int32Array): boolean {
  const ids = [...centroids.keys()].sort((x, y) => x - y);
  const pairs: Array<{ a: number; b: number; score: number }> = [];
  for (let i = 0; i < ids.length; i += 1) {
    for (let j = i + 1; j < ids.length; j += 1) {
      const score = centroids.get(ids[i]!)!.cosine(centroids.get(ids[j]!)!);
      if (score >= mergeThreshold) pairs.push({ a: ids[i]!, b: ids[j]!, score });
    }
  }
  pairs.sort((x, y) => y.score - x.score || x.a - y.a || x.b - y.b);
  const touched = new Set<number>();
  const into = new Map<number, number>();
  for (const { a, b } of pairs) {
    if (touched.has(a) || touched.has(b)) continue;
    touched.add(a).add(b);
    centroids.get(a)!.add(centroids.get(b)!);
    centroids.delete(b);
    into.set(b, a);
  }
  for (let index = 0; index < assignment.length; index += 1) if (into.has(assignment[index]!)) assignment[index] = into.get(assignment[index]!)!;
  return into.size > 0;
}

/** Each issue alone in its group joins the nearest group of several, if it is as similar as joining a cluster asks. */
function absorbSingletons(groups: number[][], weighted: Weighted[]): number[][] {
  const larger = groups.filter((members) => members.length > 1);
  const centroids = new Map(larger.map((members, i) => [i, members.reduce((centroid, index) => centroid.add(weighted[index]!), new Centroid())]));
  const alone: number[][] = [];
  for (const members of groups.filter((group) => group.length === 1)) {
    const into = nearestCentroid(weighted[members[0]!]!, centroids);
    if (into === undefined) alone.push(members);
    else larger[into]!.push(members[0]!);
  }
  return [...larger, ...alone];
}

/** The indices of each label, groups in the order of their first member. */
function membersByLabel(labels: ArrayLike<number>): number[][] {
  const groups = new Map<number, number[]>();
  for (let index = 0; index < labels.length; index += 1) {
    const members = groups.get(labels[index]!);
    if (members) members.push(index);
    else groups.set(labels[index]!, [index]);
  }
  return [...groups.values()];
}

function documentFrequencies(termCounts: Array<Record<string, number>>): Map<string, number> {
  const documents = new Map<string, number>();
  for (const counts of termCounts) for (const term of Object.keys(counts)) documents.set(term, (documents.get(term) ?? 0) + 1);
  return documents;
}

/** How far two partitions agree beyond chance: the adjusted Rand index (Hubert and Arabie). */
function adjustedRandIndex(a: Int32Array, b: Int32Array): number {
  const cells = new Map<string, number>();
  const rows = new Map<number, number>();
  const columns = new Map<number, number>();
  for (let i = 0; i < a.length; i += 1) {
    const cell = `${a[i]}:${b[i]}`;
    cells.set(cell, (cells.get(cell) ?? 0) + 1);
    rows.set(a[i]!, (rows.get(a[i]!) ?? 0) + 1);
    columns.set(b[i]!, (columns.get(b[i]!) ?? 0) + 1);
  }
  const pairs = (n: number) => (n * (n - 1)) / 2;
  const sum = (counts: Map<unknown, number>) => [...counts.values()].reduce((total, n) => total + pairs(n), 0);
  const [index, rowPairs, columnPairs] = [sum(cells), sum(rows), sum(columns)];
  const expected = (rowPairs * columnPairs) / pairs(a.length);
  const max = (rowPairs + columnPairs) / 2;
  return max === expected ? 1 : (index - expected) / (max - expected);
}
