import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { commitChanges } from '../../engine/commitChanges.js';
import { InvalidChangeError, RefConflictError } from '../../engine/errors/index.js';
import { repositoryLockPath } from '../../engine/lock.js';
import { readBranch } from '../../engine/readBranch.js';
import { createRepository, primaryBranch, type Repository } from '../../engine/repository.js';
import { gitOut as git } from '../helpers/gitClient.js';

const test = suite('engine: commitChanges');
const author = { name: 'Ada', email: 'ada@example.com' };
const writerScript = fileURLToPath(new URL('./concurrentWriter.ts', import.meta.url));
/** After this long without a refresh a lock counts as abandoned, whoever holds it (engine/lock.ts). */
const staleLockMs = 10_000;
let dir: string;

/** `work`, or a failure naming what didn't happen in time: a deadline to poll against, not a timing to measure. */
function withDeadline<T>(work: Promise<T>, ms: number, failure: string | (() => string)): Promise<T> {
  let timer: NodeJS.Timeout;
  const message = () => (typeof failure === 'string' ? failure : failure());
  return Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message())), ms)))]).finally(() => clearTimeout(timer));
}

/** What is beside a repository's lock when a writer waits too long: the lock's owner file and any takeover folder. */
function lockState(gitdir: string): string {
  const lock = repositoryLockPath(gitdir);
  const read = (file: string) => (existsSync(file) ? JSON.stringify(readFileSync(file, 'utf8')) : 'absent');
  return `lock ${existsSync(lock) ? `present (owner ${read(path.join(lock, 'owner'))})` : 'absent'}, takeover folder ${existsSync(`${lock}-takeover`) ? 'present' : 'absent'}`;
}

const freshRepository = async (): Promise<Repository> => createRepository(mkdtempSync(path.join(dir, 'repo-')));

test.before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quire-engine-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('writes a tree of files as a commit on a bare repository that git reads and clones', async () => {
  const repo = await freshRepository();
  const { commit } = await commitChanges({
    repo,
    branch: primaryBranch,
    base: null,
    changes: [
      { path: 'README.md', content: '# Welcome\n' },
      { path: 'guides/README.md', content: '# Guides\n' },
      { path: 'guides/install.md', content: '# Install\n' },
      { path: '.gitbook/assets/logo.png', content: new Uint8Array([137, 80, 78, 71]) },
    ],
    message: 'Initial content',
    author,
  });
  assert.is(await readBranch(repo, primaryBranch), commit);
  assert.is(git(repo.gitdir, 'rev-parse', 'HEAD').trim(), commit, 'HEAD names the primary branch');
  assert.equal(git(repo.gitdir, 'ls-tree', '-r', '--name-only', 'main').trim().split('\n'), ['.gitbook/assets/logo.png', 'README.md', 'guides/README.md', 'guides/install.md']);
  git(repo.gitdir, 'fsck', '--strict', '--no-dangling');
  const clone = path.join(dir, `clone-${Date.now()}`);
  execFileSync('git', ['clone', '--quiet', repo.gitdir, clone]);
  assert.is(readFileSync(path.join(clone, 'guides/install.md'), 'utf8'), '# Install\n');
  assert.equal([...readFileSync(path.join(clone, '.gitbook/assets/logo.png'))], [137, 80, 78, 71]);
});

test('changes build on the base tree: updates, removals, and emptied folders disappear', async () => {
  const repo = await freshRepository();
  const first = await commitChanges({
    repo,
    branch: primaryBranch,
    base: null,
    changes: [
      { path: 'a.md', content: 'a' },
      { path: 'deep/er/b.md', content: 'b' },
      { path: 'keep.md', content: 'k' },
    ],
    message: 'one',
    author,
  });
  const second = await commitChanges({
    repo,
    branch: primaryBranch,
    base: first.commit,
    changes: [
      { path: 'a.md', content: 'a2' },
      { path: 'deep/er/b.md', remove: true },
    ],
    message: 'two',
    author,
  });
  assert.equal(git(repo.gitdir, 'ls-tree', '-r', '--name-only', 'main').trim().split('\n'), ['a.md', 'keep.md']);
  assert.is(git(repo.gitdir, 'show', 'main:a.md'), 'a2');
  assert.is(git(repo.gitdir, 'rev-parse', 'main^').trim(), first.commit);
  assert.is(git(repo.gitdir, 'log', '--format=%s', 'main').trim(), 'two\none');
  assert.is.not(second.tree, first.tree);
});

