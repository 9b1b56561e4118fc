import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lastChangeOf } from '../../engine/lastChange.js';
import { openRepository } from '../../engine/repository.js';

const test = suite('engine: when a file last changed (a page\'s "Last updated")');
let dir: string;
test.before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quire-last-change-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test("the newest first-parent commit whose blob differs from its parent's; a merge is the moment a branch's change arrived", async () => {
  const work = path.join(dir, 'work');
  mkdirSync(path.join(work, 'guide'), { recursive: true });
  const git = (when: number, ...args: string[]) =>
    execFileSync('git', ['-C', work, '-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', ...args], {
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_DATE: `@${when} +0000`, GIT_COMMITTER_DATE: `@${when} +0000` },
    }).trim();
  git(1000, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(work, 'README.md'), '# Home\n');
  writeFileSync(path.join(work, 'guide', 'install.md'), '# Install\n');
  git(1000, 'add', '-A');
  git(1000, 'commit', '-qm', 'first');
  writeFileSync(path.join(work, 'guide', 'install.md'), '# Install\n\nStep one.\n');
  git(2000, 'commit', '-qam', 'install changed');
  git(2500, 'checkout', '-qb', 'draft');
  writeFileSync(path.join(work, 'README.md'), '# Home\n\nWelcome.\n');
  git(2500, 'commit', '-qam', 'home on a branch');
  git(2600, 'checkout', '-q', 'main');
  writeFileSync(path.join(work, 'other.md'), '# Other\n');
  git(3000, 'add', '-A');
  git(3000, 'commit', '-qm', 'unrelated');
  git(4000, 'merge', '-q', '--no-ff', '-m', 'merge draft', 'draft');
  const head = git(4000, 'rev-parse', 'HEAD');
  const repo = openRepository(path.join(work, '.git'));

  assert.is(await lastChangeOf(repo, head, 'guide/install.md'), 2000);
  assert.is(await lastChangeOf(repo, head, 'README.md'), 4000, "the merge, not the branch's own commit");
  assert.is(await lastChangeOf(repo, head, 'other.md'), 3000);
  const first = git(4000, 'rev-list', '--max-parents=0', 'HEAD');
  assert.is(await lastChangeOf(repo, first, 'README.md'), 1000, 'a root commit: its own time');
});

test.run();
