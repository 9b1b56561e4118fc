import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { commitChanges, commitToBranchHead } from '../../engine/commitChanges.js';
import { RepositoryBusyError } from '../../engine/errors/index.js';
import { createRepository, primaryBranch } from '../../engine/repository.js';

const test = suite('engine: Quire and real git writing one repository at once');
const run = promisify(execFile);
const git = async (gitdir: string, ...args: string[]) => (await run('git', ['-C', gitdir, ...args], { encoding: 'utf8' })).stdout.trim();
const writerScript = fileURLToPath(new URL('./concurrentWriter.ts', import.meta.url));
let dir: string;

test.before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quire-interop-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** A Quire writer process: resolves with the commits it acknowledged. */
function quireWriter(gitdir: string, name: string, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writerScript, gitdir, name, String(count)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    // 'close', not 'exit': the process can exit before its last output has been read.
    child.on('close', (code) =>
      code === 0
        ? resolve(
            out
              .trim()
              .split('\n')
              .map((line) => line.replace(/^ack /, '')),
          )
        : reject(new Error(`${name} exited ${code}: ${err}`)),
    );
  });
}

/**
 * Real git committing on the same branch: `git commit-tree` on the head, then `git update-ref`
 * with the old value, which git refuses when the branch moved or its `.lock` is held (by Quire
 * too): then again. Resolves with the commits git acknowledged.
 */
async function gitWriter(gitdir: string, count: number): Promise<string[]> {
  const acknowledged: string[] = [];
  for (let i = 0; i < count; i += 1) {
    for (let attempt = 1; ; attempt += 1) {
      if (attempt > 100) throw new Error(`git could not commit ${i} in 100 attempts`);
      // git's own object writes can lose a race with the concurrent gc removing an emptied
      // objects/xx folder ("unable to create temporary file"): that attempt is made again.
      const written = await writeWithGit(gitdir, i).catch(() => undefined);
      if (!written) continue;
      const { old, next } = written;
      const moved = await run('git', ['-C', gitdir, 'update-ref', 'refs/heads/main', next, old]).then(
        () => true,
        () => false,
      );
      if (moved) {
        acknowledged.push(next);
        break;
      }
    }
  }
  return acknowledged;
}

async function writeWithGit(gitdir: string, i: number): Promise<{ old: string; next: string }> {
  const old = await git(gitdir, 'rev-parse', 'refs/heads/main');
  const blob = (await run('sh', ['-c', `printf 'git ${i}\\n' | git -C "${gitdir}" hash-object -w --stdin`], { encoding: 'utf8' })).stdout.trim();
  const tree = (await run('sh', ['-c', `(git -C "${gitdir}" ls-tree ${old}; printf '100644 blob ${blob}\\tgit-${i}.md\\n') | git -C "${gitdir}" mktree`], { encoding: 'utf8' })).stdout.trim();
  const next = await git(gitdir, '-c', 'user.name=Git', '-c', 'user.email=git@example.com', 'commit-tree', tree, '-p', old, '-m', `git ${i}`);
  return { old, next };
}

