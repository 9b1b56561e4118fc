import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { gitValue } from '../helpers/gitClient.js';
import { runAdmin } from '../helpers/processes.js';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';
import { FormBrowser as Browser } from '../helpers/formBrowser.js';

/**
 * The web app over HTTP, as a browser without script uses it: sign-in with a password the
 * operator set, the session cookie, CSRF tokens and Origin on every form, the API's policies
 * deciding what a person sees. (test/api/webAppBrowser.test.ts drives it in Chromium.)
 */
const test = suite('the web app: sign in, find and read, sign out');
let t: TestServer;
let fx: OrganizationFixture;
let space: { id: string; title: string };
const password = 'correct horse battery staple';

const signIn = (browser: Browser, email: string, next = '/app/') => browser.signIn(email, password, next);

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    fx = await organizationWithMembers(t);
    space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Handbook', template: { id: 'getting-started' } } })).body;
    for (const person of [fx.reader, fx.outsider, fx.admin, fx.guest, fx.creator]) {
      const set = await runAdmin(['user', 'password', '--email', person.email], { DATA_DIR: t.dataDir }, { stdin: `${password}\n` });
      assert.is(set.code, 0, set.stderr);
      assert.is(set.stdout.trim(), `password set for ${person.email}`);
    }
  }),
);
test.after(async () => {
  await t?.close();
});

test('the operator sets a password from stdin: too short is refused, an unknown email too', async () => {
  const short = await runAdmin(['user', 'password', '--email', fx.editor.email], { DATA_DIR: t.dataDir }, { stdin: 'short\n' });
  assert.is.not(short.code, 0);
  assert.match(short.stderr, /A password needs at least 8 characters/);
  const unknown = await runAdmin(['user', 'password', '--email', 'nobody@example.com'], { DATA_DIR: t.dataDir }, { stdin: `${password}\n` });
  assert.is.not(unknown.code, 0);
  assert.match(unknown.stderr, /no user with email nobody@example\.com/);
});

test('a signed-out visit to a urls.app page goes through sign-in and back to it', async () => {
  const browser = new Browser(t.url);
  const root = await browser.get('/');
  assert.is(root.status, 302);
  assert.is(root.location, '/app/');
  const pageUrl = new URL((await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.reader.token })).body.urls.app).pathname;
  const away = await browser.get(pageUrl);
  assert.is(away.status, 302);
  assert.is(away.location, `/app/sign-in?next=${encodeURIComponent(pageUrl)}`);
  const signedIn = await signIn(browser, fx.reader.email, pageUrl);
  assert.is(signedIn.status, 303);
  assert.is(signedIn.location, pageUrl);
  const cookie = signedIn.headers.getSetCookie().find((line) => line.startsWith('quire_session='))!;
  assert.match(cookie, /HttpOnly/i);
  assert.match(cookie, /SameSite=Lax/i);
  assert.match(cookie, /path=\/app/i);
  const read = await browser.get(pageUrl);
  assert.is(read.status, 200);
  assert.match(read.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  assert.match(read.html, /<h1 id="page-title">Introduction<\/h1>/);
  assert.match(read.html, /Welcome! Start with the <a href="\/app\/s\/[^"]+\/p\/[^"]+">quick start<\/a>/, 'the page drawn by the shared renderer, its links leading into the app');
  assert.match(read.html, new RegExp(`git clone http[^<]*/git/${space.id}\\.git`));
});

