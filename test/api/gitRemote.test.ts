import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import type { OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { git, ok } from '../helpers/gitClient.js';
import { siteMaker } from '../helpers/sites.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('git remote: clone, pull and push over smart HTTP');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
});

const folders: string[] = [];
test.after.each(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const remote = (spaceId: string, token: string) => `${t.url.replace('://', `://writer:${token}@`)}/git/${spaceId}.git`;

function folder(prefix: string): string {
  const made = mkdtempSync(path.join(tmpdir(), `quire-git-${prefix}-`));
  folders.push(made);
  return made;
}

async function newSpace(title = 'Handbook') {
  const created = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title, template: { id: 'getting-started' } } });
  assert.is(created.status, 201);
  return created.body as { id: string; revision: string };
}

async function clone(spaceId: string, token: string, ...options: string[]): Promise<string> {
  const into = path.join(folder('clone'), 'work');
  await ok(path.dirname(into), ...options, 'clone', '--quiet', remote(spaceId, token), into);
  return into;
}

const revisionOf = async (spaceId: string) => (await t.call('GET', `/v1/spaces/${spaceId}`, { token: fx.admin.token })).body.revision as string;

test('a reader clones a space (protocol v2 and v0) with its change-request branches; the clone is the repository', async () => {
  const space = await newSpace();
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Fix the guide' } })).body;
  const v2 = await clone(space.id, fx.reader.token, '-c', 'protocol.version=2');
  assert.is(await ok(v2, 'rev-parse', 'HEAD'), space.revision);
  assert.is(await ok(v2, 'rev-parse', `origin/${changeRequest.branch ?? 'change-requests/1-fix-the-guide'}`), space.revision);
  const v0 = await clone(space.id, fx.reader.token, '-c', 'protocol.version=0');
  assert.is(await ok(v0, 'rev-parse', 'HEAD'), space.revision);
  const listed = await ok(v0, 'ls-remote', remote(space.id, fx.reader.token));
  assert.match(listed, `${space.revision}\trefs/heads/main`);
  assert.match(listed, 'refs/heads/change-requests/1-fix-the-guide');
  assert.ok(readFileSync(path.join(v0, 'SUMMARY.md'), 'utf8').length > 0, 'the Git Sync layout is checked out');
});

test('git asks for credentials (Basic), and a space is a 404 alike to outsiders, for unknown ids and deleted spaces', async () => {
  const space = await newSpace();
  const anonymous = await fetch(`${t.url}/git/${space.id}.git/info/refs?service=git-upload-pack`);
  assert.is(anonymous.status, 401);
  assert.is(anonymous.headers.get('www-authenticate'), 'Basic realm="Quire"');
  const wrong = await fetch(`${t.url}/git/${space.id}.git/info/refs?service=git-upload-pack`, { headers: { authorization: `Basic ${Buffer.from('x:not-a-token').toString('base64')}` } });
  assert.is(wrong.status, 401);
  const asOutsider = await git(folder('outsider'), 'ls-remote', remote(space.id, fx.outsider.token));
  assert.is.not(asOutsider.code, 0);
  const bodies = await Promise.all(
    [space.id, 'no-such-space'].map(async (id) => {
      const response = await fetch(`${t.url}/git/${id}.git/info/refs?service=git-upload-pack`, { headers: { authorization: `Basic ${Buffer.from(`x:${fx.outsider.token}`).toString('base64')}` } });
      return { status: response.status, body: (await response.json()) as { error: { message: string } } };
    }),
  );
  assert.equal(
    bodies.map((answer) => answer.status),
    [404, 404],
  );
  assert.match(bodies[0]!.body.error.message, 'not found');
  const deleted = await newSpace('Bin');
  assert.is((await t.call('DELETE', `/v1/spaces/${deleted.id}`, { token: fx.admin.token })).status, 205);
  const afterDelete = await fetch(`${t.url}/git/${deleted.id}.git/info/refs?service=git-upload-pack`, { headers: { authorization: `Basic ${Buffer.from(`x:${fx.admin.token}`).toString('base64')}` } });
  assert.is(afterDelete.status, 404);
  const dumb = await fetch(`${t.url}/git/${space.id}.git/info/refs`, { headers: { authorization: `Basic ${Buffer.from(`x:${fx.admin.token}`).toString('base64')}` } });
  assert.is(dumb.status, 400);
});

