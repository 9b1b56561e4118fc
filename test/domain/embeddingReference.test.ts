import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { closeEmbeddingThread, embedTexts } from '../../domain/conversations/embedding.js';

// Issue 57, the same model everywhere: the embedding of a few fixed sentences, against reference
// vectors this model computed (test/fixtures/embedding-reference.json). With weights and
// activations both unsigned 8-bit, onnxruntime's integer kernels agree on every x86-64 path (with
// or without AVX-512 VNNI or AMX), so what differs across machines is float rounding in the layers
// around them: cosine ≥ 0.9999. A platform that computes otherwise fails here, by name, before the
// clustering floors fail without saying why. QUIRE_WRITE_EMBEDDING_REFERENCE=1 writes the file
// again (only for a new model, whose floors are measured again too).
const test = suite('the embedding model computes the reference vectors');
const fixture = new URL('../fixtures/embedding-reference.json', import.meta.url);

const sentences = [
  'How do I reset my password?',
  'The export to PDF fails with a timeout on large spaces.',
  'Où se trouve la documentation de l’API ?',
  'Webhooks are retried three times, then the delivery is marked failed.',
  'pricing',
];

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
};

test.after(() => closeEmbeddingThread());

test('each fixed sentence embeds as the reference says, to a cosine of 0.9999', async () => {
  const vectors = await embedTexts(sentences);
  assert.ok(vectors, 'the embedding model is there (scripts/embedding-model.sh)');
  if (process.env.QUIRE_WRITE_EMBEDDING_REFERENCE === '1' || !existsSync(fixture)) {
    assert.is(process.env.QUIRE_WRITE_EMBEDDING_REFERENCE, '1', `${fixture.pathname} is missing: write it with QUIRE_WRITE_EMBEDDING_REFERENCE=1`);
    const rounded = vectors!.map((vector) => Array.from(vector, (value) => Math.round(value * 1e6) / 1e6));
    writeFileSync(fixture, `${JSON.stringify({ sentences, vectors: rounded })}\n`);
  }
  const reference = JSON.parse(readFileSync(fixture, 'utf8')) as { sentences: string[]; vectors: number[][] };
  assert.equal(reference.sentences, sentences, 'the reference is of these sentences');
  const differing = sentences.flatMap((sentence, index) => {
    const similarity = cosine(vectors![index]!, reference.vectors[index]!);
    return similarity >= 0.9999 ? [] : [`"${sentence}": cosine ${similarity.toFixed(6)}`];
  });
  assert.equal(differing, [], `this machine embeds otherwise than the reference (its CPU's kernels round differently?):\n${differing.join('\n')}`);
  // Two different sentences are not one: the comparison means something.
  assert.ok(cosine(vectors![0]!, vectors![1]!) < 0.9, 'different sentences embed apart');
});

test('the model script checks the file it writes against the hash the floors were measured with', () => {
  const script = readFileSync(new URL('../../scripts/embedding-model.sh', import.meta.url), 'utf8');
  const floors = JSON.parse(readFileSync(new URL('../fixtures/conversations/floors.json', import.meta.url), 'utf8')) as { model: string };
  assert.is(/^model_sha256=([0-9a-f]{64})$/m.exec(script)?.[1], floors.model);
});

test.run();
