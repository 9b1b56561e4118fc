import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { restorePostgres } from '../../storage/backup.js';
import { migrations } from '../../storage/migrations/index.js';
import { emptyTestDatabase, testingOnPostgres } from '../helpers/postgres.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Issue 57, upgrades: a DATA_DIR and database written by the last landed release open with this
// one and migrate forward, their content all there. The fixtures were made by commit 1a308fc,
// stop 62's landing, through its own API (scripts/upgrade-fixture.mts): an organization with
// members, a space from the getting-started template, a change request with a changed page and a
// comment, a published site. Their database is at migration 27; this version adds the ones after.
// On SQLite the fixture is the data directory, quire.sqlite included (stop-62.tar.gz); on
// PostgreSQL (the run's second pass) it is the data directory's repositories (stop-62-postgres.tar.gz)
// and the database as pg_dump wrote it (stop-62-postgres.dump), restored into an empty database.
const test = suite('a data directory and database of the previous release open with this one');
const release = testingOnPostgres ? 'stop-62-postgres' : 'stop-62';
const fixturePath = (extension: string) => new URL(`../fixtures/upgrade/${release}.${extension}`, import.meta.url).pathname;
const fixture = JSON.parse(readFileSync(fixturePath('json'), 'utf8')) as Record<string, string> & { migration: number };
const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-upgrade-'));
let t: TestServer;

test.before(async () => {
  execFileSync('tar', ['xzf', fixturePath('tar.gz'), '-C', dataDir]);
  let databaseUrl = '';
  if (testingOnPostgres) {
    databaseUrl = await emptyTestDatabase('upgrade');
    await restorePostgres(databaseUrl, fixturePath('dump'));
  }
  t = await startTestServer({ databaseUrl }, { dataDir });
});
test.after(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('migrated forward: every migration after the fixture’s applied once', async () => {
  const newest = migrations[migrations.length - 1]!.version;
  assert.ok(newest > fixture.migration, `this version adds migrations after ${fixture.migration}`);
  const db = t.server.db;
  if (testingOnPostgres) {
    // Each migration records its version: 27's from the release, one row each for those after.
    const versions = (await db.all<{ version: number }>('SELECT version FROM quire_schema ORDER BY version')).map((row) => Number(row.version));
    assert.equal(
      versions.filter((version) => version > fixture.migration),
      migrations.filter((migration) => migration.version > fixture.migration).map((migration) => migration.version),
    );
    assert.is(Math.max(...versions), newest);
  } else {
    assert.is((await db.get<{ user_version: number }>('PRAGMA user_version'))?.user_version, newest);
  }
  const tableNamed = testingOnPostgres ? 'SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?' : "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?";
  for (const table of ['audit_events', 'site_questions', 'glossary_entries', 'site_segment_days']) assert.ok(await db.get(tableNamed, [table]), `${table} exists`);
});

test('the content, people and tokens of the older release are all there', async () => {
  const admin = { token: fixture.adminToken! };
  const org = await t.call('GET', `/v1/orgs/${fixture.organization}`, { token: admin.token });
  assert.is(org.status, 200, 'the admin’s token still signs in');
  assert.is(org.body.title, 'Upgraded Docs');
  const members = await t.call('GET', `/v1/orgs/${fixture.organization}/members`, { token: admin.token });
  assert.ok(members.body.count >= 5);

  const pages = await t.call('GET', `/v1/spaces/${fixture.space}/content/pages`, { token: fixture.readerToken });
  assert.is(pages.status, 200);
  assert.equal(
    pages.body.pages.map((page: { title: string }) => page.title),
    ['Introduction', 'Quick start', 'FAQ'],
  );
  const changed = await t.call('GET', `/v1/spaces/${fixture.space}/change-requests/${fixture.changeRequest}/content/page/${fixture.faqPage}?format=markdown`, { token: fixture.readerToken });
  assert.match(changed.body.markdown, /The support team, within a day\./);
  const comments = await t.call('GET', `/v1/spaces/${fixture.space}/change-requests/${fixture.changeRequest}/comments`, { token: fixture.readerToken });
  assert.equal(
    comments.body.items.map((comment: { body: { markdown: string } }) => comment.body.markdown.trim()),
    ['Looks right to me.'],
  );

  // The change request merges under this version, and the published site shows it.
  const merged = await t.call('POST', `/v1/spaces/${fixture.space}/change-requests/${fixture.changeRequest}/merge`, { token: fixture.adminToken });
  assert.is(merged.body.result, 'merge');
  const faq = await fetch(`${t.url}${fixture.sitePath}faq`);
  assert.is(faq.status, 200);
  assert.match(await faq.text(), /The support team, within a day\./);
  execFileSync('git', ['--git-dir', spaceGitdir(dataDir, fixture.space!), 'fsck', '--strict', '--no-dangling']);
});

test.run();