test('the home page lists the organizations and the spaces the person can read; a space of another organization is a 404', async () => {
  const reader = new Browser(t.url);
  await signIn(reader, fx.reader.email);
  const home = await reader.get('/app/');
  assert.is(home.status, 200);
  assert.match(home.html, new RegExp(`<a href="/app/o/${fx.org.id}">Acme Docs</a>`));
  assert.match(home.html, new RegExp(`<a href="/app/s/${space.id}">Handbook</a>`));
  // A guest belongs to the organization with no role: its page opens, showing what is shared with them (nothing here).
  const guest = new Browser(t.url);
  await signIn(guest, fx.guest.email);
  const guestView = await guest.get(`/app/o/${fx.org.id}`);
  assert.is(guestView.status, 200);
  assert.match(guestView.html, /No space you can read here yet\./);
  const outsider = new Browser(t.url);
  await signIn(outsider, fx.outsider.email);
  assert.is((await outsider.get(`/app/o/${fx.org.id}`)).status, 404);
  assert.not.match((await outsider.get('/app/')).html, /Handbook/);
  const refused = await outsider.get(`/app/s/${space.id}`);
  assert.is(refused.status, 404);
  assert.match(refused.html, new RegExp(`Space ${space.id} not found`));
});

test('a wrong password, an unknown email and a user without a password get the same refusal; failures in a row make it wait', async () => {
  const browser = new Browser(t.url);
  const form = await browser.get('/app/sign-in');
  const attempt = (email: string, secret: string) => browser.post('/app/sign-in', { csrf: Browser.field(form.html, 'csrf'), next: '/app/', email, password: secret });
  for (const [email, secret] of [
    [fx.reader.email, 'not the password'],
    ['nobody@example.com', password],
    [fx.editor.email, password],
  ] as const) {
    const refused = await attempt(email, secret);
    assert.is(refused.status, 401, email);
    assert.match(refused.html, /The email or the password is not right/);
    assert.not.ok(browser.cookies.has('quire_session'));
  }
  // One failure above, five more: the sixth in a row makes the next attempt wait.
  for (let failure = 0; failure < 5; failure++) await attempt(fx.editor.email, 'wrong again');
  const waiting = await attempt(fx.editor.email, 'wrong again');
  assert.is(waiting.status, 429);
  assert.match(waiting.html, /Too many failed sign-ins: try again in \d+ seconds?/);
});

test('no state change from another site: the Origin and the form token are checked, the cookie alone is never enough', async () => {
  const browser = new Browser(t.url);
  await signIn(browser, fx.reader.email);
  const home = await browser.get('/app/');
  const csrf = Browser.field(home.html, 'csrf');
  assert.ok(csrf.length > 20, 'the sign-out form carries the session token');
  // (Koa 3's ctx.origin is the Origin header: compared with itself, this passed.)
  assert.is((await browser.post('/app/sign-out', { csrf }, { origin: 'https://evil.example' })).status, 403, 'another origin');
  assert.is((await browser.post('/app/sign-out', { csrf }, { origin: null })).status, 403, 'no origin');
  assert.is((await browser.post('/app/sign-out', { csrf: 'forged' })).status, 403, 'a forged token');
  assert.is((await browser.get('/app/')).status, 200, 'still signed in');
  // The API never reads the session cookie: with it and without a token, /v1 answers 401.
  const api = await fetch(`${t.url}/v1/user`, { headers: { cookie: `quire_session=${browser.cookies.get('quire_session')}` } });
  assert.is(api.status, 401);
  // A sign-in posted from another site (login CSRF) is refused too.
  assert.is((await browser.post('/app/sign-in', { csrf: 'x', next: '/app/', email: fx.reader.email, password }, { origin: 'https://evil.example' })).status, 403);
});

