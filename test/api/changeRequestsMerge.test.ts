import { execFileSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';
import { gitOut as git } from '../helpers/gitClient.js';

const test = suite('change request merges');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
});

interface Page {
  id: string;
  title: string;
  pages: Page[];
}
type Change = Record<string, unknown>;

const flat = (pages: Page[]): Page[] => pages.flatMap((page) => [page, ...flat(page.pages ?? [])]);
const long = Array.from({ length: 12 }, (_, index) => `Line ${index + 1}.`).join('\n\n');

async function spaceWithPages() {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Merged', template: { id: 'getting-started' } } })).body;
  const gitdir = spaceGitdir(t.dataDir, space.id);
  const pagesOf = async (path: string) => flat((await t.call('GET', `${path}/pages`, { token: fx.reader.token })).body.pages);
  // One long page, so that edits to its different parts are far apart.
  const setup = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Setup' } })).body;
  await t.call('POST', `/v1/spaces/${space.id}/change-requests/${setup.id}/content`, {
    token: fx.editor.token,
    body: { changes: [{ operation: 'update_page', page: (await pagesOf(`/v1/spaces/${space.id}/content`)).find((page) => page.title === 'FAQ')!.id, document: { markdown: `# FAQ\n\n${long}\n` } }] },
  });
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${setup.id}/merge`, { token: fx.editor.token })).body.result, 'merge');
  const pages = await pagesOf(`/v1/spaces/${space.id}/content`);
  const byTitle = (title: string) => pages.find((page) => page.title === title)!.id;
  return { space, gitdir, pagesOf, ids: { faq: byTitle('FAQ'), intro: byTitle('Introduction'), quickStart: byTitle('Quick start'), configuration: byTitle('Configuration') } };
}

async function changeRequestWith(spaceId: string, subject: string, changes: Change[]) {
  const created = (await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: fx.editor.token, body: { subject } })).body;
  const written = await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${created.id}/content`, { token: fx.editor.token, body: { changes } });
  assert.is(written.status, 200, JSON.stringify(written.body));
  return { id: created.id as string, url: `/v1/spaces/${spaceId}/change-requests/${created.id}` };
}

/** Merges, and checks the merge commit: both parents, a clean fsck, and (where asked) git merge-tree's own tree. */
async function mergeChecked(gitdir: string, url: string, options: { sameAsGit?: boolean } = {}) {
  const before = git(gitdir, 'rev-parse', 'refs/heads/main').trim();
  const head = (await t.call('GET', url, { token: fx.reader.token })).body.revision;
  const gitTree = options.sameAsGit ? git(gitdir, 'merge-tree', '--write-tree', before, head).split('\n')[0] : undefined;
  const merged = await t.call('POST', `${url}/merge`, { token: fx.editor.token });
  assert.is(merged.status, 200);
  assert.is(merged.body.result, 'merge', JSON.stringify(merged.body));
  const commit = merged.body.revision;
  assert.is(git(gitdir, 'rev-parse', 'refs/heads/main').trim(), commit);
  assert.equal(git(gitdir, 'log', '-1', '--format=%P', commit).trim().split(' '), [before, head], 'a merge commit with both parents');
  assert.ok(git(gitdir, 'log', '--graph', '--oneline', '-3', 'main').split('\n')[0]!.startsWith('*   '), 'git log --graph shows the merge');
  execFileSync('git', ['-C', gitdir, 'fsck', '--strict', '--no-dangling']);
  if (gitTree) assert.is(git(gitdir, 'rev-parse', `${commit}^{tree}`).trim(), gitTree, 'the same tree as git merge-tree --write-tree');
  const changeRequest = (await t.call('GET', url, { token: fx.reader.token })).body;
  assert.equal([changeRequest.status, changeRequest.revisionMerged], ['merged', commit]);
  return commit;
}

