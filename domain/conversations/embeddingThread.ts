import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The thread issue embeddings are made in (a pool of one, see embedding.ts): onnxruntime-node
 * runs each text on the thread that calls it, 3–5 ms a text, so the API's event loop never
 * carries them. The thread loads the model once (0.4 s) and keeps it (about 85 MB).
 */

/** The length of the model's vectors. */
export const embeddingDimensions = 384;
/** Tokens the model reads of an issue (its limit is 512; an issue's summary is at most 1,000 characters). */
const maxTokens = 256;

type Embed = (text: string) => Promise<Float32Array>;
let loaded: Promise<Embed> | undefined;

async function load(folder: string): Promise<Embed> {
  const [{ Tokenizer }, ort] = await Promise.all([import('@huggingface/tokenizers'), import('onnxruntime-node')]);
  const tokenizer = new Tokenizer(JSON.parse(readFileSync(path.join(folder, 'tokenizer.json'), 'utf8')), {});
  // One thread: an issue is a few dozen tokens.
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
}

/** The model in `folder` loaded (once), or why it could not be. */
export async function loadModel(folder: string): Promise<{ error?: string }> {
  loaded ??= load(folder);
  return loaded.then(
    () => ({}),
    (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
  );
}

/** The texts' embeddings, in order, by the model in `folder` (loaded first by a thread that hasn't yet: one started again after a crash). */
export async function embedTexts({ folder, texts }: { folder: string; texts: string[] }): Promise<Float32Array[]> {
  const embed = await (loaded ??= load(folder));
  const vectors: Float32Array[] = [];
  for (const text of texts) vectors.push(await embed(text));
  return vectors;
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
