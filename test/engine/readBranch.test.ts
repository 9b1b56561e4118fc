import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { commitChanges } from '../../engine/commitChanges.js';
import { isHeadKept, readBranch } from '../../engine/readBranch.js';
import { createRepository, primaryBranch } from '../../engine/repository.js';
import { until } from '../helpers/poll.js';
import { gitValue as git } from '../helpers/gitClient.js';

const test = suite('engine: readBranch keeps heads it read, never a stale one');
const author = { name: 'Ada', email: 'ada@example.com' };
let dir: string;
test.before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quire-read-branch-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('a head kept is replaced at once when another process moves the branch, however fast the writes come', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const commits: string[] = [];
  let base: string | null = null;
  for (let i = 0; i < 3; i += 1) {
    base = (await commitChanges({ repo, branch: primaryBranch, base, changes: [{ path: 'a.md', content: `v${i}` }], message: `v${i}`, author })).commit;
    commits.push(base);
  }
  assert.not.ok(isHeadKept(repo, primaryBranch), 'a ref just written is read again until it is old enough to tell apart from the next write');
  await until('the head to be kept', async () => (await readBranch(repo, primaryBranch)) === commits[2] && isHeadKept(repo, primaryBranch));
  // Real git, in another process, moves the branch back and forth: writes within one clock tick,
  // of the same size, whose new files may reuse a freed inode.
  for (let i = 0; i < 20; i += 1) {
    const expected = commits[i % 3]!;
    git(repo.gitdir, 'update-ref', 'refs/heads/main', expected);
    assert.is(await readBranch(repo, primaryBranch), expected, `write ${i}`);
  }
});

test('a read for a request may use a stat from earlier in the turn; this process’s own writes show at once, another’s from the next turn', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const first = (await commitChanges({ repo, branch: primaryBranch, base: null, changes: [{ path: 'a.md', content: 'one' }], message: 'one', author })).commit;
  await until('the head to be kept', async () => (await readBranch(repo, primaryBranch)) === first && isHeadKept(repo, primaryBranch, first));
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(await readBranch(repo, primaryBranch, { sameTurn: true }), first);
  // Written by this process in the same turn: seen at once.
  const second = (await commitChanges({ repo, branch: primaryBranch, base: first, changes: [{ path: 'a.md', content: 'two' }], message: 'two', author })).commit;
  assert.is(await readBranch(repo, primaryBranch, { sameTurn: true }), second);
  await until('the new head to be kept', async () => (await readBranch(repo, primaryBranch)) === second && isHeadKept(repo, primaryBranch, second));
  // Another process’s write in the middle of a turn: a request handled in that turn may be answered
  // from the turn's stat (it arrived before the write), the next turn reads the new head; a writer never waits.
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(await readBranch(repo, primaryBranch, { sameTurn: true }), second);
  git(repo.gitdir, 'update-ref', 'refs/heads/main', first);
  assert.is(await readBranch(repo, primaryBranch), first, 'a writer reads the ref now');
  assert.is(await readBranch(repo, primaryBranch, { sameTurn: true }), second, 'a request of this turn came before the write');
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(await readBranch(repo, primaryBranch, { sameTurn: true }), first, 'the next turn reads the new head');
});

test('a branch packed by git (its loose ref gone) or deleted is read from packed-refs, or is null', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const { commit } = await commitChanges({ repo, branch: 'topic', base: null, changes: [{ path: 'a.md', content: 'a' }], message: 'one', author });
  await until('the head to be kept', async () => (await readBranch(repo, 'topic')) === commit && isHeadKept(repo, 'topic'));
  git(repo.gitdir, 'pack-refs', '--all');
  assert.is(await readBranch(repo, 'topic'), commit);
  git(repo.gitdir, 'update-ref', '-d', 'refs/heads/topic');
  assert.is(await readBranch(repo, 'topic'), null);
});

test.run();