test('a change based on an old commit moves nothing and says so', async () => {
  const repo = await freshRepository();
  const first = await commitChanges({ repo, branch: primaryBranch, base: null, changes: [{ path: 'a.md', content: '1' }], message: 'one', author });
  const second = await commitChanges({ repo, branch: primaryBranch, base: first.commit, changes: [{ path: 'a.md', content: '2' }], message: 'two', author });
  try {
    await commitChanges({ repo, branch: primaryBranch, base: first.commit, changes: [{ path: 'a.md', content: 'stale' }], message: 'stale', author });
    assert.unreachable('a stale base was accepted');
  } catch (error) {
    assert.instance(error, RefConflictError);
    assert.is((error as RefConflictError).actual, second.commit);
  }
  assert.is(await readBranch(repo, primaryBranch), second.commit);
  try {
    await commitChanges({ repo, branch: primaryBranch, base: null, changes: [{ path: 'b.md', content: 'x' }], message: 'again', author });
    assert.unreachable('creating an existing branch was accepted');
  } catch (error) {
    assert.instance(error, RefConflictError);
  }
});

test('paths a repository can’t hold are refused', async () => {
  const repo = await freshRepository();
  for (const bad of ['../escape.md', 'a//b.md', '.git/config', 'x/./y.md', '']) {
    try {
      await commitChanges({ repo, branch: primaryBranch, base: null, changes: [{ path: bad, content: 'x' }], message: 'bad', author });
      assert.unreachable(`${bad} was accepted`);
    } catch (error) {
      assert.instance(error, InvalidChangeError);
      assert.is((error as InvalidChangeError).code, 'InvalidChange');
    }
  }
  assert.is(await readBranch(repo, primaryBranch), null);
});

test('two OS processes writing the same repository lose nothing and corrupt nothing', async () => {
  const repo = await freshRepository();
  await commitChanges({ repo, branch: primaryBranch, base: null, changes: [{ path: 'README.md', content: '# Shared\n' }], message: 'start', author });
  const run = (name: string) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', writerScript, repo.gitdir, name, '15'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (chunk) => (err += chunk));
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${name} exited ${code}: ${err}`))));
    });
  await Promise.all([run('alpha'), run('beta')]);
  const files = git(repo.gitdir, 'ls-tree', '-r', '--name-only', 'main').trim().split('\n');
  assert.is(files.filter((file) => file.startsWith('writers/alpha/')).length, 15);
  assert.is(files.filter((file) => file.startsWith('writers/beta/')).length, 15);
  assert.is(git(repo.gitdir, 'rev-list', '--count', 'main').trim(), '31', 'every commit is on the branch, one after another');
  git(repo.gitdir, 'fsck', '--strict', '--no-dangling');
});

test('a writer killed mid-commit loses no acknowledged commit, and the next writer takes over its lock at once', async () => {
  const repo = await freshRepository();
  await commitChanges({ repo, branch: primaryBranch, base: null, changes: [{ path: 'README.md', content: '# Crash\n' }], message: 'start', author });
  const acknowledged: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', writerScript, repo.gitdir, 'victim', '1000'], { stdio: ['ignore', 'pipe', 'inherit'] });
  // Killed the moment its fifth commit is acknowledged: it is then inside its next commit.
  await new Promise<void>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) if (line.startsWith('ack ')) acknowledged.push(line.slice(4));
      if (acknowledged.length >= 5 && child.exitCode === null && !child.killed) {
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`the writer exited (${code}) before it was killed`)));
  });
  await new Promise((resolve) => (child.exitCode === null && child.signalCode === null ? child.once('exit', resolve) : resolve(undefined)));
  assert.ok(acknowledged.length >= 5, 'the victim committed before the kill');
  const head = (await readBranch(repo, primaryBranch))!;
  for (const commit of acknowledged) {
    assert.ok(spawnSync('git', ['-C', repo.gitdir, 'merge-base', '--is-ancestor', commit, head]).status === 0, `acknowledged ${commit} is on the branch`);
  }
  // The dead writer's lock (if it held one) names a process that is gone: the next writer takes it
  // over without waiting out the 10 s after which an unrefreshed lock counts as abandoned.
  const next = await withDeadline(
    commitChanges({ repo, branch: primaryBranch, base: head, changes: [{ path: 'after.md', content: 'still writable' }], message: 'after', author }),
    staleLockMs / 2,
    () => `the next writer waited on the dead writer's lock: ${lockState(repo.gitdir)}`,
  );
  assert.is(git(repo.gitdir, 'show', `${next.commit}:after.md`), 'still writable');
  const fsck = spawnSync('git', ['-C', repo.gitdir, 'fsck', '--strict', '--no-dangling'], { encoding: 'utf8' });
  assert.is(fsck.status, 0, fsck.stderr);
  assert.is(fsck.stderr + fsck.stdout, '', 'fsck reports nothing, not even a stray file');
});