test('a change request: its source diff, and only the forms the role allows; a review and a merge posted as forms', async () => {
  const created = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Say hello properly' } })).body;
  const base = `/v1/spaces/${space.id}/change-requests/${created.id}`;
  const faq = (await t.call('GET', `${base}/content/path/faq`, { token: fx.editor.token })).body;
  const edited = await t.call('POST', `${base}/content`, {
    token: fx.editor.token,
    body: { changes: [{ operation: 'update_page', page: faq.id, document: { markdown: '## Where do I start?\n\nWith the [introduction](README.md), then the quick start.\n' } }] },
  });
  assert.is(edited.status, 200);
  const path = new URL(created.urls.app).pathname;
  assert.is(path, `/app/s/${space.id}/~/changes/${created.number}`, 'the address urls.app hands out');

  const reader = new Browser(t.url);
  await signIn(reader, fx.reader.email);
  const list = await reader.get(`/app/s/${space.id}/~/changes`);
  assert.match(list.html, new RegExp(`<a href="${path}">Say hello properly</a>`));
  const shown = await reader.get(path);
  assert.is(shown.status, 200);
  assert.match(shown.html, /<h1>Say hello properly<\/h1>/);
  assert.match(shown.html, /Changes \(1 page, 0 files\)/);
  // Rendered by default: the paragraph removed and the one added, as the reader sees them, named for screen readers.
  assert.match(
    shown.html,
    /<div class="block-del"><span class="visually-hidden">Removed: <\/span><p>With the <a [^>]+>introduction<\/a>\.<\/p><\/div><div class="block-ins"><span class="visually-hidden">Added: <\/span><p>With the <a [^>]+>introduction<\/a>, then the quick start\.<\/p><\/div>/,
  );
  const source = await reader.get(`${path}?diff=source`);
  assert.match(source.html, /<del>- With the \[introduction\]\(README\.md\)\.\n<\/del><ins>\+ With the \[introduction\]\(README\.md\), then the quick start\.\n<\/ins>/);
  assert.match(source.html, /<a href="[^"]+\?diff=source" aria-current="page">Source<\/a>/);
  assert.not.match(shown.html, />Approve</, 'a reader is offered no review');
  assert.not.match(shown.html, />Merge</, 'nor a merge');
  assert.not.match(shown.html, /<textarea/, 'nor a comment box (read is below comment)');
  const csrf = Browser.field(shown.html, 'csrf');
  assert.is((await reader.post(`${path}/merge`, { csrf })).status, 403, 'and the route refuses it as the API does');

  const admin = new Browser(t.url);
  await signIn(admin, fx.admin.email);
  const page = await admin.get(path);
  assert.match(page.html, />Approve</);
  assert.match(page.html, />Merge</);
  const approved = await admin.post(`${path}/review`, { csrf: Browser.field(page.html, 'csrf'), status: 'approved' });
  assert.is(approved.status, 303);
  assert.match((await admin.get(path)).html, /approved<\/li>/);
  const commented = await admin.post(`${path}/comments`, { csrf: Browser.field(page.html, 'csrf'), markdown: 'Looks **good**: see the [quick start](quick-start.md).' });
  assert.is(commented.status, 303);
  assert.match(commented.location!, new RegExp(`^${path}#comment-`));
  const withComment = (await admin.get(path)).html;
  assert.match(withComment, /<article class="comment" id="comment-[^"]+" aria-label="Comment by [^"]+">/);
  assert.match(withComment, /<p>Looks <strong>good<\/strong>: see the <a href="\/app\/s\/[^"]+\/p\/[^"]+">quick start<\/a>\.<\/p>/, 'drawn by the shared renderer, its link into the app');
  const listedComments = (await t.call('GET', `${base}/comments`, { token: fx.admin.token })).body.items;
  assert.equal(
    listedComments.map((comment: { body: { markdown?: string } }) => comment.body.markdown?.trim()),
    ['Looks **good**: see the [quick start](quick-start.md).'],
  );
  assert.is((await admin.post(`${path}/comments`, { csrf: Browser.field(page.html, 'csrf'), markdown: '' })).status, 400, 'an empty comment is refused');
  const reviews = (await t.call('GET', `${base}/reviews`, { token: fx.admin.token })).body.items;
  assert.equal(
    reviews.map((review: { status: string }) => review.status),
    ['approved'],
  );
  const merged = await admin.post(`${path}/merge`, { csrf: Browser.field(page.html, 'csrf') });
  assert.is(merged.status, 303);
  assert.is((await t.call('GET', base, { token: fx.admin.token })).body.status, 'merged');
  const main = (await t.call('GET', `/v1/spaces/${space.id}/content/path/faq?format=markdown`, { token: fx.admin.token })).body;
  assert.match(main.markdown, /then the quick start/);
  assert.match((await admin.get(path)).html, /Merged/);
});

