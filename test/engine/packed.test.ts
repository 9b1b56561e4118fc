import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { allPages } from '../../engine/allPages.js';
import { commitChanges } from '../../engine/commitChanges.js';
import { fileSizes } from '../../engine/fileSizes.js';
import { parsePageFile, renderPageFile } from '../../engine/layout/pageFile.js';
import { packsOf } from '../../engine/objects/packs.js';
import { readObject, readObjectSize } from '../../engine/objects/readObject.js';
import { readBranch } from '../../engine/readBranch.js';
import { readFileBytes } from '../../engine/readFileBytes.js';
import { readRevision } from '../../engine/readRevision.js';
import { closeRepository, createRepository, primaryBranch, type Repository } from '../../engine/repository.js';
import { resolveRevision } from '../../engine/resolveRevision.js';
import { gitOut as git } from '../helpers/gitClient.js';

const test = suite('engine: packed repositories (what real git produces)');
const author = { name: 'Ada', email: 'ada@example.com' };
const gitBytes = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...args], { maxBuffer: 64 * 1024 * 1024 });
let dir: string;

test.before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quire-packed-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** Content no earlier read has cached: each run's pages are its own. */
const salt = () => randomBytes(6).toString('hex');

/** Every object of the repository, read by the engine, is byte for byte what git reads. */
async function assertEveryObjectReadsAsGitReadsIt(repo: Repository) {
  const oids = git(repo.gitdir, 'rev-list', '--objects', '--all')
    .trim()
    .split('\n')
    .map((line) => line.slice(0, 40));
  assert.ok(oids.length > 20);
  for (const oid of oids) {
    const type = git(repo.gitdir, 'cat-file', '-t', oid).trim();
    const object = await readObject(repo, oid);
    assert.is(object.type, type, `type of ${oid}`);
    assert.ok(object.data.equals(gitBytes(repo.gitdir, 'cat-file', type, oid)), `content of ${type} ${oid}`);
  }
}

/** The engine's own pack reader finds each object where git's `verify-pack` says it is (not through a fallback). */
async function assertIndexesFindEveryObject(repo: Repository) {
  const { list } = await packsOf(repo.gitdir);
  assert.ok(list.length > 0);
  for (const idx of packIndexes(repo.gitdir)) {
    const pack = list.find((candidate) => candidate.path === idx.replace(/\.idx$/, '.pack'))!;
    assert.ok(pack, `${idx} is open`);
    const rows = git(repo.gitdir, 'verify-pack', '-v', idx)
      .split('\n')
      .filter((line) => /^[0-9a-f]{40} /.test(line));
    assert.is(rows.length, pack.index.count);
    for (const row of rows) {
      const [oid, type, , , offset] = row.split(/\s+/);
      assert.is(pack.index.find(Buffer.from(oid!, 'hex')), Number(offset), `offset of ${oid}`);
      if (type === 'blob') assert.is(await readObjectSize(repo, oid!), Number(git(repo.gitdir, 'cat-file', '-s', oid!).trim()), `size of ${oid}`);
    }
    assert.is(pack.index.find(Buffer.alloc(20, 0xff)), undefined);
  }
}

const looseObjectCount = (gitdir: string) => Number(/^count: (\d+)$/m.exec(git(gitdir, 'count-objects', '-v'))![1]);