test('a lock is never nameless: made whole beside the repository and renamed into place; a nameless one (an older Quire killed while naming itself) is taken over after 2 s, not 10', async () => {
  const repo = await freshRepository();
  const lock = repositoryLockPath(repo.gitdir);
  mkdirSync(lock);
  writeFileSync(path.join(lock, 'owner'), '');
  const started = Date.now();
  await withDeadline(
    commitChanges({ repo, branch: primaryBranch, base: null, changes: [{ path: 'a.md', content: 'a' }], message: 'one', author }),
    staleLockMs / 2,
    () => `waited on a nameless lock: ${lockState(repo.gitdir)}`,
  );
  assert.ok(Date.now() - started >= 1500, 'a nameless lock may be a writer naming itself: it is given its moment');
  assert.not.ok(existsSync(lock), 'released');
  assert.equal(readdirSync(`${lock}-staging`), [], 'nothing left staged');
});

test("a lock left by a dead process is taken over at once; a live holder's is waited for", async () => {
  const repo = await freshRepository();
  const lock = repositoryLockPath(repo.gitdir);
  const dead = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => dead.once('exit', resolve));
  mkdirSync(lock);
  writeFileSync(path.join(lock, 'owner'), `${hostname()} ${dead.pid} left-by-a-crash\n`);
  const first = await withDeadline(
    commitChanges({ repo, branch: primaryBranch, base: null, changes: [{ path: 'a.md', content: 'a' }], message: 'one', author }),
    staleLockMs / 2,
    "the writer waited on a dead process's lock",
  );
  assert.not.ok(existsSync(lock), 'the lock is released after the commit');

  const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
  mkdirSync(lock);
  writeFileSync(path.join(lock, 'owner'), `${hostname()} ${holder.pid} alive\n`);
  let landed = false;
  const waiting = commitChanges({ repo, branch: primaryBranch, base: first.commit, changes: [{ path: 'b.md', content: 'b' }], message: 'two', author }).then((result) => {
    landed = true;
    return result;
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.not.ok(landed, 'no commit while a live process holds the lock');
  holder.kill('SIGKILL');
  await new Promise((resolve) => holder.once('exit', resolve));
  const second = await withDeadline(waiting, staleLockMs / 2, 'the writer did not take over once the holder died');
  assert.is(git(repo.gitdir, 'rev-parse', 'main^').trim(), first.commit);
  assert.is(second.commit, git(repo.gitdir, 'rev-parse', 'main').trim());
});

test.run();