test("a site token reads no repository: the published site's own space answers 401 over git", async () => {
  const space = await newSpace('Published');
  const site = await siteMaker(() => ({ t, fx })).publishedSite('Docs', [space.id]);
  const apiToken = (await t.call('POST', '/v1/urls/published', { body: { url: site.urls.published } })).body.apiToken as string;
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, { headers: { authorization: `Bearer ${apiToken}` } })).status, 200, 'the token reads the space over the API');
  for (const service of ['git-upload-pack', 'git-receive-pack']) {
    const refs = await fetch(`${t.url}/git/${space.id}.git/info/refs?service=${service}`, { headers: { authorization: `Bearer ${apiToken}` } });
    assert.is(refs.status, 401, service);
    assert.match(((await refs.json()) as { error: { message: string } }).error.message, 'A site token reads published content over the API, not a git repository');
  }
});

test('a reader may not push: the receive-pack advertisement is a 403', async () => {
  const space = await newSpace();
  const work = await clone(space.id, fx.reader.token);
  writeFileSync(path.join(work, 'README.md'), '# Changed by a reader\n');
  await ok(work, 'commit', '-qam', 'Reader edit');
  const pushed = await git(work, 'push', 'origin', 'HEAD:refs/for/main');
  assert.is.not(pushed.code, 0);
  assert.match(pushed.stderr, '403');
  assert.is(await revisionOf(space.id), space.revision);
});

test('clone, edit, push to refs/for/main opens a change request; pushing to its branch updates it; merged over the API; pulled back', async () => {
  const space = await newSpace();
  const work = await clone(space.id, fx.editor.token);
  writeFileSync(path.join(work, 'README.md'), '# Welcome\n\nWritten in my editor.\n');
  await ok(work, 'commit', '-qam', 'Rewrite the welcome page');
  const opened = await git(work, 'push', '-o', 'title=Welcome rewrite', 'origin', 'HEAD:refs/for/main');
  assert.is(opened.code, 0, opened.stderr);
  assert.match(opened.stderr, /remote: Change request #1 opened: http:\/\/\S+\/~\/changes\/1/);
  assert.is(await revisionOf(space.id), space.revision, 'main did not move');

  const listed = (await t.call('GET', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token })).body.items as Array<{
    number: number;
    subject: string;
    revision: string;
    revisionInitial: string;
    createdBy: { id: string };
  }>;
  assert.is(listed.length, 1);
  assert.is(listed[0]!.subject, 'Welcome rewrite');
  assert.is(listed[0]!.createdBy.id, fx.editor.id);
  assert.is(listed[0]!.revisionInitial, space.revision);
  const head = await ok(work, 'rev-parse', 'HEAD');
  assert.is(listed[0]!.revision, head);

  await ok(work, 'fetch', '--quiet', 'origin');
  const branch = (await ok(work, 'branch', '-r'))
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line.startsWith('origin/change-requests/1-'));
  assert.ok(branch, 'the change request is a branch of the remote');
  writeFileSync(path.join(work, 'README.md'), '# Welcome\n\nWritten in my editor, twice.\n');
  await ok(work, 'commit', '-qam', 'Second pass');
  const updated = await git(work, 'push', 'origin', `HEAD:${branch!.slice('origin/'.length)}`);
  assert.is(updated.code, 0, updated.stderr);
  assert.match(updated.stderr, 'Change request #1 updated');
  const changeRequest = (await t.call('GET', `/v1/spaces/${space.id}/change-requests/1`, { token: fx.editor.token })).body;
  assert.is(changeRequest.revision, await ok(work, 'rev-parse', 'HEAD'));

  const merged = await t.call('POST', `/v1/spaces/${space.id}/change-requests/1/merge`, { token: fx.admin.token });
  assert.is(merged.status, 200);
  assert.is(merged.body.result, 'merge');
  await ok(work, 'checkout', '-q', 'main');
  await ok(work, 'pull', '--quiet', 'origin', 'main');
  assert.is(readFileSync(path.join(work, 'README.md'), 'utf8'), '# Welcome\n\nWritten in my editor, twice.\n');
  assert.is(await ok(work, 'rev-parse', 'HEAD'), merged.body.revision);
});