const markdownOf = async (spaceId: string, pageId: string) => (await t.call('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`, { token: fx.reader.token })).body.markdown as string;

for (const order of ['first', 'second'] as const) {
  const pair = <T>(a: T, b: T): [T, T] => (order === 'first' ? [a, b] : [b, a]);

  test(`edits to different pages both land (${order} order), as git merge-tree merges them`, async () => {
    const { space, gitdir, ids } = await spaceWithPages();
    const a = await changeRequestWith(space.id, 'A', [{ operation: 'update_page', page: ids.intro, document: { markdown: '# Introduction\n\nRewritten by A.\n' } }]);
    const b = await changeRequestWith(space.id, 'B', [{ operation: 'update_page', page: ids.configuration, document: { markdown: '# Configuration\n\nRewritten by B.\n' } }]);
    for (const changeRequest of pair(a, b)) await mergeChecked(gitdir, changeRequest.url, { sameAsGit: true });
    assert.ok((await markdownOf(space.id, ids.intro)).includes('Rewritten by A.'));
    assert.ok((await markdownOf(space.id, ids.configuration)).includes('Rewritten by B.'));
  });

  test(`edits to different parts of one page both land (${order} order)`, async () => {
    const { space, gitdir, ids } = await spaceWithPages();
    const a = await changeRequestWith(space.id, 'A', [{ operation: 'update_page', page: ids.faq, document: { markdown: `# FAQ\n\n${long.replace('Line 2.', 'Line two, by A.')}\n` } }]);
    const b = await changeRequestWith(space.id, 'B', [{ operation: 'update_page', page: ids.faq, document: { markdown: `# FAQ\n\n${long.replace('Line 11.', 'Line eleven, by B.')}\n` } }]);
    for (const changeRequest of pair(a, b)) await mergeChecked(gitdir, changeRequest.url, { sameAsGit: true });
    const merged = await markdownOf(space.id, ids.faq);
    assert.ok(merged.includes('Line two, by A.') && merged.includes('Line eleven, by B.'), merged);
  });

  test(`both add a page under the same parent; retitles and moves of different pages (${order} order)`, async () => {
    const { space, gitdir, ids, pagesOf } = await spaceWithPages();
    const a = await changeRequestWith(space.id, 'A', [
      { operation: 'insert_page', into: ids.quickStart, title: 'Added by A', document: { markdown: 'A\n' } },
      { operation: 'update_page', page: ids.faq, title: 'Questions' },
    ]);
    const b = await changeRequestWith(space.id, 'B', [
      { operation: 'insert_page', into: ids.quickStart, title: 'Added by B', document: { markdown: 'B\n' } },
      { operation: 'update_page', page: ids.configuration, into: null },
    ]);
    for (const changeRequest of pair(a, b)) await mergeChecked(gitdir, changeRequest.url);
    const pages = await pagesOf(`/v1/spaces/${space.id}/content`);
    const quickStart = pages.find((page) => page.id === ids.quickStart)!;
    assert.equal(quickStart.pages.map((page) => page.title).sort(), ['Added by A', 'Added by B']);
    assert.is(pages.find((page) => page.id === ids.faq)!.title, 'Questions');
    assert.ok(!quickStart.pages.some((page) => page.id === ids.configuration), 'moved out of its parent');
    assert.ok(pages.some((page) => page.id === ids.configuration));
  });

  test(`a move against an edit keeps both (${order} order)`, async () => {
    const { space, gitdir, ids, pagesOf } = await spaceWithPages();
    const a = await changeRequestWith(space.id, 'A', [{ operation: 'update_page', page: ids.configuration, into: ids.faq }]);
    const b = await changeRequestWith(space.id, 'B', [{ operation: 'update_page', page: ids.configuration, document: { markdown: '# Configuration\n\nEdited by B.\n' } }]);
    for (const changeRequest of pair(a, b)) await mergeChecked(gitdir, changeRequest.url);
    const faq = (await pagesOf(`/v1/spaces/${space.id}/content`)).find((page) => page.id === ids.faq)!;
    assert.equal(
      faq.pages.map((page) => page.id),
      [ids.configuration],
    );
    assert.ok((await markdownOf(space.id, ids.configuration)).includes('Edited by B.'));
  });

  test(`a delete against an edit is a conflict that moves nothing (${order} order)`, async () => {
    const { space, gitdir, ids } = await spaceWithPages();
    const a = await changeRequestWith(space.id, 'A', [{ operation: 'delete_page', page: ids.faq }]);
    const b = await changeRequestWith(space.id, 'B', [{ operation: 'update_page', page: ids.faq, document: { markdown: '# FAQ\n\nEdited.\n' } }]);
    const [first, second] = pair(a, b);
    await mergeChecked(gitdir, first.url);
    const main = git(gitdir, 'rev-parse', 'refs/heads/main').trim();
    const refused = await t.call('POST', `${second.url}/merge`, { token: fx.editor.token });
    assert.equal(refused.body, { revision: main, result: 'conflicts', conflicts: [{ kind: 'page', page: ids.faq, title: 'FAQ', reason: 'edited-and-deleted' }] });
    assert.is(git(gitdir, 'rev-parse', 'refs/heads/main').trim(), main, 'no branch moved');
    assert.is((await t.call('GET', second.url, { token: fx.reader.token })).body.status, 'open');
  });
}

test('the same lines edited apart conflict; update with a side resolves it, then the merge lands', async () => {
  const { space, gitdir, ids } = await spaceWithPages();
  const a = await changeRequestWith(space.id, 'A', [{ operation: 'update_page', page: ids.faq, document: { markdown: `# FAQ\n\n${long.replace('Line 5.', 'Line five by A.')}\n` } }]);
  const b = await changeRequestWith(space.id, 'B', [{ operation: 'update_page', page: ids.faq, document: { markdown: `# FAQ\n\n${long.replace('Line 5.', 'Line five by B.')}\n` } }]);
  await mergeChecked(gitdir, a.url);
  const main = git(gitdir, 'rev-parse', 'refs/heads/main').trim();
  const bHead = (await t.call('GET', b.url, { token: fx.reader.token })).body.revision;
  const conflicted = await t.call('POST', `${b.url}/merge`, { token: fx.editor.token });
  assert.equal(conflicted.body, { revision: main, result: 'conflicts', conflicts: [{ kind: 'page', page: ids.faq, title: 'FAQ', reason: 'content' }] });
  assert.is((await t.call('GET', b.url, { token: fx.reader.token })).body.outdated, true);
  const stillConflicted = await t.call('POST', `${b.url}/update`, { token: fx.editor.token });
  assert.is(stillConflicted.body.result, 'conflicts');
  assert.is((await t.call('GET', b.url, { token: fx.reader.token })).body.revision, bHead, 'the branch has not moved');

  const updated = await t.call('POST', `${b.url}/update`, { token: fx.editor.token, body: { resolve: { [ids.faq]: 'change-request' } } });
  assert.is(updated.body.result, 'update');
  assert.equal(git(gitdir, 'log', '-1', '--format=%P', updated.body.revision).trim().split(' '), [bHead, main], 'the update is a merge commit on the branch');
  const afterUpdate = (await t.call('GET', b.url, { token: fx.reader.token })).body;
  assert.equal([afterUpdate.outdated, afterUpdate.revisionMergedAncestor], [false, main]);
  await mergeChecked(gitdir, b.url);
  assert.ok((await markdownOf(space.id, ids.faq)).includes('Line five by B.'));
  assertErrorIs(await t.call('POST', `${b.url}/merge`, { token: fx.editor.token }), 409, `Change request ${afterUpdate.number} is merged: its content can no longer change`);
});

test('update then merge: the change request takes the primary branch, then lands on it', async () => {
  const { space, gitdir, ids } = await spaceWithPages();
  const a = await changeRequestWith(space.id, 'A', [{ operation: 'update_page', page: ids.intro, document: { markdown: '# Introduction\n\nBy A.\n' } }]);
  const b = await changeRequestWith(space.id, 'B', [{ operation: 'update_page', page: ids.faq, document: { markdown: `# FAQ\n\n${long.replace('Line 1.', 'Line one by B.')}\n` } }]);
  await mergeChecked(gitdir, a.url);
  await t.call('PATCH', `/v1/spaces/${space.id}`, { token: fx.admin.token, body: { editMode: 'locked' } });
  const locked = `Space ${space.id} is locked: unlock it (editMode "live") to change its content`;
  assertErrorIs(await t.call('POST', `${b.url}/update`, { token: fx.editor.token }), 423, locked);
  assertErrorIs(await t.call('POST', `${b.url}/merge`, { token: fx.editor.token }), 423, locked);
  await t.call('PATCH', `/v1/spaces/${space.id}`, { token: fx.admin.token, body: { editMode: 'live' } });
  const updated = await t.call('POST', `${b.url}/update`, { token: fx.editor.token });
  assert.is(updated.body.result, 'update');
  const onBranch = await t.call('GET', `${b.url}/content/page/${ids.intro}?format=markdown`, { token: fx.reader.token });
  assert.ok(onBranch.body.markdown.includes('By A.'), 'the branch has the primary branch’s change');
  assert.equal(
    await t.call('POST', `${b.url}/update`, { token: fx.editor.token }).then((response) => response.body),
    { revision: updated.body.revision, result: 'update' },
    'nothing new: nothing to do',
  );
  await mergeChecked(gitdir, b.url, { sameAsGit: true });
  assert.ok((await markdownOf(space.id, ids.faq)).includes('Line one by B.'));
  assert.ok((await markdownOf(space.id, ids.intro)).includes('By A.'));
  assertErrorIs(await t.call('POST', `${b.url}/merge`, { token: fx.reader.token }), 403, 'This operation needs the edit role on the space; you have read');
});

test('a merge is one decision: racing an archive, either it lands with its status or nothing moves', async () => {
  const { space, gitdir } = await spaceWithPages();
  for (let round = 0; round < 4; round += 1) {
    const mainBefore = git(gitdir, 'rev-parse', 'main').trim();
    const cr = await changeRequestWith(space.id, `Race ${round}`, [{ operation: 'insert_page', title: `Raced ${round}`, document: { markdown: `Raced ${round}.\n` } }]);
    const [merge, archive] = await Promise.all([t.call('POST', `${cr.url}/merge`, { token: fx.editor.token }), t.call('PATCH', cr.url, { token: fx.editor.token, body: { status: 'archived' } })]);
    const after = (await t.call('GET', cr.url, { token: fx.reader.token })).body;
    const mainAfter = git(gitdir, 'rev-parse', 'main').trim();
    if (after.status === 'merged') {
      assert.is(merge.status, 200, `round ${round}: merged, so the merge answered`);
      assert.is(archive.status, 409, `round ${round}: the archive lost`);
      assert.is(git(gitdir, 'rev-parse', 'main^1').trim(), mainBefore);
      assert.is(merge.body.revision, mainAfter);
    } else {
      assert.is(after.status, 'archived', `round ${round}`);
      assert.is(archive.status, 200, `round ${round}: archived, so the archive answered`);
      assert.is(merge.status, 409, `round ${round}: the merge lost`);
      assert.is(mainAfter, mainBefore, `round ${round}: the archived change request's page is not on main`);
    }
  }
});

test('eight concurrent merges of one change request: one lands, seven change nothing', async () => {
  const { space, gitdir } = await spaceWithPages();
  const cr = await changeRequestWith(space.id, 'Once', [{ operation: 'insert_page', title: 'Once', document: { markdown: 'Once.\n' } }]);
  const mainBefore = git(gitdir, 'rev-parse', 'main').trim();
  const answers = await Promise.all(Array.from({ length: 8 }, () => t.call('POST', `${cr.url}/merge`, { token: fx.editor.token })));
  assert.equal(answers.map((answer) => answer.status).sort(), [200, 409, 409, 409, 409, 409, 409, 409]);
  const mainAfter = git(gitdir, 'rev-parse', 'main').trim();
  assert.is(git(gitdir, 'rev-parse', 'main^1').trim(), mainBefore, 'one merge commit on main');
  assert.is(answers.find((answer) => answer.status === 200)!.body.revision, mainAfter);
  assert.is((await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.reader.token })).body.revision, mainAfter);
  assert.is(git(gitdir, 'log', '--oneline', '--grep', 'Merge change request', `${mainBefore}..main`).trim().split('\n').length, 1);
});

