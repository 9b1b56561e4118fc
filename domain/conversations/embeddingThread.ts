import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The thread issue embeddings are made in (a pool of one, see embedding.ts): onnxruntime-node
 * runs each text on the thread that calls it, 50–70 ms a text of 60 tokens, so the API's event
 * loop never carries them. The thread loads the model once and keeps it (about 290 MB).
 */

/** The length of the model's vectors. */
export const embeddingDimensions = 768;
/** Tokens the model reads of an issue (its limit is 512; an issue's summary is at most 1,000 characters). */
const maxTokens = 256;

type Embed = (text: string) => Promise<Float32Array>;
let loaded: Promise<Embed> | undefined;

async function load(folder: string): Promise<Embed> {
  const [{ Tokenizer }, ort] = await Promise.all([import('@huggingface/tokenizers'), import('onnxruntime-node')]);
  const tokenizer = new Tokenizer(JSON.parse(readFileSync(path.join(folder, 'tokenizer.json'), 'utf8')), {});
  // One thread: an issue is a few dozen tokens. Without the memory arena, which kept about 90 MB more
  // resident and embedded no faster.
  const session = await ort.InferenceSession.create(path.join(folder, 'model.onnx'), { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', enableCpuMemArena: false });
  const output = session.outputNames[0]!;
  return async (text) => {
    let ids: number[] = tokenizer.encode(text).ids;
    // <s> … </s>: a long text keeps its start and its closing token.
    if (ids.length > maxTokens) ids = [...ids.slice(0, maxTokens - 1), ids[ids.length - 1]!];
    // The model's graph ends with its sentence embedding: the mean of its token vectors, unit length (scripts/mpnet-onnx.py).
    const vector = ((await session.run({ input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]) }))[output]!.data as Float32Array).slice();
    if (vector.length !== embeddingDimensions) throw new Error(`The embedding model answered ${vector.length} values, not ${embeddingDimensions}`);
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
