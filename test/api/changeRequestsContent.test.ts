import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';
import { configureIntegrations } from '../../domain/common/integrations.js';
import { gitOut as git } from '../helpers/gitClient.js';

const test = suite('change request content');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
});

interface Page {
  id: string;
  title: string;
  path: string;
  kind?: string;
  type?: string;
  pages: Page[];
  markdown?: string;
}

async function changeRequestIn(title: string) {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title, template: { id: 'getting-started' } } })).body;
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: title } })).body;
  const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`;
  return { space, changeRequest, base, gitdir: spaceGitdir(t.dataDir, space.id) };
}

const flat = (pages: Page[]): Page[] => pages.flatMap((page) => [page, ...flat(page.pages ?? [])]);

test('a batch inserts, updates, moves and deletes pages as one commit by the caller on the branch', async () => {
  const { space, changeRequest, base, gitdir } = await changeRequestIn('Batch');
  const before = (await t.call('GET', `${base}/content/pages`, { token: fx.reader.token })).body.pages as Page[];
  const faq = flat(before).find((page) => page.title === 'FAQ')!;
  const quickStart = flat(before).find((page) => page.title === 'Quick start')!;
  const configuration = flat(before).find((page) => page.title === 'Configuration')!;

  const response = await t.call('POST', `${base}/content?compat=false`, {
    token: fx.editor.token,
    body: {
      changes: [
        {
          operation: 'insert_page',
          ref: 'deploy',
          into: quickStart.id,
          at: 0,
          document: { markdown: '---\ndescription: Ship it\n---\n# Deploying\n\nSee [the FAQ](/pages/' + faq.id + ') and ![the logo](./logo-ref).\n' },
        },
        { operation: 'insert_files', files: [{ ref: 'logo-ref', name: 'new-logo.png', contentType: 'image/png', base64: Buffer.from('not really a png').toString('base64') }] },
        { operation: 'update_page', page: faq.id, title: 'Questions', document: { markdown: 'Ask away. Or [deploy](./deploy.md).\n' } },
        { operation: 'update_page', page: configuration.id, into: null, at: 0 },
        {
          operation: 'insert_page',
          title: 'From JSON',
          document: {
            document: {
              object: 'document',
              data: {},
              nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hello', marks: [{ object: 'mark', type: 'bold' }] }] }] }],
            },
          },
        },
      ],
    },
  });
  assert.is(response.status, 200, JSON.stringify(response.body));
  const { changeRequest: updated, changes, insertedFiles } = response.body;
  assert.is.not(updated.revision, changeRequest.revision);
  assert.equal(
    changes.map((change: { object: string }) => change.object),
    ['created_page', 'updated_page', 'updated_page', 'created_page'],
  );
  assert.is(changes[0].ref, 'deploy');
  assert.equal(
    insertedFiles.map((file: { name: string }) => file.name),
    ['new-logo.png'],
  );

  assert.is(git(gitdir, 'rev-parse', 'refs/heads/main').trim(), space.revision, 'the primary branch has not moved');
  assert.is(git(gitdir, 'rev-parse', `${updated.revision}^`).trim(), changeRequest.revision, 'one commit on the branch');
  assert.is(git(gitdir, 'log', '-1', '--format=%ae', updated.revision).trim(), fx.editor.email, 'authored by the caller');
  execFileSync('git', ['-C', gitdir, 'fsck', '--strict']);

  const pages = (await t.call('GET', `${base}/content/pages`, { token: fx.reader.token })).body.pages as Page[];
  assert.is(pages[0]!.id, configuration.id, 'moved to the root, first');
  const deploy = flat(pages).find((page) => page.title === 'Deploying')!;
  assert.is(flat(pages).find((page) => page.id === quickStart.id)!.pages[0]!.id, deploy.id, 'inserted first under its parent');
  assert.is(deploy.id, changes[0].page.id);
  const stored = git(gitdir, 'show', `${updated.revision}:quick-start/deploying.md`);
  assert.ok(stored.includes('description: Ship it'), stored);
  assert.ok(stored.includes('[the FAQ](../faq.md)'), `a /pages/ link becomes the relative file link: ${stored}`);
  assert.ok(stored.includes('![the logo](../.gitbook/assets/new-logo.png)'), `a file ref becomes the relative file link: ${stored}`);
  assert.ok(git(gitdir, 'show', `${updated.revision}:faq.md`).includes('[deploy](quick-start/deploying.md)'));
  assert.is(flat(pages).find((page) => page.id === faq.id)!.title, 'Questions');

  const byPath = await t.call('GET', `${base}/content/path/quick-start%2Fdeploying?format=markdown`, { token: fx.reader.token });
  assert.is(byPath.body.id, deploy.id);
  const json = await t.call('GET', `${base}/content/page/${flat(pages).find((page) => page.title === 'From JSON')!.id}?format=markdown`, { token: fx.reader.token });
  assert.is(json.body.markdown, '**Hello**\n');
  const files = await t.call('GET', `${base}/content/files`, { token: fx.reader.token });
  assert.ok(files.body.items.some((file: { name: string }) => file.name === 'new-logo.png'));
  assert.is((await t.call('GET', `${base}/content/files/${insertedFiles[0].id}`, { token: fx.reader.token })).body.name, 'new-logo.png');
  const revision = await t.call('GET', `${base}/content`, { token: fx.reader.token });
  assert.is(revision.body.id, updated.revision);
  assert.equal((await t.call('GET', `/v1/spaces/${space.id}/content`, { token: fx.reader.token })).body.id, space.revision, 'the space still reads its primary branch');

  const removed = await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'delete_page', page: quickStart.id }] } });
  assert.is(removed.status, 200);
  assert.is(removed.body.object, 'change-request', 'compat=true (the default) answers the change request');
  const left = flat((await t.call('GET', `${base}/content/pages`, { token: fx.reader.token })).body.pages);
  assert.ok(!left.some((page) => page.id === quickStart.id || page.id === deploy.id), 'the page goes with its subpages');
  assert.throws(() => git(gitdir, 'cat-file', '-e', `${removed.body.revision}:quick-start/deploying.md`));
});

test('a batch is all or nothing; bad changes say which and why', async () => {
  const { changeRequest, base, gitdir } = await changeRequestIn('Atomic');
  const pages = flat((await t.call('GET', `${base}/content/pages`, { token: fx.reader.token })).body.pages);
  const faq = pages.find((page) => page.title === 'FAQ')!;
  const refused = await t.call('POST', `${base}/content`, {
    token: fx.editor.token,
    body: {
      changes: [
        { operation: 'update_page', page: faq.id, title: 'Changed' },
        { operation: 'delete_page', page: 'missing' },
      ],
    },
  });
  assertErrorIs(refused, 400, 'changes[1] (delete_page): page missing is not in the change request');
  assert.is(git(gitdir, 'rev-parse', 'refs/heads/change-requests/1-atomic').trim(), changeRequest.revision, 'nothing was committed');
  assertErrorIs(
    await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'update_page', page: faq.id, into: faq.id }] } }),
    400,
    `changes[0] (update_page): page ${faq.id} can't move under itself or one of its subpages`,
  );
  assertErrorIs(await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [] } }), 400, 'Invalid request body: "changes" must NOT have fewer than 1 items');
  for (const operation of [
    { operation: 'insert_page', title: ' ', document: { markdown: 'Text' } },
    { operation: 'update_page', page: faq.id, title: '\t \n' },
  ]) {
    const blank = await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [operation] } });
    assertErrorIs(blank, 400, 'Invalid request body: "changes[0].title" must not be blank', operation.operation);
  }
  assertErrorIs(
    await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'rename_page', page: faq.id }] } }),
    400,
    'Invalid request body: "changes[0].operation" "rename_page" is not one this operation accepts',
  );
  assertErrorIs(
    await t.call('POST', `${base}/content`, { token: fx.reader.token, body: { changes: [{ operation: 'delete_page', page: faq.id }] } }),
    403,
    'This operation needs the edit role on the space; you have read',
  );
  const spaceId = base.split('/')[3]!;
  await t.call('PATCH', `/v1/spaces/${spaceId}`, { token: fx.admin.token, body: { editMode: 'locked' } });
  assertErrorIs(
    await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'delete_page', page: faq.id }] } }),
    423,
    `Space ${spaceId} is locked: unlock it (editMode "live") to change its content`,
  );
  await t.call('PATCH', `/v1/spaces/${spaceId}`, { token: fx.admin.token, body: { editMode: 'live' } });
  await t.call('PATCH', base, { token: fx.editor.token, body: { status: 'archived' } });
  assertErrorIs(
    await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'delete_page', page: faq.id }] } }),
    409,
    `Change request ${changeRequest.number} is archived: its content can no longer change`,
  );
});

