import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';
import { listenedPool, siblingModule } from '../../engine/index.js';
import { integrations } from '../common/integrations.js';
import { log } from '../common/log.js';

/**
 * Sentence embeddings of issues: all-mpnet-base-v2, its matrices in unsigned 8 bits (ONNX;
 * `scripts/embedding-model.sh` fetches and converts it into `models/`), run by onnxruntime on the
 * CPU in a thread of its own (embeddingThread.ts), mean of its token vectors, unit length. Bags of words miss paraphrase ("a
 * French version of our docs" and "Portuguese variants of the help center" share no term); the
 * model places them close. Loaded by the first issue embedded, never at start; without the model
 * files, clustering uses words alone (logged once).
 */
// Defined beside the model's run; the thread's module loads nothing on import.
export { embeddingDimensions } from './embeddingThread.js';

type Embedder = (texts: string[]) => Promise<Float32Array[]>;
let loading: Promise<Embedder | undefined> | undefined;

/** The model's folder: QUIRE_EMBEDDING_MODEL, or `models/all-mpnet-base-v2-u8` of the project this file is in (its source or its build). */
export function modelFolder(): string | undefined {
  const configured = integrations().embeddingModel;
  if (configured) return configured;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)), depth = 0; depth < 5; dir = path.dirname(dir), depth += 1) {
    const candidate = path.join(dir, 'models', 'all-mpnet-base-v2-u8');
    if (existsSync(path.join(candidate, 'model.onnx'))) return candidate;
  }
  return undefined;
}

let modelPresent = true;
let missingLogged = false;

/**
 * The embedding thread: a pool of one (piscina loads its module as TypeScript runs under tsx, which
 * a plain Worker's entry doesn't) that stays, since it holds the model, and runs at a lower
 * priority (nice +10): clustering a moment late matters less than the requests it would slow.
 */
let pool: Piscina | undefined;
const task = siblingModule(import.meta.url, 'embeddingThread');

async function loadEmbedder(): Promise<Embedder | undefined> {
  const folder = modelFolder();
  modelPresent = !!folder && existsSync(path.join(folder, 'model.onnx')) && existsSync(path.join(folder, 'tokenizer.json'));
  if (!folder || !modelPresent) {
    if (!missingLogged) log.warn('issue clustering uses words only: the embedding model is missing (scripts/embedding-model.sh fetches it)', { folder: folder ?? null });
    missingLogged = true;
    return undefined;
  }
  pool ??= listenedPool({ minThreads: 1, maxThreads: 1, idleTimeout: Infinity, niceIncrement: 10 }, 'the embedding thread', () => pool);
  const running = pool;
  const { error } = (await running.run(folder, { filename: task.href, name: 'loadModel' })) as { error?: string };
  if (error) {
    log.warn('issue clustering uses words only: the embedding model could not be loaded', { error });
    if (pool === running) pool = undefined;
    await running.destroy(); // nothing for it to hold
    return undefined;
  }
  return (texts) => running.run({ folder, texts }, { filename: task.href, name: 'embedTexts' }) as Promise<Float32Array[]>;
}

/** Stops the embedding thread (a shutdown): the next embedding starts another, which loads the model again. */
export async function closeEmbeddingThread(): Promise<void> {
  const closing = pool;
  pool = undefined;
  loading = undefined;
  await closing?.destroy();
}

/** The texts' embeddings, in order; undefined when the model isn't there (clustering then uses words alone). */
export async function embedTexts(texts: string[]): Promise<Float32Array[] | undefined> {
  if (!loading) {
    const started = loadEmbedder();
    loading = started;
    // A load that failed outright (its thread stopped meanwhile) is tried again by the next call.
    started.catch(() => {
      if (loading === started) loading = undefined;
    });
  }
  const embed = await loading;
  if (!embed) {
    // A model fetched later is taken by the next consolidation, without a restart.
    if (!modelPresent) loading = undefined;
    return undefined;
  }
  return texts.length ? embed(texts) : [];
}

/**
 * The text of an issue the model reads: its summary, which holds the title's sentence already (the
 * title alone when the summary is empty). Title and summary together read the lead sentence twice,
 * and it is often the vaguest one ("Am I missing something?"): on the four labelled sets, the
 * summary alone grouped better (mean ARI 0.66 against 0.62), at the same share and cut.
 */
export const issueText = (issue: { title: string; summary: string }) => issue.summary.trim() || issue.title;

/** Issues' embeddings by id, kept (an issue's text never changes): a consolidation embeds only the issues it hasn't met. About 3 KB each. */
const embedded = new Map<string, Float32Array>();
const embeddedLimit = 20_000;
const embeddedChunk = 100;
/** Issues being embedded, by id: a consolidation that meets one waits for it rather than embedding it again. */
const embedding = new Map<string, Promise<Float32Array | undefined>>();

/** The issues' embeddings by id; undefined when the model isn't there. */
export async function issueEmbeddings(issues: Array<{ id: string; title: string; summary: string }>): Promise<Map<string, Float32Array> | undefined> {
  // What the cache holds is taken as it is met: another consolidation may evict it meanwhile.
  const found = new Map<string, Float32Array>();
  try {
    // In chunks, each kept as it comes: a first consolidation of 2,000 issues embeds for minutes, and
    // one given up meanwhile (its activity timed out, and runs on) shares what it embeds with the
    // next, which waits for the issues under way rather than queueing them again. One chunk even
    // when there are no issues: embedTexts says whether the model is there.
    for (let start = 0; start === 0 || start < issues.length; start += embeddedChunk) {
      const chunk = issues.slice(start, start + embeddedChunk);
      const waiting: Array<[string, Promise<Float32Array | undefined>]> = [];
      const missing: typeof issues = [];
      for (const issue of chunk) {
        const vector = embedded.get(issue.id);
        const underWay = embedding.get(issue.id);
        if (vector) found.set(issue.id, vector);
        else if (underWay) waiting.push([issue.id, underWay]);
        else missing.push(issue);
      }
      const run = embedTexts(missing.map(issueText));
      missing.forEach((issue, i) => {
        const shared = run.then((vectors) => vectors?.[i]);
        shared.catch(() => undefined); // its failure is this call's; a waiter meets it too
        embedding.set(issue.id, shared);
      });
      const vectors = await run.finally(() => missing.forEach((issue) => embedding.delete(issue.id)));
      if (!vectors) return undefined;
      missing.forEach((issue, i) => {
        found.set(issue.id, vectors[i]!);
        embedded.set(issue.id, vectors[i]!);
      });
      for (const [id, underWay] of waiting) {
        const vector = await underWay;
        if (!vector) return undefined;
        found.set(id, vector);
      }
    }
    for (const [id, vector] of found) {
      // Least recently used first out.
      embedded.delete(id);
      embedded.set(id, vector);
    }
    return found;
  } finally {
    for (const id of embedded.keys()) {
      if (embedded.size <= embeddedLimit) break;
      embedded.delete(id);
    }
  }
}