test('after git gc: packed refs, deltas against offsets and against ids, reads and then a write', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'space-')));
  const run = salt();
  const long = Array.from({ length: 200 }, (_, i) => `Line ${i} of a long page that changes a little each time (${run}).`).join('\n');
  let head: string | null = null;
  for (let version = 0; version < 6; version += 1) {
    ({ commit: head } = await commitChanges({
      repo,
      branch: primaryBranch,
      base: head,
      changes: [
        { path: 'README.md', content: `# Home ${run}\n\nVersion ${version}.\n` },
        { path: 'guides/long.md', content: renderPageFile({ meta: { pageId: 'longPage' }, body: `# Long\n\n${long}\nversion ${version}\n` }) },
        { path: `guides/page-${version}.md`, content: `# Page ${version}\n\n${run}\n` },
        { path: '.gitbook/assets/data.bin', content: Buffer.concat([randomBytes(3000), Buffer.from(`v${version}`)]) },
      ],
      message: `version ${version}`,
      author,
    }));
  }
  git(repo.gitdir, 'gc', '--aggressive', '--prune=now', '--quiet');
  assert.is(looseObjectCount(repo.gitdir), 0, 'every object is in a pack');
  assert.not.ok(existsSync(path.join(repo.gitdir, 'refs/heads/main')), 'the branch is only in packed-refs');
  assert.match(readFileSync(path.join(repo.gitdir, 'packed-refs'), 'utf8'), `${head} refs/heads/main`);
  assert.match(git(repo.gitdir, 'verify-pack', '-v', ...packIndexes(repo.gitdir)), /chain length = [1-9]/, 'the pack holds deltas');

  assert.is(await readBranch(repo, primaryBranch), head);
  assert.is(await resolveRevision(repo, primaryBranch), head);
  await assertEveryObjectReadsAsGitReadsIt(repo);
  await assertIndexesFindEveryObject(repo);
  const revision = await readRevision(repo, head!);
  assert.equal(
    allPages(revision.pages).map((page) => page.file),
    ['README.md', 'guides/long.md', ...[0, 1, 2, 3, 4, 5].map((v) => `guides/page-${v}.md`)],
  );
  const longPage = allPages(revision.pages).find((page) => page.id === 'longPage')!;
  assert.is(longPage.markdown, parsePageFile(git(repo.gitdir, 'show', 'main:guides/long.md')).body);
  assert.ok(longPage.markdown!.endsWith(`${long}\nversion 5\n`));
  const file = revision.files[0]!;
  assert.is((await fileSizes(repo, revision)).get(file.oid), Number(git(repo.gitdir, 'cat-file', '-s', file.oid).trim()));
  assert.ok(Buffer.from(await readFileBytes(repo, file.oid)).equals(gitBytes(repo.gitdir, 'cat-file', 'blob', file.oid)));

  // The same objects repacked with REF_DELTA entries (bases named by id, as some packers write them).
  git(repo.gitdir, '-c', 'repack.useDeltaBaseOffset=false', 'repack', '-adf', '--quiet');
  closeRepository(repo.gitdir);
  await assertEveryObjectReadsAsGitReadsIt(repo);
  await assertIndexesFindEveryObject(repo);

  // A write on a branch that is only in packed-refs: compared there, written as a loose ref.
  const next = await commitChanges({ repo, branch: primaryBranch, base: head, changes: [{ path: 'after-gc.md', content: '# After gc\n' }], message: 'after gc', author });
  assert.is(readFileSync(path.join(repo.gitdir, 'refs/heads/main'), 'utf8'), `${next.commit}\n`);
  assert.is(git(repo.gitdir, 'rev-parse', 'main').trim(), next.commit);
  assert.is(git(repo.gitdir, 'rev-parse', 'main^').trim(), head);
  assert.equal(git(repo.gitdir, 'show', 'main:after-gc.md'), '# After gc\n');
  git(repo.gitdir, 'fsck', '--strict', '--no-dangling');
  const after = await readRevision(repo, next.commit);
  assert.is(allPages(after.pages).length, 9, 'packed and loose objects read together');
  try {
    await commitChanges({ repo, branch: primaryBranch, base: head, changes: [{ path: 'stale.md', content: 'x' }], message: 'stale', author });
    assert.unreachable('a base that is only the packed value was accepted');
  } catch (error) {
    assert.is((error as { code?: string }).code, 'RefConflict');
  }
  git(repo.gitdir, 'gc', '--quiet');
  assert.is(await readBranch(repo, primaryBranch), next.commit, 'read again once git packed the new ref too');
});

const packIndexes = (gitdir: string) =>
  readdirSync(path.join(gitdir, 'objects', 'pack'))
    .filter((name) => name.endsWith('.idx'))
    .map((name) => path.join(gitdir, 'objects', 'pack', name));

test('content pushed by git arrives as one pack: read, then written on, then fetched back by git', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'space-')));
  await commitChanges({ repo, branch: primaryBranch, base: null, changes: [], message: 'Create empty space', author });
  git(repo.gitdir, 'config', 'receive.unpackLimit', '1');
  const clone = path.join(dir, `clone-${salt()}`);
  execFileSync('git', ['clone', '--quiet', repo.gitdir, clone]);
  git(clone, 'config', 'user.name', 'Grace');
  git(clone, 'config', 'user.email', 'grace@example.com');
  const run = salt();
  const entries: string[] = [];
  for (let i = 0; i < 120; i += 1) {
    const file = `chapter-${Math.floor(i / 10)}/page-${i}.md`;
    mkdirSync(path.join(clone, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(clone, file), `# Page ${i}\n\nPushed ${run}. ${'Some shared text. '.repeat(20)}\n`);
    entries.push(`* [Page ${i}](${file})`);
  }
  writeFileSync(path.join(clone, 'SUMMARY.md'), `# Table of contents\n\n${entries.join('\n')}\n`);
  git(clone, 'add', '-A');
  git(clone, 'commit', '--quiet', '-m', 'Pages from git');
  git(clone, 'push', '--quiet', 'origin', 'main');
  assert.is(looseObjectCount(repo.gitdir) <= 5, true, 'the pushed objects stayed in their pack');
  const pushed = git(clone, 'rev-parse', 'HEAD').trim();
  await assertIndexesFindEveryObject(repo);

  assert.is(await resolveRevision(repo, primaryBranch), pushed);
  const revision = await readRevision(repo, pushed);
  const pages = allPages(revision.pages);
  assert.is(pages.length, 120);
  assert.is(pages[57]!.title, 'Page 57');
  assert.is(pages[57]!.markdown, readFileSync(path.join(clone, 'chapter-5/page-57.md'), 'utf8'));

  const next = await commitChanges({
    repo,
    branch: primaryBranch,
    base: pushed,
    changes: [{ path: 'chapter-0/page-0.md', content: '# Page 0\n\nEdited in Quire.\n' }],
    message: 'Edit in Quire',
    author,
  });
  git(clone, 'pull', '--quiet', '--ff-only');
  assert.is(git(clone, 'rev-parse', 'HEAD').trim(), next.commit);
  assert.is(readFileSync(path.join(clone, 'chapter-0/page-0.md'), 'utf8'), '# Page 0\n\nEdited in Quire.\n');
  git(repo.gitdir, 'fsck', '--strict', '--no-dangling');
});

test.run();