test('a merge that conflicts lists what conflicts and changes nothing; the choices per page resolve it', async () => {
  const edit = async (subject: string, line: string) => {
    const created = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject } })).body;
    const base = `/v1/spaces/${space.id}/change-requests/${created.id}`;
    const faq = (await t.call('GET', `${base}/content/path/faq`, { token: fx.editor.token })).body;
    assert.is(
      (
        await t.call('POST', `${base}/content`, {
          token: fx.editor.token,
          body: { changes: [{ operation: 'update_page', page: faq.id, document: { markdown: `## Where do I start?\n\n${line}\n` } }] },
        })
      ).status,
      200,
    );
    return { path: new URL(created.urls.app).pathname, base };
  };
  const [first, second] = [await edit('First answer', 'Here.'), await edit('Second answer', 'There.')];
  const admin = new Browser(t.url);
  await signIn(admin, fx.admin.email);
  const csrf = Browser.field((await admin.get(first.path)).html, 'csrf');
  assert.is((await admin.post(`${first.path}/merge`, { csrf })).status, 303);
  const refused = await admin.post(`${second.path}/merge`, { csrf });
  assert.is(refused.status, 409);
  assert.match(refused.html, /Not merged: these conflict with main/);
  assert.match(refused.html, /<li>FAQ: /);
  assert.is((await t.call('GET', second.base, { token: fx.admin.token })).body.status, 'open', 'nothing changed');
  const main = (await t.call('GET', `/v1/spaces/${space.id}/content/path/faq?format=markdown`, { token: fx.admin.token })).body;
  assert.match(main.markdown, /Here\./);

  // The choices the API's update offers, per conflicting page: keep the change request's version, then merge.
  const faqId = (await t.call('GET', `/v1/spaces/${space.id}/content/path/faq`, { token: fx.admin.token })).body.id;
  assert.match(refused.html, `<legend>Keep which version of FAQ?</legend>`);
  assert.match(refused.html, `name="resolve:${faqId}" value="change-request"`);
  assert.is((await admin.post(`${second.path}/update`, { csrf, [`resolve:${faqId}`]: 'sideways' })).status, 400);
  const updated = await admin.post(`${second.path}/update`, { csrf, [`resolve:${faqId}`]: 'change-request' });
  assert.is(updated.status, 303, updated.html.slice(0, 500));
  assert.is((await admin.post(`${second.path}/merge`, { csrf })).status, 303);
  const after = (await t.call('GET', `/v1/spaces/${space.id}/content/path/faq?format=markdown`, { token: fx.admin.token })).body;
  assert.match(after.markdown, /There\./, 'the change request’s version, merged');
});

test('settings: API tokens made (shown once), used and revoked; other browsers signed out; the password changed', async () => {
  const here = new Browser(t.url);
  const there = new Browser(t.url);
  await signIn(here, fx.creator.email);
  await signIn(there, fx.creator.email);
  const settings = await here.get('/app/settings');
  assert.is(settings.status, 200);
  const csrf = Browser.field(settings.html, 'csrf');

  assert.is((await here.post('/app/settings/tokens', { csrf, label: '  ' })).status, 400);
  const made = await here.post('/app/settings/tokens', { csrf, label: 'Deploy script' });
  assert.is(made.status, 201);
  const value = /shown this once:<\/p><p class="clone">([^<]+)<\/p>/.exec(made.html)?.[1];
  assert.ok(value, 'the new token is shown');
  const user = await fetch(`${t.url}/v1/user`, { headers: { authorization: `Bearer ${value}` } });
  assert.is(user.status, 200, 'and works on the API');
  assert.is((await user.json()).email, fx.creator.email);
  const listed = await here.get('/app/settings');
  assert.match(listed.html, /<td>Deploy script<\/td>/);
  assert.not.match(listed.html, new RegExp(value!), 'never shown again');
  const tokenId = /name="id" value="([^"]+)"><button type="submit" aria-label="Revoke Deploy script"/.exec(listed.html)?.[1];
  assert.ok(tokenId);
  assert.is((await here.post('/app/settings/tokens/revoke', { csrf, id: tokenId! })).status, 303);
  assert.is((await fetch(`${t.url}/v1/user`, { headers: { authorization: `Bearer ${value}` } })).status, 401, 'revoked');

  assert.match(listed.html, /\(this browser\)/);
  const wrong = await here.post('/app/settings/password', { csrf, current: 'not it', next: 'a new passphrase' });
  assert.is(wrong.status, 400);
  assert.match(wrong.html, /The current password is not right/);
  const changed = await here.post('/app/settings/password', { csrf, current: password, next: 'a new passphrase' });
  assert.is(changed.status, 200);
  assert.match(changed.html, /Password changed: every other browser is signed out\./);
  assert.is((await here.get('/app/')).status, 200, 'this browser stays signed in');
  await new Promise((resolve) => setTimeout(resolve, 150));
  assert.is((await there.get('/app/')).status, 302, 'the other is signed out');
});