test('a push to main lands as the new revision for who may merge, fast-forward only, unless a merge rule would be skipped', async () => {
  const space = await newSpace();
  const work = await clone(space.id, fx.editor.token);
  writeFileSync(path.join(work, 'README.md'), '# Introduction\n\nStraight to main.\n');
  await ok(work, 'commit', '-qam', 'Direct edit');
  const pushed = await git(work, 'push', 'origin', 'HEAD:main');
  assert.is(pushed.code, 0, pushed.stderr);
  assert.is(await revisionOf(space.id), await ok(work, 'rev-parse', 'HEAD'));
  const pages = (await t.call('GET', `/v1/spaces/${space.id}/content`, { token: fx.reader.token })).body.pages as Array<{ id: string }>;
  const page = await t.call('GET', `/v1/spaces/${space.id}/content/page/${pages[0]!.id}?format=markdown`, { token: fx.reader.token });
  assert.match(page.body.markdown, 'Straight to main', 'the API reads the pushed revision');

  await ok(work, 'reset', '-q', '--hard', 'HEAD~1');
  writeFileSync(path.join(work, 'README.md'), '# Rewritten history\n');
  await ok(work, 'commit', '-qam', 'Diverging edit');
  const forced = await git(work, 'push', '--force', 'origin', 'HEAD:main');
  assert.is.not(forced.code, 0);
  assert.match(forced.stderr, /\[remote rejected\] HEAD -> main \(not a fast-forward of main/);

  const rules = await t.call('PATCH', `/v1/spaces/${space.id}`, { token: fx.admin.token, body: { mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] } } });
  assert.is(rules.status, 200, JSON.stringify(rules.body));
  await ok(work, 'fetch', '--quiet', 'origin');
  await ok(work, 'reset', '-q', '--hard', 'origin/main');
  writeFileSync(path.join(work, 'README.md'), '# Skipping review\n');
  await ok(work, 'commit', '-qam', 'Skip the review');
  const refused = await git(work, 'push', 'origin', 'HEAD:main');
  assert.is.not(refused.code, 0);
  assert.match(refused.stderr, /\[remote rejected\] HEAD -> main \(the merge rule require_at_least_one_review applies to this space/);
  assert.is.not(await revisionOf(space.id), await ok(work, 'rev-parse', 'HEAD'));
});

test('a push that breaks the layout is refused before anything lands: the file and line are named, no object or ref is left', async () => {
  const space = await newSpace();
  const work = await clone(space.id, fx.editor.token);
  const gitdir = spaceGitdir(t.dataDir, space.id);
  const summary = readFileSync(path.join(work, 'SUMMARY.md'), 'utf8');
  writeFileSync(path.join(work, 'SUMMARY.md'), `${summary.trimEnd()}\n* [Ghost](ghost.md)\n`);
  writeFileSync(path.join(work, 'broken.md'), '---\ntitle: [unclosed\n---\n\n# Broken\n');
  writeFileSync(path.join(work, 'deep.md'), `# Deep\n\n${'> '.repeat(70)}too deep\n`);
  writeFileSync(path.join(work, 'shallow.md'), `# Shallow\n\n${'> '.repeat(10)}fine\n`);
  await ok(work, 'add', '-A');
  await ok(work, 'commit', '-qm', 'Break things');
  const commit = await ok(work, 'rev-parse', 'HEAD');
  const refused = await git(work, 'push', 'origin', 'HEAD:refs/for/main');
  assert.is.not(refused.code, 0);
  const line = summary.trimEnd().split('\n').length + 1;
  assert.match(refused.stderr, `remote: error: SUMMARY.md:${line}: links to ghost.md, which is not in the commit`);
  assert.match(refused.stderr, /remote: error: broken\.md:2: the frontmatter is not valid YAML/);
  assert.match(refused.stderr, /remote: error: deep\.md: The markdown nests/);
  assert.not.match(refused.stderr, 'shallow.md');
  assert.match(refused.stderr, 'pre-receive hook declined');
  const present = await git(gitdir, 'cat-file', '-e', commit);
  assert.is.not(present.code, 0, 'the refused commit is not in the repository');
  assert.is((await t.call('GET', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token })).body.items.length, 0);
  assert.is(await revisionOf(space.id), space.revision);
  assert.is((await git(gitdir, 'fsck', '--no-progress')).code, 0);
});

