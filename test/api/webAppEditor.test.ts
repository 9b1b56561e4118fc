import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { FormBrowser as Browser, signedInBrowser } from '../helpers/formBrowser.js';
import { gitValue } from '../helpers/gitClient.js';
import { givePasswords } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

/**
 * Writing in a change request from the browser, in markdown (the first part of issue 53): each save
 * one commit on its branch with the markdown as written; a save over a branch that moved meanwhile
 * merged line by line, or, where both changed the same lines, handed back marked and nothing written.
 */
const test = suite('the web app: writing in a change request');
let t: TestServer;
let fx: OrganizationFixture;
let spaceId: string;
const password = 'correct horse battery staple';

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    fx = await organizationWithMembers(t);
    spaceId = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Handbook', template: { id: 'getting-started' } } })).body.id;
    await givePasswords(t.dataDir, [fx.editor, fx.reader], password);
  }),
);
test.after(async () => t?.close());

async function openChangeRequest(subject: string) {
  const created = (await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: fx.editor.token, body: { subject } })).body;
  const base = `/v1/spaces/${spaceId}/change-requests/${created.id}`;
  const faq = (await t.call('GET', `${base}/content/path/faq`, { token: fx.editor.token })).body;
  return { created, base, path: new URL(created.urls.app).pathname, faqId: faq.id as string };
}

const branchOf = async (base: string) => (await t.call('GET', base, { token: fx.editor.token })).body.revision as string;
const markdownOf = async (base: string) => (await t.call('GET', `${base}/content/path/faq?format=markdown`, { token: fx.editor.token })).body.markdown as string;

