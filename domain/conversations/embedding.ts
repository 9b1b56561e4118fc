import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorFields, log } from '../common/log.js';

/**
 * Sentence embeddings of issues: all-MiniLM-L6-v2, quantized (ONNX; `scripts/embedding-model.sh`
 * fetches it into `models/`), run by onnxruntime on the CPU, mean of its token vectors, unit
 * length. onnxruntime-node runs each text on the event loop (3–5 ms, one setImmediate each). Bags of words miss paraphrase ("a French version of our docs" and "Portuguese variants
 * of the help center" share no term); the model places them close. Loaded by the first issue
 * embedded, never at start; without the model files, clustering uses words alone (logged once).
 */
export const embeddingDimensions = 384;
/** Tokens the model reads of an issue (its limit is 512; an issue's summary is at most 1,000 characters). */
const maxTokens = 256;

type Embedder = (text: string) => Promise<Float32Array>;
let loading: Promise<Embedder | undefined> | undefined;

/** The model's folder: QUIRE_EMBEDDING_MODEL, or `models/all-minilm-l6-v2-q` of the project this file is in (its source or its build). */
function modelFolder(): string | undefined {
  if (process.env.QUIRE_EMBEDDING_MODEL) return process.env.QUIRE_EMBEDDING_MODEL;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)), depth = 0; depth < 5; dir = path.dirname(dir), depth += 1) {
    const candidate = path.join(dir, 'models', 'all-minilm-l6-v2-q');
    if (existsSync(path.join(candidate, 'model.onnx'))) return candidate;
  }
  return undefined;
}

let modelPresent = true;
let missingLogged = false;

async function loadEmbedder(): Promise<Embedder | undefined> {
  const folder = modelFolder();
  modelPresent = !!folder && existsSync(path.join(folder, 'model.onnx')) && existsSync(path.join(folder, 'tokenizer.json'));
  if (!folder || !modelPresent) {
    if (!missingLogged) log.warn('issue clustering uses words only: the embedding model is missing (scripts/embedding-model.sh fetches it)', { folder: folder ?? null });
    missingLogged = true;
    return undefined;
  }
  try {
    const [{ Tokenizer }, ort] = await Promise.all([import('@huggingface/tokenizers'), import('onnxruntime-node')]);
    const tokenizer = new Tokenizer(JSON.parse(readFileSync(path.join(folder, 'tokenizer.json'), 'utf8')), {});
    // One thread: an issue is a few dozen tokens, and the API may share the process.
    const session = await ort.InferenceSession.create(path.join(folder, 'model.onnx'), { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential' });
    const output = session.outputNames[0]!;
    return async (text) => {
      let ids: number[] = tokenizer.encode(text).ids;
      // [CLS] … [SEP]: a long text keeps its start and its closing token.
      if (ids.length > maxTokens) ids = [...ids.slice(0, maxTokens - 1), ids[ids.length - 1]!];
      const tensor = (values: (id: number) => number) => new ort.Tensor('int64', BigInt64Array.from(ids, (id) => BigInt(values(id))), [1, ids.length]);
      const feeds: Record<string, InstanceType<typeof ort.Tensor>> = { input_ids: tensor((id) => id), attention_mask: tensor(() => 1) };
      if (session.inputNames.includes('token_type_ids')) feeds.token_type_ids = tensor(() => 0);
      const hidden = (await session.run(feeds))[output]!.data as Float32Array;
      if (hidden.length !== ids.length * embeddingDimensions) throw new Error(`The embedding model answered ${hidden.length} values for ${ids.length} tokens of ${embeddingDimensions}`);
      const vector = meanUnit(hidden, ids.length);
      if (!vector.every(Number.isFinite)) throw new Error('The embedding model answered values that are not finite');
      return vector;
    };
  } catch (error) {
    log.warn('issue clustering uses words only: the embedding model could not be loaded', errorFields(error));
    return undefined;
  }
}

/** The mean of `count` token vectors, scaled to unit length. */
function meanUnit(hidden: Float32Array, count: number): Float32Array {
  const vector = new Float32Array(embeddingDimensions);
  for (let token = 0; token < count; token += 1) {
    for (let d = 0; d < embeddingDimensions; d += 1) vector[d]! += hidden[token * embeddingDimensions + d]!;
  }
  let norm = 0;
  for (let d = 0; d < embeddingDimensions; d += 1) norm += vector[d]! * vector[d]!;
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < embeddingDimensions; d += 1) vector[d]! /= norm;
  return vector;
}

/** The texts' embeddings, in order; undefined when the model isn't there (clustering then uses words alone). */
export async function embedTexts(texts: string[]): Promise<Float32Array[] | undefined> {
  const embed = await (loading ??= loadEmbedder());
  if (!embed) {
    // A model fetched later is taken by the next consolidation, without a restart.
    if (!modelPresent) loading = undefined;
    return undefined;
  }
  const vectors: Float32Array[] = [];
  for (const text of texts) vectors.push(await embed(text));
  return vectors;
}

/** The text of an issue the model reads: its title and summary. */
export const issueText = (issue: { title: string; summary: string }) => `${issue.title}\n${issue.summary}`;

/** Issues' embeddings by id, kept (an issue's text never changes): a consolidation embeds only the issues it hasn't met. About 1.5 KB each. */
const embedded = new Map<string, Float32Array>();
const embeddedLimit = 20_000;

/** The issues' embeddings by id; undefined when the model isn't there. */
export async function issueEmbeddings(issues: Array<{ id: string; title: string; summary: string }>): Promise<Map<string, Float32Array> | undefined> {
  // What the cache holds is taken now: another consolidation may evict it while this one awaits.
  const found = new Map<string, Float32Array>();
  const missing: typeof issues = [];
  for (const issue of issues) {
    const vector = embedded.get(issue.id);
    if (vector) found.set(issue.id, vector);
    else missing.push(issue);
  }
  const vectors = await embedTexts(missing.map(issueText));
  if (!vectors) return undefined;
  missing.forEach((issue, i) => found.set(issue.id, vectors[i]!));
  for (const [id, vector] of found) {
    // Least recently used first out.
    embedded.delete(id);
    embedded.set(id, vector);
  }
  for (const id of embedded.keys()) {
    if (embedded.size <= embeddedLimit) break;
    embedded.delete(id);
  }
  return found;
}
