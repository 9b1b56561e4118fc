import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { siteMaker } from '../helpers/sites.js';
import { withOrganization } from '../helpers/suite.js';

// getContentByUrl: the content an address of this Quire shows (the app's collections, spaces,
// change requests and pages, and published sites' pages), for a caller who reads it.
const test = suite('content by URL');
let t: TestServer;
let fx: OrganizationFixture;
const sites = siteMaker(() => ({ t, fx }));

withOrganization(test, (setup) => ({ t, fx } = setup));

const lookup = (url: string, token = fx.reader.token) => t.call('GET', `/v1/urls/content?url=${encodeURIComponent(url)}`, { token });

test('the app’s addresses name a space, a page, a change request and its pages, a collection', async () => {
  const space = await sites.space('Guide');
  const app = (await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.reader.token })).body.urls.app as string;
  const whole = await lookup(app);
  assert.is(whole.status, 200, JSON.stringify(whole.body));
  assert.is(whole.body.space.id, space.id);
  assert.is(whole.body.page, undefined);

  const pages = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ id: string; title: string; urls: { app: string } }>;
  const onePage = await lookup(pages[1]!.urls.app);
  assert.is(onePage.body.page.id, pages[1]!.id);
  assert.is(onePage.body.page.title, pages[1]!.title);

  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: 'New page' } })).body;
  await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
    token: fx.editor.token,
    body: { changes: [{ operation: 'insert_page', title: 'Only in the change request', document: { markdown: 'Draft.\n' } }] },
  });
  const inChangeRequest = (await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{
    id: string;
    title: string;
  }>;
  const drafted = inChangeRequest.find((page) => page.title === 'Only in the change request')!;
  const changeRequestApp = changeRequest.urls.app as string;
  const named = await lookup(changeRequestApp);
  assert.is(named.body.changeRequest.id, changeRequest.id);
  assert.is(named.body.space.id, space.id);
  const draftedPage = await lookup(`${changeRequestApp}/p/${drafted.id}`);
  assert.is(draftedPage.status, 200, JSON.stringify(draftedPage.body));
  assert.is(draftedPage.body.page.title, 'Only in the change request', 'read from the change request’s own content');
  assert.is((await lookup(`${app}/p/${drafted.id}`)).status, 404, 'not on the space’s primary content');

  const collection = (await t.call('POST', `/v1/orgs/${fx.org.id}/collections`, { token: fx.admin.token, body: { title: 'Shelf' } })).body;
  const shelf = await lookup(collection.urls.app);
  assert.is(shelf.body.collection.id, collection.id);
});

test('a published page names its space and page', async () => {
  const space = await sites.space('Published');
  const site = await sites.publishedSite('Docs', [space.id]);
  const pages = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ id: string; path: string }>;
  const home = await lookup(site.urls.published);
  assert.is(home.body.space.id, space.id);
  assert.is(home.body.page.id, pages[0]!.id, 'the site’s root is its first page');
  const second = await lookup(`${site.urls.published}${pages[1]!.path}`);
  assert.is(second.body.page.id, pages[1]!.id);
});

test('only what the caller reads; elsewhere and nonsense are clear errors', async () => {
  const closed = await sites.space('Closed');
  await t.call('PATCH', `/v1/spaces/${closed.id}`, { token: fx.admin.token, body: { defaultLevel: null } });
  const app = (await t.call('GET', `/v1/spaces/${closed.id}`, { token: fx.admin.token })).body.urls.app as string;
  assert.is((await lookup(app, fx.admin.token)).status, 200);
  assertErrorIs(await lookup(app, fx.reader.token), 404, `Space ${closed.id} not found`);
  assertErrorIs(await lookup(app, fx.outsider.token), 404, `Space ${closed.id} not found`);
  assertErrorIs(await lookup('https://elsewhere.example.com/app/s/abc'), 404, 'No content of this Quire is at https://elsewhere.example.com/app/s/abc');
  assert.is((await lookup(`${new URL(app).origin}/app/o/${fx.org.id}/settings`)).status, 404);
  assert.is((await t.call('GET', '/v1/urls/content?url=not%20a%20url', { token: fx.reader.token })).status, 400);
  assert.is((await t.call('GET', `/v1/urls/content?url=${encodeURIComponent(app)}`)).status, 401);
});

test.run();