test('the space’s history from git, and a revision with what it changed', async () => {
  // The head is the merge of the change requests above: a commit with its author, message and changes.
  const revisionNow = (await t.call('GET', `/v1/spaces/${space.id}/content`, { token: fx.admin.token })).body;
  const reader = new Browser(t.url);
  await signIn(reader, fx.reader.email);
  const history = await reader.get(`/app/s/${space.id}/history`);
  assert.is(history.status, 200);
  const revisionPath = new URL(revisionNow.urls.app).pathname;
  assert.ok(history.html.includes(`<a href="${revisionPath}">`), 'the head revision is listed, at its urls.app');
  const entries = history.html.match(/<li><a href="\/app\/s\/[^"]+\/r\/[0-9a-f]{40}">/g) ?? [];
  const gitLog = gitValue(spaceGitdir(t.dataDir, space.id), 'log', '--first-parent', '--format=%H', 'main').split('\n');
  assert.is(entries.length, gitLog.length, 'one entry per first-parent commit, as git log --first-parent');
  const shown = await reader.get(revisionPath);
  assert.is(shown.status, 200);
  assert.match(shown.html, new RegExp(revisionNow.id));
  const [author] = gitValue(spaceGitdir(t.dataDir, space.id), 'log', '-1', '--format=%an', revisionNow.id).split('\n');
  assert.ok(shown.html.includes(author!), `the author, ${author}`);
  assert.match(shown.html, /Changes \(\d+ pages?, \d+ files?\)/);
  assert.match(shown.html, /FAQ \(edited\)/, 'the merge changed the FAQ');
  assert.is((await reader.get(`/app/s/${space.id}/r/${'0'.repeat(40)}`)).status, 404);

  // A page's history: the commits that changed its file, as git log --first-parent -- <file> lists them.
  const faq = (await t.call('GET', `/v1/spaces/${space.id}/content/path/faq`, { token: fx.admin.token })).body;
  const pageShown = await reader.get(`/app/s/${space.id}/p/${faq.id}`);
  assert.match(pageShown.html, `<a href="/app/s/${space.id}/p/${faq.id}/history">History of FAQ</a>`);
  const pageHistory = await reader.get(`/app/s/${space.id}/p/${faq.id}/history`);
  assert.is(pageHistory.status, 200);
  assert.match(pageHistory.html, '<h1>History of FAQ</h1>');
  const listed = (pageHistory.html.match(/<li><a href="\/app\/s\/[^"]+\/r\/([0-9a-f]{40})">/g) ?? []).map((link) => /r\/([0-9a-f]{40})/.exec(link)![1]);
  const faqFile = gitValue(spaceGitdir(t.dataDir, space.id), 'ls-tree', '-r', '--name-only', 'main')
    .split('\n')
    .find((file) => /faq\.md$/i.test(file))!;
  const gitPageLog = gitValue(spaceGitdir(t.dataDir, space.id), 'log', '--first-parent', '--format=%H', 'main', '--', faqFile).split('\n').filter(Boolean);
  assert.equal(listed, gitPageLog, `the commits that changed ${faqFile}`);
  assert.is((await reader.get(`/app/s/${space.id}/p/nope/history`)).status, 404);
});

test('a docs site: listed, opened at its urls.app, published and unpublished by an admin’s form, and not by a reader', async () => {
  const made = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Handbook site', visibility: 'public', spaces: [space.id] } })).body;
  const path = new URL(made.urls.app).pathname;
  assert.is(path, `/app/o/${fx.org.id}/sites/${made.id}`);
  const reader = new Browser(t.url);
  await signIn(reader, fx.reader.email);
  assert.match((await reader.get(`/app/o/${fx.org.id}/sites`)).html, new RegExp(`<a href="${path}">Handbook site</a>`));
  const readerView = await reader.get(path);
  assert.match(readerView.html, /Not published · public/);
  assert.not.match(readerView.html, />Publish</, 'a reader is offered no Publish');
  assert.is((await reader.post(`${path}/publish`, { csrf: Browser.field(readerView.html, 'csrf') })).status, 403);

  const admin = new Browser(t.url);
  await signIn(admin, fx.admin.email);
  const adminView = await admin.get(path);
  assert.match(adminView.html, /<button type="submit" class="primary">Publish<\/button>/);
  assert.is((await admin.post(`${path}/publish`, { csrf: Browser.field(adminView.html, 'csrf') })).status, 303);
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/sites/${made.id}`, { token: fx.admin.token })).body.published, true);
  const published = await admin.get(path);
  const url = /Read it at <a href="([^"]+)">/.exec(published.html)?.[1];
  assert.ok(url);
  assert.is((await fetch(url!)).status, 200, 'the published site answers');
  assert.match(published.html, />Unpublish</);
  assert.is((await admin.post(`${path}/unpublish`, { csrf: Browser.field(published.html, 'csrf') })).status, 303);
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/sites/${made.id}`, { token: fx.admin.token })).body.published, false);
});

