import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { migrations } from '../../storage/migrations/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Issue 57, upgrades: a DATA_DIR written by the last landed release opens with this one and
// migrates forward, its content all there. The fixture (test/fixtures/upgrade/stop-62.tar.gz) was
// made by commit 1a308fc, stop 62's landing, through its own API: an organization with members, a
// space from the getting-started template, a change request with a changed page and a comment, a
// published site. Its database is at migration 27; this version adds the ones after.
const test = suite('a data directory of the previous release opens with this one');
const fixture = JSON.parse(readFileSync(new URL('../fixtures/upgrade/stop-62.json', import.meta.url), 'utf8')) as Record<string, string> & { migration: number };
const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-upgrade-'));
let t: TestServer;

test.before(async () => {
  execFileSync('tar', ['xzf', new URL('../fixtures/upgrade/stop-62.tar.gz', import.meta.url).pathname, '-C', dataDir]);
  // The fixture is a SQLite data directory, whichever database the rest of the run uses.
  t = await startTestServer({ databaseUrl: '' }, { dataDir });
});
test.after(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('migrated forward: every migration after the fixture’s applied once', async () => {
  const newest = migrations[migrations.length - 1]!.version;
  assert.ok(newest > fixture.migration, `this version adds migrations after ${fixture.migration}`);
  assert.is((await t.server.db.get<{ user_version: number }>('PRAGMA user_version'))?.user_version, newest);
  for (const table of ['audit_events', 'site_questions', 'glossary_entries', 'site_segment_days']) {
    assert.ok(await t.server.db.get(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`, [table]), `${table} exists`);
  }
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
