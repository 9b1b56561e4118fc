import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { acceptInvitation, assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { checkedBody } from '../helpers/upstream.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('space content');
let t: TestServer;
let fx: OrganizationFixture;
let space: { id: string; revision: string };
let content: string;
withOrganization(test, async (setup) => {
  ({ t, fx } = setup);
});

test.before.each(async () => {
  if (space) return;
  const created = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Guide', template: { id: 'getting-started' } } });
  space = created.body;
  content = `/v1/spaces/${space.id}/content`;
});

const flatten = (pages: Array<{ id: string; title: string; path?: string; pages?: unknown[] }>): Array<{ id: string; title: string; path?: string }> =>
  pages.flatMap((page) => [page, ...flatten((page.pages ?? []) as typeof pages)]);

test('GET content: the current revision with its page tree and files', async () => {
  const revision = await t.call('GET', content, { token: fx.reader.token });
  assert.is(revision.status, 200);
  assert.is(revision.body.id, space.revision);
  assert.equal(
    flatten(revision.body.pages).map((page) => page.path),
    ['', 'quick-start', 'quick-start/configuration', 'faq'],
  );
  assert.is(revision.body.files.length, 1);
  assert.is(revision.body.files[0].contentType, 'image/png');
  assert.ok(revision.body.files[0].size > 0);
  assertErrorIs(await t.call('GET', `${content}?metadata=maybe`, { token: fx.reader.token }), 400, 'Invalid query parameter: "metadata" must be boolean');
  assertErrorIs(await t.call('GET', content, { token: fx.guest.token }), 404, `Space ${space.id} not found`);
});

test('GET a page by id as markdown or as a Document; by path; in a given revision', async () => {
  const pages = flatten((await t.call('GET', `${content}/pages`, { token: fx.reader.token })).body.pages);
  const configuration = pages.find((page) => page.title === 'Configuration')!;
  const asMarkdown = await t.call('GET', `${content}/page/${configuration.id}?format=markdown`, { token: fx.reader.token });
  assert.is(asMarkdown.status, 200);
  assert.ok(asMarkdown.body.markdown.includes('port: 3000'));
  const quickStart = pages.find((page) => page.title === 'Quick start')!;
  const blocks = await t.call('GET', `${content}/page/${quickStart.id}?format=markdown`, { token: fx.reader.token });
  assert.is(
    blocks.body.markdown,
    '{% hint style="info" %}\nIt takes five minutes.\n{% endhint %}\n\n1. Install.\n2. [Configure](quick-start/configuration.md).\n3. Run.\n',
    'GitBook blocks come back exactly as stored',
  );
  const hint = await t.call('GET', `${content}/page/${quickStart.id}?format=document`, { token: fx.reader.token });
  assert.equal(hint.body.document.nodes[0].data, { style: 'info' });
  const asDocument = await t.call('GET', `${content}/page/${configuration.id}`, { token: fx.reader.token });
  assert.is(asDocument.body.document.object, 'document');
  assert.ok(asDocument.body.document.nodes.some((node: { type: string }) => node.type === 'code'));
  const byPath = await t.call('GET', `${content}/path/${encodeURIComponent('quick-start/configuration')}?format=markdown`, { token: fx.reader.token });
  assert.is(byPath.body.id, configuration.id);
  const inRevision = await t.call('GET', `/v1/spaces/${space.id}/revisions/${space.revision}/page/${configuration.id}?format=markdown`, { token: fx.reader.token });
  assert.is(inRevision.body.id, configuration.id);
  assertErrorIs(await t.call('GET', `${content}/page/nope`, { token: fx.reader.token }), 404, `Page nope not found in revision ${space.revision}`);
  assertErrorIs(await t.call('GET', `${content}/path/${encodeURIComponent('no/such/page')}`, { token: fx.reader.token }), 404, `Page at path "no/such/page" not found in revision ${space.revision}`);
  assertErrorIs(await t.call('GET', `${content}/page/${configuration.id}?format=html`, { token: fx.reader.token }), 400, 'Invalid query parameter: "format" must be one of "document", "markdown"');
});

test('files: list, get, and download the bytes with their content type', async () => {
  const files = await t.call('GET', `${content}/files`, { token: fx.reader.token });
  assert.is(files.status, 200);
  assert.is(files.body.count, 1);
  const file = files.body.items[0];
  assert.is((await t.call('GET', `${content}/files/${file.id}`, { token: fx.reader.token })).body.name, 'logo.png');
  const bytes = await fetch(file.downloadURL.replace(/^http:\/\/localhost:\d+/, t.url), { headers: { authorization: `Bearer ${fx.reader.token}` } });
  assert.is(bytes.status, 200);
  assert.is(bytes.headers.get('content-type'), 'image/png');
  const body = new Uint8Array(await bytes.arrayBuffer());
  assert.equal([...body.slice(1, 4)], [80, 78, 71], 'a PNG signature');
  assert.is(body.byteLength, file.size);
  assertErrorIs(await t.call('GET', `${content}/files/nope`, { token: fx.reader.token }), 404, `File nope not found in revision ${space.revision}`);
  const missingDownload = `/v1/spaces/${space.id}/revisions/${space.revision}/files/nope/download`;
  const refused = await checkedBody('GET', missingDownload, await fetch(t.url + missingDownload, { headers: { authorization: `Bearer ${fx.reader.token}` } }));
  assert.equal(refused, { error: { code: 404, message: `File nope not found in revision ${space.revision}` } });
  assertErrorIs(await t.call('GET', `${content}/files?limit=2000`, { token: fx.reader.token }), 400, 'Invalid query parameter: "limit" must be <= 1000');
});

test('revisions: an older revision stays readable after new commits; unknown ids 404', async () => {
  await t.call('POST', `/v1/spaces/${space.id}/content/template`, { token: fx.admin.token, body: { id: 'knowledge-base' } });
  const current = await t.call('GET', content, { token: fx.reader.token });
  assert.is.not(current.body.id, space.revision);
  assert.equal(current.body.parents, [space.revision]);
  const old = await t.call('GET', `/v1/spaces/${space.id}/revisions/${space.revision}`, { token: fx.reader.token });
  assert.is(old.status, 200);
  assert.ok(flatten(old.body.pages).some((page) => page.title === 'Quick start'));
  assert.ok(flatten(current.body.pages).some((page) => page.title === 'Meetings'));
  const oldPages = await t.call('GET', `/v1/spaces/${space.id}/revisions/${space.revision}/pages`, { token: fx.reader.token });
  assert.is(oldPages.status, 200);
  const oldFiles = await t.call('GET', `/v1/spaces/${space.id}/revisions/${space.revision}/files`, { token: fx.reader.token });
  assert.is(oldFiles.body.count, 1);
  assert.is((await t.call('GET', `/v1/spaces/${space.id}/revisions/${space.revision}/files/${oldFiles.body.items[0].id}`, { token: fx.reader.token })).status, 200);
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.id}/revisions/${'0'.repeat(40)}`, { token: fx.reader.token }), 404, `Revision ${'0'.repeat(40)} not found`);
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.id}/revisions/HEAD`, { token: fx.reader.token }), 404, 'Revision HEAD not found');
});

test('applying a template needs the edit role: a commenter (one below) and a reader get 403 and change nothing', async () => {
  const commenter = await t.user();
  await t.call('POST', `/v1/orgs/${fx.org.id}/invites`, { token: fx.admin.token, body: { emails: [{ email: commenter.email, role: 'comment' }] } });
  await acceptInvitation(t, fx.org.id, commenter);
  const before = (await t.call('GET', content, { token: fx.reader.token })).body.id;
  const apply = (token: string) => t.call('POST', `/v1/spaces/${space.id}/content/template`, { token, body: { id: 'knowledge-base' } });
  assertErrorIs(await apply(commenter.token), 403, 'This operation needs the edit role on the space; you have comment');
  assertErrorIs(await apply(fx.reader.token), 403, 'This operation needs the edit role on the space; you have read');
  assertErrorIs(await apply(fx.outsider.token), 404, `Space ${space.id} not found`);
  assert.is((await t.call('GET', content, { token: fx.reader.token })).body.id, before, 'no new revision');
});

test.run();