test('home: recent change requests and a search of the organization; an OpenAPI specification opens at its urls.app', async () => {
  const created = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Fresh idea' } })).body;
  const reader = new Browser(t.url);
  await signIn(reader, fx.reader.email);
  const home = await reader.get('/app/');
  assert.match(home.html, '<h2 id="recent-title">Recent change requests</h2>');
  assert.match(home.html, `<a href="${new URL(created.urls.app).pathname}">Fresh idea</a>`);
  assert.match(home.html, new RegExp(`<form method="get" action="/app/o/${fx.org.id}/search" class="inline search" role="search"><label for="search-${fx.org.id}">Search Acme Docs</label>`));

  const found = await reader.get(`/app/o/${fx.org.id}/search?q=${encodeURIComponent('quick start')}`);
  assert.is(found.status, 200);
  assert.match(found.html, /<ol class="results"><li><a href="\/app\/s\/[^"]+\/p\/[^"]+">/);
  assert.match(found.html, new RegExp(`in <a href="/app/s/${space.id}">Handbook</a>`));
  assert.match((await reader.get(`/app/o/${fx.org.id}/search?q=zzzqqqnothing`)).html, 'No page matches every word.');
  const outsider = new Browser(t.url);
  await signIn(outsider, fx.outsider.email);
  assert.is((await outsider.get(`/app/o/${fx.org.id}/search?q=quick`)).status, 404, 'another organization’s search is not found');

  const spec = 'openapi: 3.0.0\ninfo: { title: Pets, version: "1" }\npaths: {}\n';
  const put = await t.call('PUT', `/v1/orgs/${fx.org.id}/openapi/pets`, { token: fx.admin.token, body: { source: { text: spec } } });
  assert.is(put.status, 201);
  const page = await reader.get(new URL(put.body.urls.app).pathname);
  assert.is(page.status, 200);
  assert.match(page.html, '<h1>pets</h1>');
  assert.match(page.html, 'uploaded text');
});

