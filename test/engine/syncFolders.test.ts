import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { commitChanges } from '../../engine/commitChanges.js';
import { createRepository } from '../../engine/repository.js';
import { gitFs } from '../../engine/internal/gitFs.js';

const test = suite('engine: folders synced before a branch moves');
const dir = mkdtempSync(path.join(tmpdir(), 'quire-sync-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('a repository deleted with objects waiting to be synced doesn’t fail the next commit of another', async () => {
  const doomed = mkdtempSync(path.join(dir, 'doomed-'));
  await createRepository(doomed);
  // An object written (its folder now waits for the next sync), then the whole repository removed.
  await gitFs.promises.writeFile(path.join(doomed, 'objects', 'ab', 'cdef'), 'x').catch(async () => {
    await gitFs.promises.mkdir(path.join(doomed, 'objects', 'ab'), { recursive: true });
    await gitFs.promises.writeFile(path.join(doomed, 'objects', 'ab', 'cdef'), 'x');
  });
  rmSync(doomed, { recursive: true, force: true });
  const other = await createRepository(mkdtempSync(path.join(dir, 'other-')));
  const { commit } = await commitChanges({
    repo: other,
    branch: 'main',
    base: null,
    changes: [{ path: 'README.md', content: '# Hi\n' }],
    message: 'First',
    author: { name: 'A', email: 'a@example.com' },
  });
  assert.match(commit, /^[0-9a-f]{40}$/);
});

test.run();
