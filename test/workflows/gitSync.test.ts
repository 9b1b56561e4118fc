import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { findGitSync } from '../../storage/gitSync.js';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { httpBackend } from '../helpers/gitHttpBackend.js';
import { until } from '../helpers/poll.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';
import { configureIntegrations } from '../../domain/common/integrations.js';
import { gitValue as git } from '../helpers/gitClient.js';

const test = suite('Git Sync: import from and export to a remote repository, as Temporal jobs');
let t: TestServer;
let fx: OrganizationFixture;
let backend: { url: string; close(): void };
const remotes = mkdtempSync(path.join(tmpdir(), 'quire-git-sync-'));

test.before(
  reportingErrors(async () => {
    t = await startTestServer({}, { worker: true });
    fx = await organizationWithMembers(t);
    backend = await httpBackend(remotes);
  }),
);
test.after(async () => {
  configureIntegrations({ allowPrivateFetch: false });
  backend?.close();
  await t?.close();
  rmSync(remotes, { recursive: true, force: true });
});

/** A bare repository served by `git http-backend`, holding a docs project in `docs/` with `.gitbook.yaml` naming `./content/` its root. */
function upstreamRepository(name: string, summaryExtra = ''): string {
  const work = path.join(remotes, `${name}-work`);
  mkdirSync(path.join(work, 'docs', 'content'), { recursive: true });
  git(work, 'init', '-q');
  writeFileSync(path.join(work, 'package.json'), '{}\n');
  writeFileSync(path.join(work, 'docs', '.gitbook.yaml'), 'root: ./content/\n');
  writeFileSync(path.join(work, 'docs', 'content', 'README.md'), '# Welcome\n\nImported from git.\n');
  writeFileSync(path.join(work, 'docs', 'content', 'guide.md'), '# Guide\n\nHow to do it.\n');
  writeFileSync(path.join(work, 'docs', 'content', 'SUMMARY.md'), `# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n${summaryExtra}`);
  git(work, 'add', '-A');
  git(work, 'commit', '-qm', 'Docs');
  git(remotes, 'clone', '-q', '--bare', work, `${name}.git`);
  return `${backend.url}/${name}.git`;
}

async function newSpace(title: string) {
  const created = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title } });
  assert.is(created.status, 201);
  return created.body as { id: string; revision: string };
}

const settled = (spaceId: string) =>
  until(
    `the Git Sync job of ${spaceId} to finish`,
    async () => {
      const record = await findGitSync(t.server.db, spaceId);
      return record && record.lastState !== 'running' ? record : undefined;
    },
    60_000,
    50,
  );

const pageTitles = async (spaceId: string) =>
  ((await t.call('GET', `/v1/spaces/${spaceId}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ title: string }>).map((page) => page.title);

test('an import through the address rules: a loopback remote is refused unless private fetches are allowed', async () => {
  const url = upstreamRepository('guarded');
  const space = await newSpace('Guarded');
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/git/import`, { token: fx.editor.token, body: { url, ref: 'refs/heads/main', repoProjectDirectory: 'docs' } })).status, 204);
  const record = await settled(space.id);
  assert.is(record.lastState, 'failure');
  assert.match(record.lastMessage ?? '', 'is not a public address');
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.reader.token })).body.revision, space.revision);
});