test('collections: the home page shows them as a tree with their spaces, and a collection opens at its urls.app', async () => {
  const collection = (await t.call('POST', `/v1/orgs/${fx.org.id}/collections`, { token: fx.admin.token, body: { title: 'Guides' } })).body;
  const inside = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Install guide', parent: collection.id } })).body;
  const reader = new Browser(t.url);
  await signIn(reader, fx.reader.email);
  const home = await reader.get('/app/');
  const path = new URL(collection.urls.app).pathname;
  assert.match(home.html, new RegExp(`<li><a href="${path}" class="collection">Guides</a><ul class="tree-list"><li><a href="/app/s/${inside.id}">Install guide</a></li></ul></li>`));
  const opened = await reader.get(path);
  assert.is(opened.status, 200);
  assert.match(opened.html, /<h1>Guides<\/h1>/);
  assert.match(opened.html, new RegExp(`<a href="/app/s/${inside.id}">Install guide</a>`));
  assert.not.match(opened.html, />Handbook</, 'only what the collection holds');
  const outsider = new Browser(t.url);
  await signIn(outsider, fx.outsider.email);
  assert.is((await outsider.get(path)).status, 404);
});

test('a change request behind main is updated from it by form; one no longer wanted is archived', async () => {
  const created = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Later' } })).body;
  const base = `/v1/spaces/${space.id}/change-requests/${created.id}`;
  // Main moves on: another change request merged through the API.
  const other = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Sooner' } })).body;
  const quickStart = (await t.call('GET', `/v1/spaces/${space.id}/change-requests/${other.id}/content/path/quick-start`, { token: fx.editor.token })).body;
  const edited = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${other.id}/content`, {
    token: fx.editor.token,
    body: { changes: [{ operation: 'update_page', page: quickStart.id, document: { markdown: 'Start sooner.\n' } }] },
  });
  assert.is(edited.status, 200);
  assert.is((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${other.id}/merge`, { token: fx.admin.token })).status, 200);
  const path = new URL(created.urls.app).pathname;
  const admin = new Browser(t.url);
  await signIn(admin, fx.admin.email);
  const behind = await admin.get(path);
  assert.match(behind.html, /main has moved on since it branched/);
  assert.match(behind.html, />Update from main</);
  assert.is((await admin.post(`${path}/update`, { csrf: Browser.field(behind.html, 'csrf') })).status, 303);
  const updated = await admin.get(path);
  assert.not.match(updated.html, /main has moved on/);
  assert.not.match(updated.html, />Update from main</);
  assert.is((await admin.post(`${path}/archive`, { csrf: Browser.field(updated.html, 'csrf') })).status, 303);
  assert.is((await t.call('GET', base, { token: fx.admin.token })).body.status, 'archived');
  assert.match((await admin.get(path)).html, /#\d+ · Archived/);
});

test('signing out ends the session on the server: the old cookie no longer opens anything', async () => {
  const browser = new Browser(t.url);
  await signIn(browser, fx.reader.email);
  const stolen = browser.cookies.get('quire_session')!;
  const out = await browser.post('/app/sign-out', { csrf: Browser.field((await browser.get('/app/')).html, 'csrf') });
  assert.is(out.status, 303);
  assert.is(out.location, '/app/sign-in');
  const replay = new Browser(t.url);
  replay.cookies.set('quire_session', stolen);
  const after = await replay.get('/app/');
  assert.is(after.status, 302);
  assert.match(after.location ?? '', /^\/app\/sign-in/);
});

test('a new password ends every session of the user', async () => {
  const browser = new Browser(t.url);
  await signIn(browser, fx.outsider.email);
  assert.is((await browser.get('/app/')).status, 200);
  const set = await runAdmin(['user', 'password', '--email', fx.outsider.email], { DATA_DIR: t.dataDir }, { stdin: 'a brand new passphrase\n' });
  assert.is(set.code, 0, set.stderr);
  // Another process wrote: this server's read cache learns of it within 100 ms.
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.is((await browser.get('/app/')).status, 302);
});

test.run();
