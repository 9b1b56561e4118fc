import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { emptyTestDatabase, testingOnPostgres } from '../helpers/postgres.js';
import { runAdmin } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

// Issue 57, backup and restore: `admin backup` while a writer merges change requests and a pusher
// pushes commits, then `admin restore` into an empty DATA_DIR (and an empty database), and the
// restored Quire serves it. Every write acknowledged before the backup started is in it, nothing
// in it is half-written (git fsck --strict on every repository), and the old tokens sign in.
const test = suite('backup while writes go on, restore into an empty deployment');
const run = promisify(execFile);
let t: TestServer;
let fx: OrganizationFixture;
const work = mkdtempSync(path.join(tmpdir(), 'quire-backup-test-'));

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    fx = await organizationWithMembers(t);
  }),
);
test.after(async () => {
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

test('a backup taken under writes and pushes restores into a Quire that serves what was acknowledged before it', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Guide', template: { id: 'getting-started' } } })).body;
  const pushedSpace = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Pushed', template: { id: 'getting-started' } } })).body;
  await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Empty', empty: true } });
  const site = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Docs', spaces: [space.id] } })).body;
  await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.id}/publish`, { token: fx.admin.token });

  // The writer: change requests merged one after another, each adding a page of its number.
  const merged: Array<{ n: number; at: number }> = [];
  const pushed: Array<{ n: number; at: number }> = [];
  let going = true;
  const writer = (async () => {
    for (let n = 1; going; n += 1) {
      const opened = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.admin.token, body: { subject: `Write ${n}` } })).body;
      await t.call('POST', `/v1/spaces/${space.id}/change-requests/${opened.id}/content`, {
        token: fx.admin.token,
        body: { changes: [{ operation: 'insert_page', title: `Written ${n}`, document: { markdown: `Written page ${n}.\n` } }] },
      });
      const done = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${opened.id}/merge`, { token: fx.admin.token });
      if (done.body.result === 'merge') merged.push({ n, at: Date.now() });
    }
  })();
  // The pusher: a clone pushing a commit a round, each a file of its number.
  const clone = path.join(work, 'clone');
  await run('git', ['clone', '--quiet', `${t.url.replace('://', `://writer:${fx.admin.token}@`)}/git/${pushedSpace.id}.git`, clone]);
  const pusher = (async () => {
    for (let n = 1; going; n += 1) {
      writeFileSync(path.join(clone, `pushed-${n}.md`), `# Pushed ${n}\n\nPushed page ${n}.\n`);
      await run('git', ['-C', clone, 'add', '-A']);
      await run('git', ['-C', clone, '-c', 'user.name=P', '-c', 'user.email=p@example.com', 'commit', '--quiet', '-m', `Push ${n}`]);
      const ok = await run('git', ['-C', clone, 'push', '--quiet', 'origin', 'HEAD:main']).then(
        () => true,
        () => false,
      );
      if (ok) pushed.push({ n, at: Date.now() });
      else await run('git', ['-C', clone, 'pull', '--quiet', '--rebase', 'origin', 'main']).catch(() => undefined);
    }
  })();

  // Forty merges first: enough history that bundling takes a while, and main moves while it does
  // (git's own bundle of the live repository then left main out: the restored space had none).
  while (merged.length < 40 || pushed.length < 3) await new Promise((resolve) => setTimeout(resolve, 50));
  const archive = path.join(work, 'quire-backup.tar.gz');
  const started = Date.now();
  const backup = await runAdmin(['backup', archive], { DATA_DIR: t.dataDir });
  // A few more writes after it, then both stop.
  const mergedBefore = merged.filter((write) => write.at < started).map((write) => write.n);
  const pushedBefore = pushed.filter((write) => write.at < started).map((write) => write.n);
  await new Promise((resolve) => setTimeout(resolve, 300));
  going = false;
  await Promise.all([writer, pusher]);
  assert.is(backup.code, 0, backup.stderr);
  assert.match(backup.stdout, /^backed up \d+ organizations, \d+ users, 3 spaces, \d+ change requests, \d+ comments, 1 sites, \d+ tokens and 3 repositories to /);

  // Into an empty deployment (and an empty database on PostgreSQL).
  const restored = path.join(work, 'restored');
  const restoredDatabase = testingOnPostgres ? await emptyTestDatabase('restore') : undefined;
  const env = { DATA_DIR: restored, ...(restoredDatabase ? { QUIRE_DATABASE_URL: restoredDatabase } : {}) };
  const restore = await runAdmin(['restore', archive], env);
  assert.is(restore.code, 0, restore.stderr);
  assert.match(restore.stdout, /^restored .* and 3 repositories from /);
  const again = await runAdmin(['restore', archive], env);
  assert.is(again.code, 2, 'never over a deployment');
  assert.match(again.stderr, /already holds a deployment/);

  const b = await startTestServer(restoredDatabase ? { databaseUrl: restoredDatabase } : { databaseUrl: '' }, { dataDir: restored });
  try {
    const read = await b.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.reader.token });
    assert.is(read.status, 200, JSON.stringify(read.body));
    const titles = (read.body.pages as Array<{ title: string }>).map((page) => page.title);
    for (const n of mergedBefore) assert.ok(titles.includes(`Written ${n}`), `merge ${n}, acknowledged before the backup, is in it`);
    const files = execFileSync('git', ['--git-dir', spaceGitdir(restored, pushedSpace.id), 'ls-tree', '--name-only', 'main'], { encoding: 'utf8' });
    for (const n of pushedBefore) assert.match(files, `pushed-${n}.md`, `push ${n}, acknowledged before the backup, is in it`);
    for (const id of [space.id, pushedSpace.id]) execFileSync('git', ['--git-dir', spaceGitdir(restored, id), 'fsck', '--strict', '--no-dangling']);
    // What the database names, the repositories hold: every change request's branch.
    const changeRequests = (await b.call('GET', `/v1/spaces/${space.id}/change-requests?limit=1000`, { token: fx.admin.token })).body.items as Array<{ id: string }>;
    for (const changeRequest of changeRequests) assert.is((await b.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/pages`, { token: fx.admin.token })).status, 200);
    const home = await fetch(`${b.url}/sites/${site.id}/`);
    assert.is(home.status, 200, 'the published site serves');
  } finally {
    await b.close();
  }

  const damaged = path.join(work, 'damaged.tar.gz');
  writeFileSync(damaged, 'not a backup');
  const refused = await runAdmin(['restore', damaged], { DATA_DIR: path.join(work, 'elsewhere'), ...(restoredDatabase ? { QUIRE_DATABASE_URL: await emptyTestDatabase('refused') } : {}) });
  assert.is(refused.code, 2);
  assert.match(refused.stderr, /is not a Quire backup/);
});

test.run();
