import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { commitChanges } from '../../engine/commitChanges.js';
import { MergeConflictError, RevisionNotFoundError } from '../../engine/errors/index.js';
import { createRepository, primaryBranch } from '../../engine/repository.js';
import { resolveRevision } from '../../engine/resolveRevision.js';

const test = suite('engine: resolveRevision and the typed errors');
const author = { name: 'Ada', email: 'ada@example.com' };
let dir: string;
test.before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quire-resolve-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('a branch or a commit id of the repository resolves to its commit; anything else is RevisionNotFound', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const first = await commitChanges({ repo, branch: primaryBranch, base: null, changes: [{ path: 'a.md', content: 'a' }], message: 'one', author });
  const second = await commitChanges({ repo, branch: primaryBranch, base: first.commit, changes: [{ path: 'a.md', content: 'b' }], message: 'two', author });
  const draft = await commitChanges({ repo, branch: 'change-requests/cr1', base: null, changes: [{ path: 'draft.md', content: 'd' }], message: 'draft', author });
  assert.is(await resolveRevision(repo, primaryBranch), second.commit);
  assert.is(await resolveRevision(repo, 'change-requests/cr1'), draft.commit);
  assert.is(await resolveRevision(repo, first.commit), first.commit);
  assert.is(await resolveRevision(repo, first.commit), first.commit, 'the second time from what was found the first');
  const blob = execFileSync('git', ['-C', repo.gitdir, 'rev-parse', 'main:a.md'], { encoding: 'utf8' }).trim();
  for (const ref of ['0'.repeat(40), blob, second.tree, 'HEAD', 'nope', '../../config', 'refs/heads/main', 'main.lock', '', first.commit.toUpperCase()]) {
    try {
      await resolveRevision(repo, ref);
      assert.unreachable(`${ref} resolved`);
    } catch (error) {
      assert.instance(error, RevisionNotFoundError);
      assert.is((error as RevisionNotFoundError).code, 'RevisionNotFound');
      assert.is((error as RevisionNotFoundError).message, `Revision ${ref} not found`);
    }
  }
});

test('a merge conflict names its paths', () => {
  const error = new MergeConflictError(['README.md', 'guides/install.md']);
  assert.is(error.code, 'MergeConflict');
  assert.equal(error.paths, ['README.md', 'guides/install.md']);
  assert.is(error.message, 'Merge conflict in 2 paths: README.md, guides/install.md');
});

test.run();