test('a page edited in markdown: one commit on the branch, the file as written', async () => {
  const { path, base, faqId, created } = await openChangeRequest('Edit the FAQ');
  const editor = await signedInBrowser(t.url, fx.editor.email, password);
  const page = await editor.get(path);
  assert.match(page.html, `<a href="${path}/pages">Edit pages</a>`);
  const pages = await editor.get(`${path}/pages`);
  assert.match(pages.html, `<a href="${path}/p/${faqId}/edit" aria-label="Edit FAQ">FAQ</a>`);
  const form = await editor.get(`${path}/p/${faqId}/edit`);
  assert.match(form.html, '<label for="page-markdown">Markdown</label>');
  assert.match(form.html, /<textarea id="page-markdown" name="markdown" rows="24" spellcheck>## Where do I start\?/, 'the text without its title heading: the title has its own field');
  const before = await branchOf(base);
  const text = '## Where do I start?\n\nWith the [introduction](README.md).\n\n* one\n* two\n';
  const saved = await editor.post(`${path}/p/${faqId}/edit`, { csrf: Browser.field(form.html, 'csrf'), base: Browser.field(form.html, 'base'), title: 'Questions', markdown: text });
  assert.is(saved.status, 303, saved.html.slice(0, 400));
  const after = await branchOf(base);
  assert.is.not(after, before);
  const gitdir = spaceGitdir(t.dataDir, spaceId);
  assert.is(gitValue(gitdir, 'rev-parse', `${after}^`), before, 'one commit on the branch');
  const changed = gitValue(gitdir, 'diff', '--name-only', before, after).trim().split('\n');
  assert.equal(changed.sort(), ['SUMMARY.md', 'faq.md'], 'the page’s file, and the summary for its new title');
  const file = 'faq.md';
  const written = gitValue(gitdir, 'show', `${after}:${file}`);
  // Git Sync's layout: frontmatter, the title as the first heading, then the markdown as written (gitValue trims the last newline).
  assert.is(written, `---\npageId: ${faqId}\n---\n\n# Questions\n\n${text.trimEnd()}`);
  assert.is((await t.call('GET', `${base}/content/page/${faqId}`, { token: fx.editor.token })).body.title, 'Questions');
  assert.match(created.urls.app, new RegExp(path));

  const reader = await signedInBrowser(t.url, fx.reader.email, password);
  assert.is((await reader.get(`${path}/p/${faqId}/edit`)).status, 403, 'a reader edits nothing');
});

test('a save over a branch that moved meanwhile: different lines merged, the same lines handed back marked', async () => {
  const { path, base, faqId } = await openChangeRequest('Two writers');
  const start = '## Where do I start?\n\nFirst line.\n\nMiddle line.\n\nLast line.\n';
  assert.is((await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'update_page', page: faqId, document: { markdown: start } }] } })).status, 200);
  const editor = await signedInBrowser(t.url, fx.editor.email, password);
  const form = await editor.get(`${path}/p/${faqId}/edit`);
  const opened = { csrf: Browser.field(form.html, 'csrf'), base: Browser.field(form.html, 'base'), title: 'FAQ' };

  // Someone else (a push, the API) changes the last line while the first is being rewritten here.
  const elsewhere = start.replace('Last line.', 'Last line, changed elsewhere.');
  assert.is((await t.call('POST', `${base}/content`, { token: fx.admin.token, body: { changes: [{ operation: 'update_page', page: faqId, document: { markdown: elsewhere } }] } })).status, 200);
  const merged = await editor.post(`${path}/p/${faqId}/edit`, { ...opened, markdown: start.replace('First line.', 'First line, changed here.') });
  assert.is(merged.status, 303, merged.html.slice(0, 400));
  const both = await markdownOf(base);
  assert.match(both, 'First line, changed here.');
  assert.match(both, 'Last line, changed elsewhere.');

  // Both change the middle line: nothing written, both versions handed back marked.
  const again = await editor.get(`${path}/p/${faqId}/edit`);
  const reopened = { csrf: Browser.field(again.html, 'csrf'), base: Browser.field(again.html, 'base'), title: 'FAQ' };
  const theirs = both.replace('Middle line.', 'Middle line, theirs.');
  assert.is((await t.call('POST', `${base}/content`, { token: fx.admin.token, body: { changes: [{ operation: 'update_page', page: faqId, document: { markdown: theirs } }] } })).status, 200);
  const head = await branchOf(base);
  const conflict = await editor.post(`${path}/p/${faqId}/edit`, { ...reopened, markdown: both.replace('Middle line.', 'Middle line, mine.') });
  assert.is(conflict.status, 409);
  assert.match(conflict.html, 'The page changed meanwhile');
  assert.match(conflict.html, /&#x3C;&#x3C;&#x3C;&#x3C;&#x3C;&#x3C;&#x3C; yours\nMiddle line, mine\.\n=======\nMiddle line, theirs\.\n>>>>>>> the change request now/);
  assert.is(await branchOf(base), head, 'nothing written');
  // The writer keeps both lines and saves from the head the conflict was shown against.
  const resolved = theirs.replace('Middle line, theirs.', 'Middle line, mine.\n\nMiddle line, theirs.');
  const done = await editor.post(`${path}/p/${faqId}/edit`, { ...reopened, base: Browser.field(conflict.html, 'base'), markdown: resolved });
  assert.is(done.status, 303);
  assert.match(await markdownOf(base), /Middle line, mine\.\n\nMiddle line, theirs\./);
});

test('a new page, then deleted; a title of spaces refused and nothing written', async () => {
  const { path, base } = await openChangeRequest('Pages come and go');
  const editor = await signedInBrowser(t.url, fx.editor.email, password);
  const pages = await editor.get(`${path}/pages`);
  const head = await branchOf(base);
  assert.is((await editor.post(`${path}/pages`, { csrf: Browser.field(pages.html, 'csrf'), title: '   ' })).status, 400);
  assert.is(await branchOf(base), head);
  const made = await editor.post(`${path}/pages`, { csrf: Browser.field(pages.html, 'csrf'), title: 'Release notes' });
  assert.is(made.status, 303);
  const pageId = /\/p\/([^/]+)\/edit$/.exec(made.location!)?.[1];
  assert.ok(pageId, made.location!);
  assert.match((await editor.get(made.location!)).html, '<h1>Edit Release notes</h1>');
  assert.is((await editor.post(`${path}/p/${pageId}/delete`, { csrf: Browser.field(pages.html, 'csrf') })).status, 303);
  assert.is((await t.call('GET', `${base}/content/page/${pageId}`, { token: fx.editor.token })).status, 404);
});

test.run();
