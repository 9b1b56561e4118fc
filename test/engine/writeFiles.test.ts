import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFilesAtomically } from '../../engine/internal/gitFs.js';

const test = suite('engine: files written atomically as a group');
const dir = mkdtempSync(path.join(tmpdir(), 'quire-write-files-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

const leftovers = (folder: string) => readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => path.basename(name).startsWith('tmp_obj_'));

test('every file of the group lands under its name, in folders made as needed, with no temporary file left', async () => {
  const root = mkdtempSync(path.join(dir, 'group-'));
  mkdirSync(path.join(root, 'ab'));
  const files = [path.join(root, 'ab', 'one'), path.join(root, 'ab', 'two'), path.join(root, 'cd', 'three')];
  await writeFilesAtomically(files.map((file, index) => ({ file, data: Buffer.from(`content ${index}`) })));
  assert.equal(
    files.map((file) => readFileSync(file, 'utf8')),
    ['content 0', 'content 1', 'content 2'],
  );
  assert.equal(leftovers(root), []);
});

test('a group that can’t be written leaves none of its files, whole or temporary', async () => {
  const root = mkdtempSync(path.join(dir, 'failing-'));
  mkdirSync(path.join(root, 'ab'));
  writeFileSync(path.join(root, 'blocked'), 'a file where a folder would go');
  const files = [path.join(root, 'ab', 'one'), path.join(root, 'ab', 'two'), path.join(root, 'blocked', 'three')];
  const refused = await writeFilesAtomically(files.map((file) => ({ file, data: Buffer.from('x') }))).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => error,
  );
  assert.is(refused?.code, 'ENOTDIR');
  assert.equal(readdirSync(path.join(root, 'ab')), []);
  assert.equal(leftovers(root), []);
});

test('more files than one group holds are all written', async () => {
  const root = mkdtempSync(path.join(dir, 'many-'));
  const files = Array.from({ length: 600 }, (_, index) => path.join(root, (index % 16).toString(16).padStart(2, '0'), `object-${index}`));
  await writeFilesAtomically(files.map((file, index) => ({ file, data: Buffer.from(String(index)) })));
  assert.ok(files.every((file, index) => readFileSync(file, 'utf8') === String(index)));
  assert.equal(leftovers(root), []);
});

test.run();
