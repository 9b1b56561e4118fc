import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { commitChanges, type Change } from '../../engine/commitChanges.js';
import { createRepository, primaryBranch, type Repository } from '../../engine/repository.js';
import { searchIndexChanges, SearchIndexerStoppedError, stopSearchIndexer } from '../../engine/runtime/searchIndexer.js';

const test = suite('engine: the search indexer’s thread');
const author = { name: 'Ada', email: 'ada@example.com' };
let dir: string;
test.before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quire-indexer-'));
});
test.after(async () => {
  await stopSearchIndexer();
  rmSync(dir, { recursive: true, force: true });
});

async function commit(repo: Repository, base: string | null, changes: Change[]) {
  return (await commitChanges({ repo, branch: primaryBranch, base, changes, message: 'test', author })).commit;
}

/** The index's hashes as a caller keeps them, and how often the thread asked for them. */
function indexKept(hashes = new Map<string, string>()) {
  const kept = { hashes, asked: 0, read: async () => ((kept.asked += 1), kept.hashes) };
  return kept;
}

test('a first index gets every page; the next refresh only the changed one, without asking for the index’s hashes', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const base = await commit(repo, null, [
    { path: 'SUMMARY.md', content: '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide.md)\n  * [Step](guide/step.md)\n' },
    { path: 'README.md', content: '# Home\n\nWelcome.\n' },
    { path: 'guide.md', content: '# Guide\n\nRead this.\n\n## Details\n\nMore.\n' },
    { path: 'guide/step.md', content: '# Step\n\nDo that.\n' },
  ]);
  const index = indexKept();
  const first = await searchIndexChanges(repo.gitdir, base, null, index.read);
  assert.is(index.asked, 1, 'a space it never saw: the thread asks for the index’s hashes');
  assert.equal(
    first.rows.map((row) => [row.title, row.ancestors]),
    [
      ['Home', []],
      ['Guide', []],
      ['Step', ['Guide']],
    ],
  );
  assert.equal(
    first.rows[1]!.sections.map((section) => [section.id, section.title, section.body]),
    [
      ['', 'Guide', 'Read this.'],
      ['details', 'Details', 'More.'],
    ],
  );
  assert.equal(first.removed, []);

  const head = await commit(repo, base, [
    { path: 'guide/step.md', content: '# Step\n\nDo that, then this.\n' },
    { path: 'SUMMARY.md', content: '# Table of contents\n\n* [Guide](guide.md)\n  * [Step](guide/step.md)\n' },
  ]);
  const second = await searchIndexChanges(repo.gitdir, head, base, index.read);
  assert.is(index.asked, 1, 'the thread knows the hashes at the indexed revision');
  assert.equal(
    second.rows.map((row) => [row.pageId, row.sections[0]!.body]),
    [[first.rows[2]!.pageId, 'Do that, then this.']],
  );
  assert.equal(second.removed, [first.rows[0]!.pageId]);
});

test('an index at a revision the thread did not compute (another process wrote it) is compared with the hashes the caller reads', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const base = await commit(repo, null, [
    { path: 'README.md', content: '# Home\n\nWelcome.\n' },
    { path: 'other.md', content: '# Other\n\nText.\n' },
  ]);
  const everyPage = await searchIndexChanges(repo.gitdir, base, null, indexKept().read);
  const written = new Map(everyPage.rows.map((row) => [row.pageId, row.contentHash]));
  const head = await commit(repo, base, [{ path: 'other.md', content: '# Other\n\nNew text.\n' }]);
  const index = indexKept(written);
  const changes = await searchIndexChanges(repo.gitdir, head, 'a revision indexed elsewhere', index.read);
  assert.is(index.asked, 1);
  assert.equal(
    changes.rows.map((row) => row.title),
    ['Other'],
  );
});

test('a large first index arrives whole, its rows sent in several messages', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const changes: Change[] = Array.from({ length: 450 }, (_, n) => ({ path: `page-${String(n).padStart(3, '0')}.md`, content: `# Page ${n}\n\nWord${n}.\n` }));
  const head = await commit(repo, null, changes);
  const { rows } = await searchIndexChanges(repo.gitdir, head, null, indexKept().read);
  assert.is(rows.length, 450);
  assert.is(new Set(rows.map((row) => row.pageId)).size, 450);
  assert.ok(rows.some((row) => row.sections[0]!.body === 'Word449.'));
});

test('a revision that can’t be read fails its refresh with the reason; one under way when the indexer stops fails as stopped', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const head = await commit(repo, null, [{ path: 'README.md', content: '# Home\n' }]);
  const missing = await searchIndexChanges(repo.gitdir, 'f'.repeat(40), null, indexKept().read).then(
    () => null,
    (error: Error) => error,
  );
  assert.ok(missing && !(missing instanceof SearchIndexerStoppedError), 'an error of its own');

  const stopped = searchIndexChanges(repo.gitdir, head, 'never seen', indexKept().read).then(
    () => null,
    (error: Error) => error,
  );
  assert.is(await stopSearchIndexer(), 'idle', 'the thread ended its task before it was stopped');
  assert.instance(await stopped, SearchIndexerStoppedError);
  const again = await searchIndexChanges(repo.gitdir, head, null, indexKept().read);
  assert.is(again.rows.length, 1, 'a later refresh starts the thread again');
});

test('a stop asked in the middle of a large first index ends the task at its next read: the thread is stopped idle, never mid-inflate', async () => {
  const repo = await createRepository(mkdtempSync(path.join(dir, 'repo-')));
  const changes: Change[] = Array.from({ length: 2000 }, (_, n) => ({ path: `page-${String(n).padStart(4, '0')}.md`, content: `# Page ${n}\n\nWords of page ${n}.\n` }));
  const head = await commit(repo, null, changes);
  // The stop comes once the thread has asked for the index's hashes: during the large task that
  // follows, not in the moment between the two (where the refresh fails without a task to end).
  let asked: () => void = () => undefined;
  const hashesAsked = new Promise<void>((resolve) => (asked = resolve));
  const read = indexKept().read;
  const indexing = searchIndexChanges(repo.gitdir, head, null, async () => {
    asked();
    return read();
  }).then(
    () => null,
    (error: Error) => error,
  );
  await hashesAsked;
  // The hashes are read from memory: the large task is posted within this turn's microtasks, before the next turn.
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(await stopSearchIndexer(), 'idle');
  const stopped = await indexing;
  assert.instance(stopped, SearchIndexerStoppedError);
  assert.match(String((stopped as Error).cause), /The search indexer was asked to stop/, 'the task ended on the stop, not on its own');
  assert.is(await stopSearchIndexer(), 'not running');
  const again = await searchIndexChanges(repo.gitdir, head, null, indexKept().read);
  assert.is(again.rows.length, 2000, 'the next refresh runs whole in a new thread');
});

test.run();
