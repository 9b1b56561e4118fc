import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { commitChanges } from '../../engine/commitChanges.js';
import { InvalidChangeError, RefConflictError } from '../../engine/errors/index.js';
import { readBranch } from '../../engine/readBranch.js';
import { createRepository, primaryBranch, type Repository } from '../../engine/repository.js';

const test = suite('engine: commitChanges');
const author = { name: 'Ada', email: 'ada@example.com' };
const git = (gitdir: string, ...args: string[]) => execFileSync('git', ['-C', gitdir, ...args], { encoding: 'utf8' });
let dir: string;

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
  assert.equal(git(repo.gitdir, 'ls-tree', '-r', '--name-only', 'main').trim().split('\n'), [
    '.gitbook/assets/logo.png',
    'README.md',
    'guides/README.md',
    'guides/install.md',
  ]);
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
    changes: [{ path: 'a.md', content: 'a2' }, { path: 'deep/er/b.md', remove: true }],
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
  const writer = fileURLToPath(new URL('./concurrentWriter.ts', import.meta.url));
  const run = (name: string) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', writer, repo.gitdir, name, '15'], { stdio: ['ignore', 'ignore', 'pipe'] });
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

test('a writer killed mid-commit leaves the branch at a whole commit, and the next writer goes on', async () => {
  const repo = await freshRepository();
  await commitChanges({ repo, branch: primaryBranch, base: null, changes: [{ path: 'README.md', content: '# Crash\n' }], message: 'start', author });
  const writer = fileURLToPath(new URL('./concurrentWriter.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', writer, repo.gitdir, 'victim', '1000'], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  const head = await readBranch(repo, primaryBranch);
  assert.ok(head);
  git(repo.gitdir, 'fsck', '--strict', '--connectivity-only');
  const next = await commitChanges({ repo, branch: primaryBranch, base: head, changes: [{ path: 'after.md', content: 'still writable' }], message: 'after', author });
  assert.is(git(repo.gitdir, 'show', `${next.commit}:after.md`), 'still writable');
});

test.run();