test('insert_files fetches url sources through the outbound-fetch guard: public addresses only, unless allowed', async () => {
  const { base, gitdir } = await changeRequestIn('Fetched');
  const bytes = Buffer.from('a picture, fetched');
  const server = http.createServer((_, response) => response.end(bytes));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/picture.png`;
  try {
    const insert = { changes: [{ operation: 'insert_files', files: [{ name: 'picture.png', url }] }] };
    assertErrorIs(
      await t.call('POST', `${base}/content`, { token: fx.editor.token, body: insert }),
      400,
      `changes[0].files[0]: 127.0.0.1:${(server.address() as AddressInfo).port} is not a public address (loopback, private, link-local or otherwise non-public): refused (QUIRE_ALLOW_PRIVATE_FETCH=1 lifts this)`,
    );
    configureIntegrations({ allowPrivateFetch: true });
    const fetched = await t.call('POST', `${base}/content?compat=false`, { token: fx.editor.token, body: insert });
    assert.is(fetched.status, 200, JSON.stringify(fetched.body));
    assert.is(fetched.body.insertedFiles[0].name, 'picture.png');
    assert.is(git(gitdir, 'show', `${fetched.body.changeRequest.revision}:.gitbook/assets/picture.png`), bytes.toString());
  } finally {
    configureIntegrations({ allowPrivateFetch: false });
    server.close();
  }
});

test('revert_page brings a page back as it is in the base', async () => {
  const { base } = await changeRequestIn('Revert');
  const pages = flat((await t.call('GET', `${base}/content/pages`, { token: fx.reader.token })).body.pages);
  const faq = pages.find((page) => page.title === 'FAQ')!;
  const original = (await t.call('GET', `${base}/content/page/${faq.id}?format=markdown`, { token: fx.reader.token })).body;
  await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'update_page', page: faq.id, title: 'Gone soon', document: { markdown: 'Changed' } }] } });
  await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'delete_page', page: faq.id }] } });
  const reverted = await t.call('POST', `${base}/content?compat=false`, { token: fx.editor.token, body: { changes: [{ operation: 'revert_page', page: faq.id }] } });
  assert.equal(
    reverted.body.changes.map((change: { object: string }) => change.object),
    ['created_page'],
  );
  const back = (await t.call('GET', `${base}/content/page/${faq.id}?format=markdown`, { token: fx.reader.token })).body;
  assert.equal([back.title, back.markdown], [original.title, original.markdown]);
});

type KeyedNode = { key: string; type: string; nodes?: Array<{ leaves?: Array<{ text: string }> }> };
/** A Document's top-level keys by the text of their first leaf. */
const keysByText = (document: { nodes: KeyedNode[] }) => Object.fromEntries(document.nodes.map((node) => [node.nodes?.[0]?.leaves?.[0]?.text ?? node.type, node.key]));

/** A change request whose FAQ page `write` replaces (answering the new revision). */
async function faqToEdit(subject: string) {
  const { space, base } = await changeRequestIn(subject);
  const faq = flat((await t.call('GET', `${base}/content/pages`, { token: fx.reader.token })).body.pages).find((page) => page.title === 'FAQ')!;
  const write = async (markdown: string) => {
    const written = await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'update_page', page: faq.id, document: { markdown } }] } });
    assert.is(written.status, 200, JSON.stringify(written.body));
    return written.body.revision as string;
  };
  return { space, base, faq, write };
}

test('revert_page with block keys reverts those blocks only, keys read from either revision', async () => {
  const { space, base, faq, write } = await faqToEdit('Revert blocks');
  const earlier = await write('# FAQ\n\nAlpha one.\n\nBravo two.\n\nCharlie three.\n\n- delta\n- echo\n');
  await write('# FAQ\n\nAlpha one, edited.\n\nCharlie three.\n\n- delta\n- echo\n\nFoxtrot new.\n');
  const then = keysByText((await t.call('GET', `/v1/spaces/${space.id}/revisions/${earlier}/page/${faq.id}?format=document`, { token: fx.reader.token })).body.document);
  const now = keysByText((await t.call('GET', `${base}/content/page/${faq.id}?format=document`, { token: fx.reader.token })).body.document);
  assert.is(now['Charlie three.'], then['Charlie three.'], 'an unchanged block keeps its key');
  assert.is.not(now['Alpha one, edited.'], then['Alpha one.'], 'a changed block has a new key');
  assert.is(new Set(Object.values(now)).size, Object.values(now).length, 'keys are unique in a document');

  // The changed block (by its current key) and the deleted one (by its key in the earlier revision).
  const reverted = await t.call('POST', `${base}/content`, {
    token: fx.editor.token,
    body: { changes: [{ operation: 'revert_page', page: faq.id, revision: earlier, block: [now['Alpha one, edited.'], then['Bravo two.']] }] },
  });
  assert.is(reverted.status, 200, JSON.stringify(reverted.body));
  const markdownNow = async () => (await t.call('GET', `${base}/content/page/${faq.id}?format=markdown`, { token: fx.reader.token })).body;
  const page = await markdownNow();
  assert.equal([page.title, page.markdown], ['FAQ', 'Alpha one.\n\nBravo two.\n\nCharlie three.\n\n- delta\n- echo\n\nFoxtrot new.\n']);

  // A block added since goes; then a key in neither revision is refused, naming it, and nothing changes.
  await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'revert_page', page: faq.id, revision: earlier, block: [now['Foxtrot new.']] }] } });
  assert.is((await markdownNow()).markdown, 'Alpha one.\n\nBravo two.\n\nCharlie three.\n\n- delta\n- echo\n');
  const unknown = await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'revert_page', page: faq.id, block: ['0123456789ab'] }] } });
  assertErrorIs(unknown, 400, `changes[0] (revert_page): page ${faq.id} has no block "0123456789ab", in the change request or in the revision reverted to`);
  assert.is((await markdownNow()).markdown, 'Alpha one.\n\nBravo two.\n\nCharlie three.\n\n- delta\n- echo\n');
});

test('revert_page with block keys: blocks inserted above, moved and edited around the reverted ones stay as they are', async () => {
  const { space, base, faq, write } = await faqToEdit('Revert around');
  const keysOf = async (path: string) => keysByText((await t.call('GET', `${path}?format=document`, { token: fx.reader.token })).body.document);
  const markdownNow = async () => (await t.call('GET', `${base}/content/page/${faq.id}?format=markdown`, { token: fx.reader.token })).body.markdown;
  const revert = async (block: string[]) => {
    const reverted = await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'revert_page', page: faq.id, revision: earlier, block }] } });
    assert.is(reverted.status, 200, JSON.stringify(reverted.body));
  };

  const earlier = await write('# FAQ\n\nOne.\n\nTwo.\n\nThree.\n\nFour.\n\nFive.\n');
  // Since then: a block inserted at the top, Four moved above it, Two and Five edited.
  await write('# FAQ\n\nFour.\n\nZero.\n\nOne.\n\nTwo, edited.\n\nThree.\n\nFive, edited.\n');
  const then = await keysOf(`/v1/spaces/${space.id}/revisions/${earlier}/page/${faq.id}`);
  const now = await keysOf(`${base}/content/page/${faq.id}`);
  for (const text of ['One.', 'Three.', 'Four.']) assert.is(now[text], then[text], `${text}: its key survives the insert above it and the move`);

  await revert([now['Two, edited.']!]);
  assert.is(await markdownNow(), 'Four.\n\nZero.\n\nOne.\n\nTwo.\n\nThree.\n\nFive, edited.\n', 'only Two goes back; the insert, the move and the other edit stay');

  await revert([then['Four.']!]);
  assert.is(await markdownNow(), 'Zero.\n\nOne.\n\nTwo.\n\nThree.\n\nFour.\n\nFive, edited.\n', 'the moved block goes back between Three and Five');

  await revert([then['Five.']!, now['Zero.']!]);
  assert.is(await markdownNow(), 'One.\n\nTwo.\n\nThree.\n\nFour.\n\nFive.\n', 'the last edit and the insert reverted too: the earlier page');
});

test('links, backlinks and the changes against the merge base', async () => {
  const { base } = await changeRequestIn('Changes');
  const pages = flat((await t.call('GET', `${base}/content/pages`, { token: fx.reader.token })).body.pages);
  const faq = pages.find((page) => page.title === 'FAQ')!;
  const intro = pages.find((page) => page.title === 'Introduction')!;
  const configuration = pages.find((page) => page.title === 'Configuration')!;
  assert.equal((await t.call('GET', `${base}/changes`, { token: fx.reader.token })).body, { changes: [] }, 'nothing changed yet');
  const files = (await t.call('GET', `${base}/content/files`, { token: fx.reader.token })).body.items;
  const logo = files.find((file: { name: string }) => file.name === 'logo.png');

  const batch = await t.call('POST', `${base}/content?compat=false`, {
    token: fx.editor.token,
    body: {
      changes: [
        { operation: 'insert_page', title: 'Linking', document: { markdown: `# Linking\n\nTo [the FAQ](/pages/${faq.id}) and ![logo](/files/${logo.id}).\n` } },
        { operation: 'update_page', page: faq.id, title: 'Questions' },
        { operation: 'update_page', page: configuration.id, into: null },
        { operation: 'delete_page', page: intro.id },
      ],
    },
  });
  const linking = batch.body.changes[0].page.id;
  const links = await t.call('GET', `${base}/content/page/${linking}/links`, { token: fx.reader.token });
  assert.is(links.body.count, 2);
  assert.is(links.body.stats.broken.total, 0);
  const backlinks = await t.call('GET', `${base}/content/page/${faq.id}/backlinks`, { token: fx.reader.token });
  assert.ok(
    backlinks.body.items.some((item: { page?: { id: string } }) => item.page?.id === linking),
    JSON.stringify(backlinks.body),
  );
  const fileBacklinks = await t.call('GET', `${base}/content/files/${logo.id}/backlinks`, { token: fx.reader.token });
  assert.ok(
    fileBacklinks.body.items.some((item: { page?: { id: string } }) => item.page?.id === linking),
    JSON.stringify(fileBacklinks.body),
  );

  const changes = (await t.call('GET', `${base}/changes?limit=50`, { token: fx.reader.token })).body.changes as Array<{ type: string; page?: { id: string }; attributes?: Record<string, unknown> }>;
  const of = (type: string, id: string) => changes.find((change) => change.type === type && change.page?.id === id);
  assert.ok(of('page_created', linking));
  assert.equal(of('page_edited', faq.id)!.attributes!.title, { before: 'FAQ', after: 'Questions' });
  assert.ok(of('page_moved', configuration.id));
  assert.ok(of('page_deleted', intro.id));
  const limited = (await t.call('GET', `${base}/changes?limit=1`, { token: fx.reader.token })).body;
  assert.is(limited.changes.length, 1);
  assert.is(limited.more, changes.length - 1);
});

test('a hundred concurrent batches to one change request all land', async () => {
  const { base, gitdir } = await changeRequestIn('Concurrent');
  const answers = await Promise.all(
    Array.from({ length: 100 }, (_, index) =>
      t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'insert_page', title: `Page ${index}`, document: { markdown: `Body ${index}\n` } }] } }),
    ),
  );
  assert.equal(
    answers.map((answer) => answer.status),
    Array(100).fill(200),
  );
  const titles = new Set(flat((await t.call('GET', `${base}/content/pages`, { token: fx.reader.token })).body.pages).map((page) => page.title));
  for (let index = 0; index < 100; index += 1) assert.ok(titles.has(`Page ${index}`), `Page ${index} is there`);
  execFileSync('git', ['-C', gitdir, 'fsck', '--strict']);
});

test.run();