test('import: the project folder and .gitbook.yaml root become the space content; getSpaceGitInfo shows the provider', async () => {
  configureIntegrations({ allowPrivateFetch: true });
  const url = upstreamRepository('imported');
  const space = await newSpace('Imported');
  assert.is((await t.call('GET', `/v1/spaces/${space.id}/git/info`, { token: fx.reader.token })).status, 404);
  const started = await t.call('POST', `/v1/spaces/${space.id}/git/import`, {
    token: fx.editor.token,
    body: { url: url.replace('://', '://someone:secret@'), ref: 'refs/heads/main', repoProjectDirectory: 'docs', gitInfo: { provider: 'github', url: 'https://github.com/acme/imported' } },
  });
  assert.is(started.status, 204);
  const record = await settled(space.id);
  assert.is(record.lastState, 'success', record.lastMessage ?? '');
  assert.equal(await pageTitles(space.id), ['Welcome', 'Guide']);
  const info = await t.call('GET', `/v1/spaces/${space.id}/git/info`, { token: fx.reader.token });
  assert.is(info.status, 200);
  assert.equal(
    { repoName: info.body.repoName, installationProvider: info.body.installationProvider, url: info.body.url },
    { repoName: 'imported', installationProvider: 'github', url: 'https://github.com/acme/imported' },
  );
  const revision = (await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.reader.token })).body.revision;
  assert.is.not(revision, space.revision);
  const message = execFileSync('git', ['--git-dir', path.join(t.dataDir, 'spaces', `${space.id}.git`), 'log', '-1', '--format=%B', revision], { encoding: 'utf8' });
  assert.match(message, /^Import refs\/heads\/main of http:\/\/127\.0\.0\.1:\d+\/imported\.git \([0-9a-f]{7}\)/);
  assert.not.match(message, 'secret', 'credentials never reach the history');
  assert.is((await t.call('DELETE', `/v1/spaces/${space.id}/git/legacy-installation`, { token: fx.admin.token })).status, 205);

  // Edited through the API since: an import without force leaves it, one with force replaces it.
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/content/template`, { token: fx.admin.token, body: { id: 'knowledge-base' } })).status, 201);
  const edited = (await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.reader.token })).body.revision;
  await t.call('POST', `/v1/spaces/${space.id}/git/import`, { token: fx.editor.token, body: { url, ref: 'refs/heads/main', repoProjectDirectory: 'docs' } });
  const kept = await settled(space.id);
  assert.is(kept.lastState, 'failure');
  assert.match(kept.lastMessage ?? '', `the space changed since its last Git Sync (${revision.slice(0, 7)} → ${edited.slice(0, 7)}): import with "force" to replace its content`);
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.reader.token })).body.revision, edited);

  await t.call('POST', `/v1/spaces/${space.id}/git/import`, { token: fx.editor.token, body: { url, ref: 'refs/heads/main', repoProjectDirectory: 'docs', standalone: true } });
  const standalone = await settled(space.id);
  assert.is(standalone.lastState, 'success', standalone.lastMessage ?? '');
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.reader.token })).body.revision, edited, 'a standalone import leaves main');
  const beside = await t.call('GET', `/v1/spaces/${space.id}/revisions/${standalone.lastCommit}/pages`, { token: fx.reader.token });
  assert.equal(
    beside.body.pages.map((page: { title: string }) => page.title),
    ['Welcome', 'Guide'],
    'its revision is readable',
  );

  await t.call('POST', `/v1/spaces/${space.id}/git/import`, { token: fx.editor.token, body: { url, ref: 'refs/heads/main', repoProjectDirectory: 'docs', force: true } });
  assert.is((await settled(space.id)).lastState, 'success');
  assert.equal(await pageTitles(space.id), ['Welcome', 'Guide']);
  const forced = (await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.reader.token })).body.revision;
  assert.is(execFileSync('git', ['--git-dir', path.join(t.dataDir, 'spaces', `${space.id}.git`), 'rev-parse', `${forced}^`], { encoding: 'utf8' }).trim(), edited, 'on top of the history');
});

test('an import that breaks the layout, or lacks its ref, changes nothing and records why; bad requests are 400s', async () => {
  configureIntegrations({ allowPrivateFetch: true });
  const url = upstreamRepository('broken', '* [Ghost](ghost.md)\n');
  const space = await newSpace('Broken');
  await t.call('POST', `/v1/spaces/${space.id}/git/import`, { token: fx.editor.token, body: { url, ref: 'refs/heads/main', repoProjectDirectory: 'docs' } });
  const broken = await settled(space.id);
  assert.is(broken.lastState, 'failure');
  assert.match(broken.lastMessage ?? '', 'SUMMARY.md:5: links to ghost.md, which is not in the commit');
  await t.call('POST', `/v1/spaces/${space.id}/git/import`, { token: fx.editor.token, body: { url, ref: 'refs/heads/nothing' } });
  assert.match((await settled(space.id)).lastMessage ?? '', 'has no refs/heads/nothing');
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.reader.token })).body.revision, space.revision);
  const refused = await t.call('POST', `/v1/spaces/${space.id}/git/import`, { token: fx.editor.token, body: { url: 'file:///etc', ref: 'refs/heads/main' } });
  assert.is(refused.status, 400);
  assert.match(refused.body.error.message, 'must be an http or https URL');
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/git/import`, { token: fx.editor.token, body: { url, ref: 'main' } })).status, 400);
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/git/import`, { token: fx.reader.token, body: { url, ref: 'refs/heads/main' } })).status, 403);
});

test('export: the space lands in the remote project folder on top of its history, with GITBOOK-<n> lines for merged change requests', async () => {
  configureIntegrations({ allowPrivateFetch: true });
  const url = upstreamRepository('exported');
  const space = await newSpace('Exported');
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Add a page' } })).body;
  const edited = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
    token: fx.editor.token,
    body: { changes: [{ operation: 'insert_page', title: 'Added', document: { markdown: 'A page from a change request.\n' } }] },
  });
  assert.is(edited.status, 200);
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: fx.admin.token })).body.result, 'merge');
  const head = (await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.reader.token })).body.revision;

  const started = await t.call('POST', `/v1/spaces/${space.id}/git/export`, {
    token: fx.editor.token,
    body: { url, ref: 'refs/heads/main', commitMessage: 'Docs from Quire', repoProjectDirectory: 'docs/content' },
  });
  assert.is(started.status, 204);
  const record = await settled(space.id);
  assert.is(record.lastState, 'success', record.lastMessage ?? '');
  const bare = path.join(remotes, 'exported.git');
  const message = git(bare, 'log', '-1', '--format=%B', 'main');
  assert.is(message, `Docs from Quire\n\nGITBOOK-1: Add a page\n\nQuire-Revision: ${head}`);
  assert.is(git(bare, 'rev-parse', 'main^'), git(path.join(remotes, 'exported-work'), 'rev-parse', 'HEAD'), 'on top of the remote history');
  assert.is(git(bare, 'show', 'main:package.json'), '{}', 'the rest of the repository is kept');
  const spaceTree = execFileSync('git', ['--git-dir', path.join(t.dataDir, 'spaces', `${space.id}.git`), 'rev-parse', `${head}^{tree}`], { encoding: 'utf8' }).trim();
  assert.is(git(bare, 'rev-parse', 'main:docs/content'), spaceTree, 'the project folder holds the space exactly');

  await t.call('POST', `/v1/spaces/${space.id}/git/export`, { token: fx.editor.token, body: { url, ref: 'refs/heads/main', commitMessage: 'Nothing new', repoProjectDirectory: 'docs/content' } });
  assert.is((await settled(space.id)).lastState, 'success');
  assert.is(git(bare, 'log', '-1', '--format=%s', 'main'), 'Docs from Quire', 'an export with nothing new pushes nothing');
});

test.run();
