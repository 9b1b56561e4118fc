import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { FormBrowser as Browser, signedInBrowser } from '../helpers/formBrowser.js';
import { givePasswords } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

/**
 * Reviewing in the web app as a browser without script does it: the description edited,
 * reviewers asked and the lists filtered by them, conversations on the change request and on a
 * page (reply, edit, resolve, reopen, delete) with the API's rules on who may, and a merge its
 * rules refuse explained on the page.
 */
const test = suite('the web app: review a change request');
let t: TestServer;
let fx: OrganizationFixture;
let spaceId: string;
const password = 'correct horse battery staple';

const signedIn = (email: string) => signedInBrowser(t.url, email, password);

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    fx = await organizationWithMembers(t);
    spaceId = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Handbook', template: { id: 'getting-started' } } })).body.id;
    await givePasswords(t.dataDir, [fx.admin, fx.editor, fx.reader], password);
  }),
);
test.after(async () => t?.close());

async function changeRequest(subject: string) {
  const created = (await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: fx.editor.token, body: { subject } })).body;
  const base = `/v1/spaces/${spaceId}/change-requests/${created.id}`;
  const faq = (await t.call('GET', `${base}/content/path/faq`, { token: fx.editor.token })).body;
  const edit = { operation: 'update_page', page: faq.id, document: { markdown: `## ${subject}\n\nA new first line.\n` } };
  assert.is((await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [edit] } })).status, 200);
  return { path: new URL(created.urls.app).pathname, base, faqId: faq.id as string };
}

test('the subject and description are edited in the app, and the description drawn by the shared renderer', async () => {
  const { path, base } = await changeRequest('First draft');
  const editor = await signedIn(fx.editor.email);
  const page = await editor.get(path);
  assert.match(page.html, '<summary>Edit subject and description</summary>');
  const saved = await editor.post(`${path}/describe`, { csrf: Browser.field(page.html, 'csrf'), subject: 'Explain the FAQ', description: 'Why: *people ask*.' });
  assert.is(saved.status, 303);
  const shown = await editor.get(path);
  assert.match(shown.html, '<h1>Explain the FAQ</h1>');
  assert.match(shown.html, /<div class="document description"><p>Why: <em>people ask<\/em>\.<\/p><\/div>/);
  assert.match(shown.html, /<textarea id="cr-description" name="description" rows="5">Why: ([*_])people ask\1\.<\/textarea>/, 'its markdown, to edit again');
  const api = (await t.call('GET', base, { token: fx.editor.token })).body;
  assert.is(api.subject, 'Explain the FAQ');
  const tooLong = await editor.post(`${path}/describe`, { csrf: Browser.field(page.html, 'csrf'), subject: 'x'.repeat(101), description: '' });
  assert.is(tooLong.status, 400);
  assert.match(tooLong.html, 'has at most 100 characters');
  assert.is((await t.call('GET', base, { token: fx.editor.token })).body.subject, 'Explain the FAQ', 'nothing half-written');

  // The rendered diff follows the branch: drawn pages are cached by their text, never shown stale.
  assert.match(shown.html, '<div class="block-ins"><span class="visually-hidden">Added: </span><p>A new first line.</p></div>');
  const faq = (await t.call('GET', `${base}/content/path/faq`, { token: fx.editor.token })).body;
  const edit = { operation: 'update_page', page: faq.id, document: { markdown: '## First draft\n\nA second thought.\n' } };
  assert.is((await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [edit] } })).status, 200);
  const redrawn = (await editor.get(path)).html;
  assert.match(redrawn, '<p>A second thought.</p>');
  assert.not.match(redrawn, 'A new first line.');

  const reader = await signedIn(fx.reader.email);
  assert.not.match((await reader.get(path)).html, 'Edit subject and description');
  assert.is((await reader.post(`${path}/describe`, { csrf: Browser.field((await reader.get(path)).html, 'csrf'), subject: 'Mine', description: '' })).status, 403);
});

test('a reviewer is asked and withdrawn; the list shows yours and those awaiting your review', async () => {
  const { path } = await changeRequest('Ask a reviewer');
  const admin = await signedIn(fx.admin.email);
  const page = await admin.get(path);
  assert.match(page.html, /<label for="reviewer">Reviewer<\/label><select id="reviewer" name="user">/);
  assert.not.match(page.html, new RegExp(`<option value="${fx.editor.id}">`), 'its author is not offered');
  const asked = await admin.post(`${path}/reviewers`, { csrf: Browser.field(page.html, 'csrf'), user: fx.reader.id });
  assert.is(asked.status, 303);
  assert.match((await admin.get(path)).html, /Review requested from [^<]+<form/);

  const list = (who: Browser, query: string) => who.get(`/app/s/${spaceId}/~/changes?status=open${query}`);
  const reader = await signedIn(fx.reader.email);
  assert.match((await list(reader, '&reviewer=me')).html, '>Ask a reviewer</a>');
  assert.not.match((await list(reader, '&by=me')).html, '>Ask a reviewer</a>');
  const editor = await signedIn(fx.editor.email);
  assert.match((await list(editor, '&by=me')).html, '>Ask a reviewer</a>');
  assert.match((await list(editor, '&by=me')).html, /<a href="[^"]+by=me" aria-current="page">Yours<\/a>/);
  assert.not.match((await list(editor, '&reviewer=me')).html, '>Ask a reviewer</a>');

  const withdrawn = await admin.post(`${path}/reviewers/withdraw`, { csrf: Browser.field(page.html, 'csrf'), user: fx.reader.id });
  assert.is(withdrawn.status, 303);
  assert.not.match((await list(reader, '&reviewer=me')).html, '>Ask a reviewer</a>');
  const notMember = await admin.post(`${path}/reviewers`, { csrf: Browser.field(page.html, 'csrf'), user: fx.outsider.id });
  assert.is(notMember.status, 400);
  assert.match(notMember.html, 'is not a member of the organization');
});