test('pushes elsewhere than main, change requests and refs/for/main are refused one by one', async () => {
  const space = await newSpace();
  const work = await clone(space.id, fx.editor.token);
  writeFileSync(path.join(work, 'README.md'), '# Elsewhere\n');
  await ok(work, 'commit', '-qam', 'Elsewhere');
  const refused = await git(work, 'push', 'origin', 'HEAD:refs/heads/feature', 'HEAD:refs/tags/v1', 'HEAD:refs/heads/change-requests/9-nothing');
  assert.is.not(refused.code, 0);
  assert.match(refused.stderr, /\[remote rejected\] HEAD -> feature \(a space keeps its content on main/);
  assert.match(refused.stderr, /\[remote rejected\] HEAD -> v1 \(a space keeps its content on main/);
  assert.match(refused.stderr, /\[remote rejected\] HEAD -> change-requests\/9-nothing \(no change request of this space has the branch/);
  const deleted = await git(work, 'push', 'origin', ':main');
  assert.match(deleted.stderr, /\[remote rejected\] main \(main can't be deleted\)/);
  assert.is(await revisionOf(space.id), space.revision);
});

test('a push and API batches on one change request: the batches all land, the push lands first or is refused, nothing is lost', async () => {
  const space = await newSpace();
  const work = await clone(space.id, fx.editor.token);
  writeFileSync(path.join(work, 'opening.md'), '# Opening\n');
  await ok(work, 'add', '-A');
  await ok(work, 'commit', '-qm', 'Open it');
  await ok(work, 'push', '-o', 'title=Race', 'origin', 'HEAD:refs/for/main');
  const changeRequest = (await t.call('GET', `/v1/spaces/${space.id}/change-requests/1`, { token: fx.editor.token })).body;
  const branch = (await ok(work, 'ls-remote', 'origin', 'refs/heads/change-requests/*')).split('\t')[1]!.replace('refs/heads/', '');
  assert.is(branch, 'change-requests/1-race');
  writeFileSync(path.join(work, 'pushed.md'), '# Pushed\n\nFrom git.\n');
  await ok(work, 'add', '-A');
  await ok(work, 'commit', '-qm', 'From git');
  const content = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`;
  const [pushed, ...batches] = await Promise.all([
    git(work, 'push', 'origin', `HEAD:${branch}`),
    ...Array.from({ length: 8 }, (_, index) =>
      t.call('POST', content, { token: fx.editor.token, body: { changes: [{ operation: 'insert_page', title: `Batch ${index}`, document: { markdown: `Batch ${index}.\n` } }] } }),
    ),
  ]);
  for (const batch of batches) assert.is(batch.status, 200, JSON.stringify(batch.body));
  // Refused by Quire when a batch moved the branch after git read it, or by git itself when one had moved it before.
  const refusal =
    /\[remote rejected\] HEAD -> change-requests\/1-race \(change-requests\/1-race is at [0-9a-f]{7}, not where this push started from: fetch, then push again\)|! \[rejected\] +HEAD -> change-requests\/1-race \(fetch first\)/;
  if (pushed!.code !== 0) assert.ok(refusal.test(pushed!.stderr), `refused for the race, not otherwise: ${pushed!.stderr}`);
  const pages = (await t.call('GET', `${content}/pages`, { token: fx.editor.token })).body.pages as Array<{ title: string }>;
  const titles = pages.map((page) => page.title);
  for (let index = 0; index < 8; index += 1) assert.ok(titles.includes(`Batch ${index}`), `Batch ${index} is there: ${titles.join(', ')}`);
  const head = (await t.call('GET', `/v1/spaces/${space.id}/change-requests/1`, { token: fx.editor.token })).body.revision;
  const pushedCommit = await ok(work, 'rev-parse', 'HEAD');
  const gitdir = spaceGitdir(t.dataDir, space.id);
  const landed = (await git(gitdir, 'merge-base', '--is-ancestor', pushedCommit, head)).code === 0;
  assert.is(landed, pushed!.code === 0, 'the pushed commit is in the change request exactly when the push was accepted');
  assert.is((await git(gitdir, 'fsck', '--no-progress', '--no-dangling')).code, 0);
});

test('page ids survive the round trip: a page edited in a clone keeps its id; a duplicated pageId is refused', async () => {
  const space = await newSpace();
  const before = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ id: string; title: string; path: string }>;
  const work = await clone(space.id, fx.editor.token);
  const readme = readFileSync(path.join(work, 'README.md'), 'utf8');
  writeFileSync(path.join(work, 'README.md'), `${readme.trimEnd()}\n\nEdited in a clone.\n`);
  await ok(work, 'commit', '-qam', 'Edit the first page');
  const pushed = await git(work, 'push', 'origin', 'HEAD:main');
  assert.is(pushed.code, 0, pushed.stderr);
  const after = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ id: string; title: string }>;
  assert.equal(
    after.map((page) => page.id),
    before.map((page) => page.id),
    'every page keeps its id',
  );

  const pageId = /pageId: (\S+)/.exec(readme)?.[1];
  assert.ok(pageId, `the Git Sync layout keeps the page id in the frontmatter:\n${readme}`);
  writeFileSync(path.join(work, 'copy.md'), `---\npageId: ${pageId}\n---\n\n# Copy\n`);
  await ok(work, 'add', '-A');
  await ok(work, 'commit', '-qm', 'Copy a page with its id');
  const refused = await git(work, 'push', 'origin', 'HEAD:main');
  assert.is.not(refused.code, 0);
  assert.match(refused.stderr, `remote: error: copy.md: pageId ${pageId} is already the id of README.md`);
});

test.run();
