import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { commitChanges, type Change } from '../../engine/commitChanges.js';
import { syncWrittenFolders } from '../../engine/internal/gitFs.js';
import { mergeText } from '../../engine/internal/mergeText.js';
import { mergeTrees } from '../../engine/internal/mergeTrees.js';
import { readCommit } from '../../engine/objects/readCommit.js';
import { createRepository, type Repository } from '../../engine/repository.js';

const test = suite('mergeTrees');
const author = { name: 'Test', email: 'test@example.com' };
let dir: string;
let repo: Repository;
test.before.each(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'quire-merge-'));
  repo = await createRepository(path.join(dir, 'repo.git'));
});
test.after.each(async () => {
  // mergeTrees alone writes objects no commit synced: synced here before the repository goes.
  await syncWrittenFolders();
  rmSync(dir, { recursive: true, force: true });
});

const lines = (count: number, change: Record<number, string> = {}) => Array.from({ length: count }, (_, index) => change[index] ?? `line ${index}`).join('\n') + '\n';

/** A base commit, and two branches each adding their changes on it; their trees. */
async function fork(base: Change[], ours: Change[], theirs: Change[]) {
  const root = await commitChanges({ repo, branch: 'main', base: null, changes: base, message: 'base', author });
  const o = await commitOn(root.commit, ours);
  const their = await commitOn(root.commit, theirs);
  return { base: root, ours: o, theirs: their };
}

async function commitOn(parent: string, changes: Change[]) {
  const branch = `b${Math.random().toString(36).slice(2)}`;
  execFileSync('git', ['-C', repo.gitdir, 'update-ref', `refs/heads/${branch}`, parent]);
  return commitChanges({ repo, branch, base: parent, changes, message: 'theirs', author });
}

const gitMergeTree = (ours: string, theirs: string) => {
  try {
    return { tree: execFileSync('git', ['-C', repo.gitdir, 'merge-tree', '--write-tree', ours, theirs], { encoding: 'utf8' }).split('\n')[0], clean: true };
  } catch {
    return { tree: undefined, clean: false };
  }
};

test('edits to different files and different lines of one file merge as git merge-tree merges them', async () => {
  const { base, ours, theirs } = await fork(
    [
      { path: 'a.md', content: lines(20) },
      { path: 'docs/b.md', content: 'b\n' },
      { path: 'docs/deep/c.md', content: 'c\n' },
      { path: 'untouched/d.md', content: 'd\n' },
    ],
    [
      { path: 'a.md', content: lines(20, { 2: 'ours' }) },
      { path: 'docs/b.md', content: 'b by ours\n' },
      { path: 'new/ours.md', content: 'new\n' },
    ],
    [
      { path: 'a.md', content: lines(20, { 17: 'theirs' }) },
      { path: 'docs/deep/c.md', remove: true },
      { path: 'docs/theirs.md', content: 'theirs\n' },
    ],
  );
  const merged = await mergeTrees(repo, (await readCommit(repo, base.commit)).tree, ours.tree, theirs.tree);
  assert.equal([merged.conflicts, merged.structural], [[], []]);
  const git = gitMergeTree(ours.commit, theirs.commit);
  assert.ok(git.clean);
  assert.is(merged.tree, git.tree, 'the same tree, object for object');
});

test("the same lines changed apart, a file deleted against an edit, added twice differently: conflicts, or the structure's business", async () => {
  const { base, ours, theirs } = await fork(
    [
      { path: 'a.txt', content: lines(5) },
      { path: 'gone.txt', content: 'x\n' },
      { path: 'page.md', content: 'p\n' },
    ],
    [
      { path: 'a.txt', content: lines(5, { 2: 'ours' }) },
      { path: 'gone.txt', content: 'edited\n' },
      { path: 'page.md', remove: true },
      { path: 'both.txt', content: 'ours\n' },
    ],
    [
      { path: 'a.txt', content: lines(5, { 2: 'theirs' }) },
      { path: 'gone.txt', remove: true },
      { path: 'page.md', content: 'edited\n' },
      { path: 'both.txt', content: 'theirs\n' },
    ],
  );
  const merged = await mergeTrees(repo, (await readCommit(repo, base.commit)).tree, ours.tree, theirs.tree, {
    isStructural: (file, reason) => file.endsWith('.md') && reason !== 'both-changed',
  });
  assert.equal(
    merged.conflicts.sort((x, y) => x.path.localeCompare(y.path)),
    [
      { path: 'a.txt', reason: 'content' },
      { path: 'both.txt', reason: 'add/add' },
      { path: 'gone.txt', reason: 'modify/delete' },
    ],
  );
  assert.equal(merged.structural, ['page.md']);
  assert.is(gitMergeTree(ours.commit, theirs.commit).clean, false, 'git finds conflicts too');
  const resolved = await mergeTrees(repo, (await readCommit(repo, base.commit)).tree, ours.tree, theirs.tree, { resolve: () => 'theirs' });
  assert.equal(resolved.conflicts, []);
});

test('mergeText: identical edits are no conflict; an edit beside a deletion lands', () => {
  assert.is(mergeText('a\nb\nc\n', 'a\nB\nc\n', 'a\nB\nc\n'), 'a\nB\nc\n');
  assert.is(mergeText('a\nb\nc\nd\ne\n', 'A\nb\nc\nd\ne\n', 'a\nb\nc\nd\n'), 'A\nb\nc\nd\n');
  assert.is(mergeText('a\nb\n', 'x\nb\n', 'y\nb\n'), null);
});

test.run();
