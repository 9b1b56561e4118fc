import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { commitChanges } from '../../engine/commitChanges.js';
import { commitOnHead, groupCommitStats } from '../../engine/commitOnHead.js';
import { InvalidChangeError, RefConflictError, RepositoryElsewhereError } from '../../engine/errors/index.js';
import { readBlob } from '../../engine/objects/readBlob.js';
import { readTree } from '../../engine/objects/readTree.js';
import { readCommit } from '../../engine/objects/readCommit.js';
import { readBranch } from '../../engine/readBranch.js';
import { createRepository, primaryBranch, type Repository } from '../../engine/repository.js';
import { gitOut as git } from '../helpers/gitClient.js';

const test = suite('engine: group commit (commitOnHead)');
const author = { name: 'Ada', email: 'ada@example.com' };
let dir: string;

test.before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quire-group-commit-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

async function repositoryWithTwoBranches(): Promise<Repository> {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const { commit } = await commitChanges({ repo, branch: primaryBranch, base: null, changes: [{ path: 'log.md', content: '' }], message: 'Start', author });
  await commitChanges({ repo, branch: 'cr-1', base: null, changes: [{ path: 'log.md', content: '' }], message: 'Start', author });
  assert.ok(commit);
  return repo;
}

/** A batch that appends a line to log.md, as read from the head it is given. */
const appendLine = (repo: Repository, branch: string, line: string) =>
  commitOnHead({
    repo,
    branch,
    message: line,
    author,
    derive: async (head) => {
      const tree = await readTree(repo, (await readCommit(repo, head!)).tree);
      const log = new TextDecoder().decode(await readBlob(repo, tree.find((entry) => entry.path === 'log.md')!.oid));
      return [{ path: 'log.md', content: `${log}${line}\n` }];
    },
  });

test('concurrent batches on two branches share groups, each lands as its own commit on the one before, and git finds every object', async () => {
  const repo = await repositoryWithTwoBranches();
  const before = groupCommitStats();
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
  const results = await Promise.all(lines.map((line, i) => appendLine(repo, i % 3 === 0 ? 'cr-1' : primaryBranch, line)));
  const after = groupCommitStats();
  assert.is(after.batches - before.batches, 30);
  assert.ok(after.groups - before.groups < 30, `30 batches in ${after.groups - before.groups} groups: some waited and were committed together`);

  for (const [branch, expected] of [
    [primaryBranch, lines.filter((_, i) => i % 3 !== 0)],
    ['cr-1', lines.filter((_, i) => i % 3 === 0)],
  ] as const) {
    // Every batch saw the ones before it: nothing lost, in the order they came.
    assert.is(git(repo.gitdir, 'show', `${branch}:log.md`), expected.map((line) => `${line}\n`).join(''));
    assert.is(git(repo.gitdir, 'rev-list', '--count', branch).trim(), String(expected.length + 1), `${branch}: one commit per batch`);
    const mine = results.filter((_, i) => (i % 3 === 0) === (branch === 'cr-1'));
    assert.is(await readBranch(repo, branch), mine.at(-1)!.commit, 'the branch is at the last batch');
    const history = git(repo.gitdir, 'rev-list', '--reverse', branch).trim().split('\n').slice(1);
    assert.equal(
      history,
      mine.map((result) => result.commit),
      "each batch's answer is its own commit",
    );
  }
  git(repo.gitdir, 'fsck', '--full', '--strict');
});

test('a batch whose changes fail fails alone: the others of its group land', async () => {
  const repo = await repositoryWithTwoBranches();
  const failing = commitOnHead({
    repo,
    branch: primaryBranch,
    message: 'Bad',
    author,
    derive: () => {
      throw new InvalidChangeError('missing.md', 'no such page');
    },
  });
  const results = await Promise.allSettled([appendLine(repo, primaryBranch, 'a'), failing, appendLine(repo, primaryBranch, 'b'), appendLine(repo, 'cr-1', 'c')]);
  assert.equal(
    results.map((result) => result.status),
    ['fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
  );
  assert.instance((results[1] as PromiseRejectedResult).reason, InvalidChangeError);
  assert.is(git(repo.gitdir, 'show', `${primaryBranch}:log.md`), 'a\nb\n');
  assert.is(git(repo.gitdir, 'show', 'cr-1:log.md'), 'c\n');
  git(repo.gitdir, 'fsck', '--full', '--strict');
});

test('a branch moved by git meanwhile fails only its own batches, with RefConflictError; nothing is half-applied', async () => {
  const repo = await repositoryWithTwoBranches();
  const head = await readBranch(repo, primaryBranch);
  // git moves the branch while the group derives its batches (it takes no Quire lock).
  let moved = false;
  const sneaky = commitOnHead({
    repo,
    branch: primaryBranch,
    message: 'x',
    author,
    derive: async () => {
      if (!moved) {
        moved = true;
        const tree = git(repo.gitdir, 'rev-parse', `${head}^{tree}`).trim();
        const other = git(repo.gitdir, 'commit-tree', tree, '-p', head!, '-m', 'by git').trim();
        git(repo.gitdir, 'update-ref', `refs/heads/${primaryBranch}`, other, head!);
      }
      return [{ path: 'x.md', content: 'x\n' }];
    },
  });
  const results = await Promise.allSettled([sneaky, appendLine(repo, primaryBranch, 'y'), appendLine(repo, 'cr-1', 'z')]);
  assert.is(results[0]!.status, 'rejected');
  assert.instance((results[0] as PromiseRejectedResult).reason, RefConflictError);
  assert.is(results[1]!.status, 'rejected', 'the batch after it in the same group was built on it');
  assert.is(results[2]!.status, 'fulfilled', 'another branch of the group lands');
  assert.is(git(repo.gitdir, 'log', '-1', '--format=%s', primaryBranch).trim(), 'by git');
  assert.is(git(repo.gitdir, 'show', 'cr-1:log.md'), 'z\n');
  git(repo.gitdir, 'fsck', '--full');
});

test('when the lock is never had (the repository moved away), every batch that waited for it fails with that', async () => {
  const repo = await repositoryWithTwoBranches();
  rmSync(repo.gitdir, { recursive: true, force: true });
  const results = await Promise.allSettled([appendLine(repo, primaryBranch, 'a'), appendLine(repo, 'cr-1', 'b')]);
  for (const result of results) {
    assert.is(result.status, 'rejected');
    assert.instance((result as PromiseRejectedResult).reason, RepositoryElsewhereError);
  }
  // The next batch asks for the lock again rather than waiting on the failed request.
  const next = await Promise.allSettled([appendLine(repo, primaryBranch, 'c')]);
  assert.instance((next[0] as PromiseRejectedResult).reason, RepositoryElsewhereError);
});

test.run();
