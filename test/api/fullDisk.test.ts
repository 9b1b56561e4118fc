import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';
import { spaceGitdir } from '../../engine/spaceRepositories.js';

// Issue 57, a full disk: the data directory on a small tmpfs of its own, filled to the last byte.
// Each write answers 507 naming the full disk; nothing half-written stays (the space's refs point
// at objects that are there: git fsck); reads go on throughout; once space is freed the same
// writes succeed. (The database is on the same disk with SQLite; with PostgreSQL only the
// repositories and uploads are.)
const run = promisify(execFile);
const test = suite('a full disk: writes answer 507 and leave nothing half-written, reads go on, writes come back');
const mountPoint = mkdtempSync(path.join(tmpdir(), 'quire-full-disk-'));
const filler = path.join(mountPoint, 'filler');
let t: TestServer;
let fx: OrganizationFixture;
let mounted = false;

test.before(
  reportingErrors(async () => {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mountPoint], { stdio: 'pipe' });
      mounted = true;
    } catch (error) {
      throw new Error(`this suite needs a tmpfs of its own (mount -t tmpfs, as root or with CAP_SYS_ADMIN): ${(error as Error).message}`);
    }
    t = await startTestServer({}, { dataDir: path.join(mountPoint, 'data') });
    fx = await organizationWithMembers(t);
  }),
);
test.after(async () => {
  await t?.close();
  if (mounted) execFileSync('umount', ['-l', mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Fills the disk to its last byte. */
function fill() {
  const descriptor = openSync(filler, 'w');
  const block = Buffer.alloc(1024 * 1024, 1);
  try {
    for (let size = block.length; size >= 1;) {
      try {
        writeSync(descriptor, block, 0, size);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        size = Math.floor(size / 2);
      }
    }
  } finally {
    closeSync(descriptor);
  }
}

test('writes answer 507 while the disk is full, reads go on, and the same writes work once space is freed', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Guide', template: { id: 'getting-started' } } })).body;
  const pages = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.admin.token })).body.pages as Array<{ id: string; path: string }>;
  const faq = pages.find((page) => page.path === 'faq')!;
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.admin.token, body: { subject: 'Big page' } })).body;
  const big = `${'A paragraph that takes room on the disk. '.repeat(2000)}\n`;
  const write = () =>
    t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
      token: fx.admin.token,
      body: { changes: [{ operation: 'update_page', page: faq.id, document: { markdown: big } }] },
    });
  const before = git(space.id, 'for-each-ref');
  // An upload asked for before the disk fills, its bytes sent after; a clone pushing a commit.
  const bytes = Buffer.alloc(512 * 1024, 7);
  const asked = (
    await t.call('POST', `/v1/orgs/${fx.org.id}/storage/upload`, { token: fx.admin.token, body: { file: { name: 'docs.zip', type: 'application/zip', size: bytes.length }, kind: 'import_file' } })
  ).body;
  const clone = mkdtempSync(path.join(tmpdir(), 'quire-full-disk-clone-'));
  // Asynchronously: the server answering them runs in this process.
  await run('git', ['clone', '--quiet', `${t.url.replace('://', `://writer:${fx.admin.token}@`)}/git/${space.id}.git`, clone]);
  writeFileSync(path.join(clone, 'pushed.md'), `# Pushed\n\n${'Pushed text. '.repeat(20_000)}\n`);
  execFileSync('git', ['-C', clone, '-c', 'user.name=W', '-c', 'user.email=w@example.com', 'add', '-A']);
  execFileSync('git', ['-C', clone, '-c', 'user.name=W', '-c', 'user.email=w@example.com', 'commit', '--quiet', '-m', 'A big page']);
  const push = () =>
    run('git', ['-C', clone, 'push', '--quiet', 'origin', 'HEAD:main']).then(
      () => ({ status: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({ status: error.code ?? 1, stderr: error.stderr ?? '' }),
    );

  fill();
  // Uploads are kept in the database: refused with SQLite, which is on the full disk; PostgreSQL's isn't.
  const onFullDisk = t.server.db.dialect === 'sqlite';
  const sent = await fetch(asked.url, { method: 'PUT', body: bytes });
  assert.is(sent.status, onFullDisk ? 507 : 204, await sent.text());
  const pushed = await push();
  assert.is.not(pushed.status, 0, 'the push is refused');
  const refused = await write();
  assert.is(refused.status, 507, JSON.stringify(refused.body));
  assert.match(refused.body.error.message, /no disk space left/);
  const upload = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Another' } });
  assert.is(upload.status, 507, 'making a space (its repository) is refused too');

  // Reads go on.
  assert.is((await t.call('GET', `/v1/spaces/${space.id}/content/page/${faq.id}`, { token: fx.reader.token })).status, 200);
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.reader.token })).status, 200);
  // Nothing half-written: the refs are as they were, and every object they reach is there.
  assert.is(git(space.id, 'for-each-ref'), before);
  rmSync(filler);
  git(space.id, 'fsck', '--strict', '--no-dangling');

  // Space again: the same writes work.
  assert.is((await write()).status, 200);
  if (onFullDisk) assert.is((await fetch(asked.url, { method: 'PUT', body: bytes })).status, 204);
  const again = await push();
  assert.is(again.status, 0, again.stderr);
  rmSync(clone, { recursive: true, force: true });
  assert.is((await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Another' } })).status, 201);
  git(space.id, 'fsck', '--strict', '--no-dangling');
});

function git(spaceId: string, ...args: string[]): string {
  return execFileSync('git', ['--git-dir', spaceGitdir(t.dataDir, spaceId), ...args], { encoding: 'utf8' });
}

test.run();
