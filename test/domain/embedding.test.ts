import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { embeddingDimensions, embedTexts, issueEmbeddings, modelFolder as findModelFolder } from '../../domain/conversations/embedding.js';

const test = suite('conversation issues: sentence embeddings');
const modelFolder = findModelFolder() ?? fileURLToPath(new URL('../../models/all-mpnet-base-v2-u8', import.meta.url));
const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, d) => sum + value * b[d]!, 0);

test('texts become unit vectors; paraphrases are nearer each other than other topics', async () => {
  const [french, spanish, invoice, again] = (await embedTexts([
    'how do i add a french version of our docs?',
    'Can readers switch our documentation to Spanish or German?',
    'Our invoice shows the wrong VAT number and billing address.',
    'how do i add a french version of our docs?',
  ]))!;
  assert.is(french!.length, embeddingDimensions);
  assert.ok(Math.abs(dot(french!, french!) - 1) < 1e-4, 'unit length');
  assert.equal([...again!], [...french!], 'the same text, the same vector');
  // No word in common but "our" and "docs"/"documentation": 0.49 against 0.15 with the model of scripts/embedding-model.sh.
  assert.ok(dot(french!, spanish!) > dot(french!, invoice!) + 0.2, `translations: ${dot(french!, spanish!)} against billing: ${dot(french!, invoice!)}`);
});

// scripts/mpnet-onnx.py writes the model's graph itself and quantizes it: its vectors are checked
// against the float model's own, made by sentence-transformers on PyTorch (the fixture).
test('the 8-bit model embeds as the float model does', async () => {
  const reference = JSON.parse(readFileSync(new URL('../fixtures/embedding/mpnet-reference.json', import.meta.url), 'utf8')) as { texts: Array<{ text: string; embedding: number[] }> };
  const vectors = (await embedTexts(reference.texts.map((entry) => entry.text)))!;
  reference.texts.forEach((entry, i) => {
    const cosine = dot(vectors[i]!, Float32Array.from(entry.embedding));
    assert.ok(cosine > 0.97, `${entry.text.slice(0, 40)}…: cosine ${cosine} to the float model's vector`);
  });
});

test('issue embeddings come by id, kept: a second call embeds only the new issues', async () => {
  const first = (await issueEmbeddings([{ id: 'i1', title: 'Custom domain', summary: 'The CNAME does not verify.' }]))!;
  const second = (await issueEmbeddings([
    { id: 'i1', title: 'ignored: i1 is kept', summary: 'its text never changes' },
    { id: 'i2', title: 'SSO', summary: 'Okta sign-in fails.' },
  ]))!;
  assert.is(second.get('i1'), first.get('i1'), 'the kept vector');
  assert.is(second.get('i2')!.length, embeddingDimensions);
});

test('two consolidations meeting the same new issues embed them once: the second waits for the first', async () => {
  const issues = Array.from({ length: 3 }, (_, i) => ({ id: `shared-${i}`, title: `Issue ${i}`, summary: `The sitemap misses page ${i} of our docs.` }));
  const [first, second] = await Promise.all([issueEmbeddings(issues), issueEmbeddings(issues)]);
  for (const issue of issues) assert.is(second!.get(issue.id), first!.get(issue.id), `${issue.id}: the same vector, not a second one`);
});

test('without the model, no vectors (words alone); a model fetched later is taken without a restart', () => {
  const empty = mkdtempSync(path.join(tmpdir(), 'quire-model-'));
  try {
    const script = fileURLToPath(new URL('../fixtures/embedding/lateModel.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', script, modelFolder], { encoding: 'utf8', env: { ...process.env, QUIRE_EMBEDDING_MODEL: empty } });
    assert.is(run.status, 0, run.stderr);
    const result = JSON.parse(run.stdout.trim().split('\n').pop()!) as { before: boolean; after: number | null };
    assert.equal(result, { before: false, after: embeddingDimensions });
    assert.is((`${run.stdout}${run.stderr}`.match(/the embedding model is missing/g) ?? []).length, 1, 'said once');
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test.run();