test('conversations: a comment on a page and its replies, edited, resolved, reopened and deleted by whom the API allows', async () => {
  const { path, base, faqId } = await changeRequest('Discuss it');
  const editor = await signedIn(fx.editor.email);
  const admin = await signedIn(fx.admin.email);
  const page = await editor.get(path);
  assert.match(page.html, /<label for="comment-on-[^"]+">Comment on [^<]+<\/label>/);
  const csrf = (html: string) => Browser.field(html, 'csrf');

  const posted = await editor.post(`${path}/comments`, { csrf: csrf(page.html), markdown: 'Is this *clear*?', page: faqId });
  assert.is(posted.status, 303);
  const commentId = posted.location!.split('#comment-')[1]!;
  const onPage = (await t.call('GET', `${base}/comments/${commentId}`, { token: fx.editor.token })).body;
  assert.is(onPage.target.page.id, faqId, 'the comment is on the page');
  let html = (await editor.get(path)).html;
  // Shown inside the page's change, before the general comments.
  assert.ok(html.indexOf(`id="comment-${commentId}"`) < html.indexOf('id="comments"'), 'shown with the page it is about');

  const adminPage = await admin.get(path);
  const replied = await admin.post(`${path}/comments/${commentId}/replies`, { csrf: csrf(adminPage.html), markdown: 'Yes, **quite**.' });
  assert.is(replied.status, 303);
  const replyId = (await t.call('GET', `${base}/comments/${commentId}/replies`, { token: fx.admin.token })).body.items[0].id;
  html = (await editor.get(path)).html;
  assert.match(html, /<li class="reply" id="reply-post-[^"]+">.*<p>Yes, <strong>quite<\/strong>\.<\/p>/s);

  assert.is((await editor.post(`${path}/comments/${commentId}/edit`, { csrf: csrf(page.html), markdown: 'Is this *clear enough*?' })).status, 303);
  html = (await editor.get(path)).html;
  assert.match(html, '<em>clear enough</em>');
  assert.match(html, ' · edited');

  // The editor may not change the admin's reply; the admin may (a moderator), and resolves the editor's comment.
  const refused = await editor.post(`${path}/comments/${commentId}/replies/${replyId}/delete`, { csrf: csrf(page.html) });
  assert.is(refused.status, 403);
  assert.match(refused.html, 'Only its author or an admin of the space may delete a reply');
  assert.is((await admin.post(`${path}/comments/${commentId}/resolve`, { csrf: csrf(adminPage.html), resolved: 'true' })).status, 303);
  assert.is((await t.call('GET', `${base}/comments/${commentId}`, { token: fx.editor.token })).body.status, 'resolved');
  html = (await editor.get(path)).html;
  assert.match(html, /<article class="comment resolved"/);
  assert.match(html, '>Reopen</button>');
  assert.is((await editor.post(`${path}/comments/${commentId}/resolve`, { csrf: csrf(page.html), resolved: 'false' })).status, 303);
  assert.is((await t.call('GET', `${base}/comments/${commentId}`, { token: fx.editor.token })).body.status, 'open');

  assert.is((await admin.post(`${path}/comments/${commentId}/replies/${replyId}/edit`, { csrf: csrf(adminPage.html), markdown: 'Yes.' })).status, 303);
  assert.is((await admin.post(`${path}/comments/${commentId}/replies/${replyId}/delete`, { csrf: csrf(adminPage.html) })).status, 303);
  assert.is((await t.call('GET', `${base}/comments/${commentId}/replies`, { token: fx.admin.token })).body.items.length, 0);
  assert.is((await editor.post(`${path}/comments/${commentId}/delete`, { csrf: csrf(page.html) })).status, 303);
  assert.is((await t.call('GET', `${base}/comments/${commentId}`, { token: fx.editor.token })).status, 404);
  // Without the form's token nothing happens, whoever's cookie comes with it.
  assert.is((await editor.post(`${path}/comments`, { csrf: 'forged', markdown: 'Nope' })).status, 403);
});

test('a merge its rules refuse says why on the change request’s page, and merges nothing', async () => {
  const rules = { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] };
  assert.is((await t.call('PATCH', `/v1/spaces/${spaceId}`, { token: fx.admin.token, body: { mergeRules: rules } })).status, 200);
  const { path, base } = await changeRequest('Needs a review');
  const admin = await signedIn(fx.admin.email);
  const page = await admin.get(path);
  const refused = await admin.post(`${path}/merge`, { csrf: Browser.field(page.html, 'csrf') });
  assert.ok(refused.status >= 400 && refused.status < 500, `refused: ${refused.status}`);
  assert.match(refused.html, /<p class="problem" role="alert">Not merged: [^<]*review/);
  assert.match(refused.html, '<h1>Needs a review</h1>', 'on the change request’s own page');
  assert.is((await t.call('GET', base, { token: fx.admin.token })).body.status, 'open');
  assert.is((await t.call('PATCH', `/v1/spaces/${spaceId}`, { token: fx.admin.token, body: { mergeRules: { type: 'inherit' } } })).status, 200);
});

test.run();