test('Quire writers, git update-ref and git gc on one repository: every acknowledged commit lands, fsck is clean', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'space-')));
  await commitChanges({
    repo,
    branch: primaryBranch,
    base: null,
    changes: [{ path: 'README.md', content: '# Shared with git\n' }],
    message: 'start',
    author: { name: 'Ada', email: 'ada@example.com' },
  });
  let writing = true;
  let collections = 0;
  const collector = (async () => {
    // gc packs refs (taking each ref's `.lock` to prune it) and objects while both sides write.
    while (writing) {
      await git(repo.gitdir, 'gc', '--quiet');
      collections += 1;
    }
  })();
  let alpha: string[], beta: string[], fromGit: string[];
  try {
    const settled = await Promise.allSettled([quireWriter(repo.gitdir, 'alpha', 20), quireWriter(repo.gitdir, 'beta', 20), gitWriter(repo.gitdir, 20)]);
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    [alpha, beta, fromGit] = settled.map((result) => (result as PromiseFulfilledResult<string[]>).value) as [string[], string[], string[]];
  } finally {
    writing = false;
    await collector;
  }
  assert.ok(collections >= 1, 'git gc ran while the writers wrote');
  assert.is(alpha.length + beta.length + fromGit.length, 60);
  const head = await git(repo.gitdir, 'rev-parse', 'main');
  for (const commit of [...alpha, ...beta, ...fromGit]) {
    assert.is(spawnSync('git', ['-C', repo.gitdir, 'merge-base', '--is-ancestor', commit, head]).status, 0, `acknowledged ${commit} is on the branch`);
  }
  assert.is(await git(repo.gitdir, 'rev-list', '--count', 'main'), '61', 'one commit after another, none lost');
  const files = (await git(repo.gitdir, 'ls-tree', '-r', '--name-only', 'main')).split('\n');
  assert.is(files.filter((file) => file.startsWith('writers/alpha/')).length, 20);
  assert.is(files.filter((file) => file.startsWith('writers/beta/')).length, 20);
  assert.is(files.filter((file) => /^git-\d+\.md$/.test(file)).length, 20);
  const fsck = spawnSync('git', ['-C', repo.gitdir, 'fsck', '--strict', '--no-dangling'], { encoding: 'utf8' });
  assert.is(fsck.status, 0, fsck.stderr);
  assert.is(fsck.stderr + fsck.stdout, '');
});

test('a ref git has locked is waited for and never taken: busy while git holds it, written on once git is done', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'space-')));
  const author = { name: 'Ada', email: 'ada@example.com' };
  const { commit: start } = await commitChanges({ repo, branch: primaryBranch, base: null, changes: [{ path: 'README.md', content: '# Locked by git\n' }], message: 'start', author });
  // What `git update-ref` holds while it writes: the new value in `refs/heads/main.lock`.
  const fromGit = await git(repo.gitdir, '-c', 'user.name=Git', '-c', 'user.email=git@example.com', 'commit-tree', `${start}^{tree}`, '-p', start, '-m', 'from git');
  const gitLock = path.join(repo.gitdir, 'refs/heads/main.lock');
  writeFileSync(gitLock, `${fromGit}\n`);
  try {
    await commitChanges({ repo, branch: primaryBranch, base: start, changes: [{ path: 'a.md', content: 'a' }], message: 'while git writes', author });
    assert.unreachable('a commit landed while git held the ref');
  } catch (error) {
    assert.instance(error, RepositoryBusyError);
    assert.is((error as RepositoryBusyError).message, 'the repository is busy: git holds refs/heads/main.lock (another git command is writing refs/heads/main)');
  }
  assert.is(readFileSync(gitLock, 'utf8'), `${fromGit}\n`, "git's lock is left as git wrote it");
  assert.is(await git(repo.gitdir, 'rev-parse', 'main'), start);

  // Git finishes (renames its lock over the ref) while a Quire writer waits: the writer goes on from git's commit.
  const waiting = commitToBranchHead({ repo, branch: primaryBranch, changes: [{ path: 'b.md', content: 'b' }], message: 'after git', author });
  await pollUntil(() => readdirSync(path.join(repo.gitdir, 'quire-tmp')).length > 0, 'the Quire writer reached the ref');
  renameSync(gitLock, path.join(repo.gitdir, 'refs/heads/main'));
  const { commit } = await waiting;
  assert.is(await git(repo.gitdir, 'rev-parse', `${commit}^`), fromGit);
  assert.is(await git(repo.gitdir, 'rev-parse', 'main'), commit);
  assert.equal(readdirSync(path.join(repo.gitdir, 'quire-tmp')), [], 'no temporary file is left');
});

async function pollUntil(condition: () => boolean, what: string, deadlineMs = 5_000) {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test.run();