test('change requests opened while others merge into the same space: every write answers (the repository lock, then the database, in every writer)', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Busy', template: { id: 'getting-started' } } })).body;
  const merging = await Promise.all(
    Array.from({ length: 6 }, (_, index) => changeRequestWith(space.id, `Merged ${index}`, [{ operation: 'insert_page', title: `Merged ${index}`, document: { markdown: `Merged ${index}.\n` } }])),
  );
  // Before the fix, a merge held the lock while it waited to write its row, and an opening held the
  // database while it waited for the lock: on SQLite every write then waited forever.
  const writes = Promise.all([
    ...merging.map((changeRequest) => t.call('POST', `${changeRequest.url}/merge`, { token: fx.editor.token })),
    ...Array.from({ length: 6 }, (_, index) => t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: `Opened ${index}` } })),
    ...Array.from({ length: 6 }, (_, index) => t.call('POST', `/v1/spaces/${space.id}/comments`, { token: fx.editor.token, body: { body: { markdown: `Remark ${index}` } } })),
  ]);
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the writes stalled for 30 s')), 30_000)));
  const answers = await Promise.race([writes, stalled]).finally(() => clearTimeout(timer));
  assert.equal(
    answers.slice(0, 6).map((answer) => [answer.status, answer.body.result]),
    Array(6).fill([200, 'merge']),
  );
  assert.equal(
    answers.slice(6, 12).map((answer) => answer.status),
    Array(6).fill(201),
  );
  assert.equal(
    answers.slice(12).map((answer) => answer.status),
    Array(6).fill(200),
  );
  const listed = (await t.call('GET', `/v1/spaces/${space.id}/change-requests?status=open`, { token: fx.reader.token })).body.items.map((item: { subject: string }) => item.subject);
  assert.equal(
    listed.filter((subject: string) => subject.startsWith('Opened')).sort(),
    Array.from({ length: 6 }, (_, index) => `Opened ${index}`),
  );
});

test.run();
