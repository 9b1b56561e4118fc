import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { commitChanges } from '../../engine/commitChanges.js';
import { renderSummary } from '../../engine/layout/summary.js';
import { readRevision } from '../../engine/readRevision.js';
import { createRepository, primaryBranch } from '../../engine/repository.js';
import { settlePageFilesSnapshots } from '../../engine/revision/pageFilesSnapshot.js';
import { removeSpaceRepository, spaceGitdir } from '../../engine/spaceRepositories.js';

const test = suite('engine: a revision read after a restart takes its page files from the snapshot');
const coldReader = fileURLToPath(new URL('./readRevisionCold.ts', import.meta.url));
const author = { name: 'Ada', email: 'ada@example.com' };
let dir: string;
test.before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quire-snapshot-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

const pageCount = 40;
// Each repository's pages are its own: blobs this process has parsed before would come from its cache, not its objects.
let repositories = 0;
const markdownOf = (n: number, repository: number) => `# Page ${n}\n\nPage ${n} of repository ${repository} says something of its own.\n`;

/** A repository of 40 pages, read once (its snapshot written), in a data folder's `spaces/`. */
async function readOnce(markdown = markdownOf) {
  const repository = (repositories += 1);
  const root = mkdtempSync(path.join(dir, 'data-'));
  const spaceId = `space${path.basename(root).replace(/\W/g, '')}`;
  const repo = await createRepository(spaceGitdir(root, spaceId));
  const changes = Array.from({ length: pageCount }, (_, n) => ({ path: `page-${n}.md`, content: markdown(n, repository) }));
  changes.push({ path: 'SUMMARY.md', content: renderSummary([{ title: null, entries: changes.map((change, n) => ({ title: `Page ${n}`, target: change.path, children: [] })) }]) });
  const { commit } = await commitChanges({ repo, branch: primaryBranch, base: null, changes, message: 'pages', author });
  await readRevision(repo, commit);
  await settlePageFilesSnapshots();
  return { root, spaceId, repo, commit, repository, snapshot: `${repo.gitdir}.quire-page-files.json` };
}

const readCold = (gitdir: string, commit: string) =>
  JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', coldReader, gitdir, commit], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })) as Record<string, string>;

/** Deletes the loose objects of the pages' blobs: only the snapshot can then give their text. */
function deletePageBlobs(gitdir: string) {
  for (let n = 0; n < pageCount; n += 1) {
    const oid = execFileSync('git', ['-C', gitdir, 'rev-parse', `${primaryBranch}:page-${n}.md`], { encoding: 'utf8' }).trim();
    rmSync(path.join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2)));
  }
}

test('a process with empty caches builds the revision from the snapshot, not from the page objects', async () => {
  const { repo, commit, repository, snapshot } = await readOnce();
  assert.ok(existsSync(snapshot), 'the snapshot is written beside the repository');
  const copy = path.join(dir, 'without-blobs.git');
  cpSync(repo.gitdir, copy, { recursive: true });
  cpSync(snapshot, `${copy}.quire-page-files.json`);
  deletePageBlobs(copy);
  const pages = readCold(copy, commit);
  for (let n = 0; n < pageCount; n += 1) assert.is(pages[`page-${n}`], markdownOf(n, repository));
});

test('pages longer than a read, and characters of several bytes across reads, come back whole', async () => {
  // The snapshot is read in chunks of 256 KB: one page of 600 KB, and pages of odd sizes of 1-to-4-byte characters.
  const markdown = (n: number, repository: number) => `# Page ${n} of ${repository}\n\n${n === 3 ? 'x'.repeat(600_000) : 'aé漢🙂'.repeat(1500 + n * 37)}\n`;
  const { repo, commit, repository, snapshot } = await readOnce(markdown);
  const copy = path.join(dir, 'large-without-blobs.git');
  cpSync(repo.gitdir, copy, { recursive: true });
  cpSync(snapshot, `${copy}.quire-page-files.json`);
  deletePageBlobs(copy);
  const pages = readCold(copy, commit);
  for (let n = 0; n < pageCount; n += 1) assert.ok(pages[`page-${n}`] === markdown(n, repository), `page ${n}`);
});

test('a torn or foreign snapshot is ignored: the page objects are read', async () => {
  const { repo, commit, repository, snapshot } = await readOnce();
  const text = readFileSync(snapshot, 'utf8');
  writeFileSync(snapshot, text.slice(0, Math.floor(text.length / 2)));
  assert.is(readCold(repo.gitdir, commit)['page-7'], markdownOf(7, repository), 'torn');
  writeFileSync(snapshot, text.replace('{"format":1}', '{"format":99}'));
  assert.is(readCold(repo.gitdir, commit)['page-7'], markdownOf(7, repository), 'another format');
});

test('the snapshot goes with its repository', async () => {
  const { root, spaceId, snapshot } = await readOnce();
  await removeSpaceRepository(root, spaceId);
  assert.not.ok(existsSync(snapshot));
});

test.run();
