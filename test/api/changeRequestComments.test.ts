import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, assertGuarded, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('change request comments');
let t: TestServer;
let fx: OrganizationFixture;
let space: { id: string };
let changeRequest: { id: string; number: number; revision: string; urls: { location: string } };
let page: string;
withOrganization(test, (setup) => ({ t, fx } = setup));

test.before(async () => {
  space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Reviewed', template: { id: 'getting-started' } } })).body;
  changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Rework the FAQ' } })).body;
  page = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.admin.token })).body.pages[0].id;
});

const byNumber = () => `/v1/spaces/${space.id}/change-requests/${changeRequest.number}/comments`;
const byId = () => `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/comments`;
const openCount = async () => (await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`, { token: fx.reader.token })).body.comments;
const spaceCount = async () => (await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.reader.token })).body.comments;

test('comments of a change request: by its id or number, against its branch, apart from the space’s own', async () => {
  const posted = await t.call('POST', byNumber(), { token: fx.editor.token, body: { page, body: { markdown: 'Should this page move?' } } });
  assert.is(posted.status, 200);
  assert.equal(posted.body.target, { space: space.id, revision: changeRequest.revision, changeRequest: changeRequest.id, page: { id: page } });
  assert.is(posted.body.urls.location, `${changeRequest.urls.location}/comments/${posted.body.id}`);
  const onSpace = (await t.call('POST', `/v1/spaces/${space.id}/comments`, { token: fx.editor.token, body: { body: { markdown: 'On the space' } } })).body;

  assert.equal(
    (await t.call('GET', byId(), { token: fx.reader.token })).body.items.map((item: { id: string }) => item.id),
    [posted.body.id],
  );
  assert.equal(
    (await t.call('GET', `/v1/spaces/${space.id}/comments`, { token: fx.reader.token })).body.items.map((item: { id: string }) => item.id),
    [onSpace.id],
  );
  assert.is((await t.call('GET', `${byId()}/${posted.body.id}`, { token: fx.reader.token })).body.body.markdown, 'Should this page move?');
  // Who commented: in the change request, its commenter; the space's own commenters apart.
  await t.call('POST', `${byId()}/${posted.body.id}/replies`, { token: fx.admin.token, body: { body: { markdown: 'Yes' } } });
  const commenters = await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/commenters`, { token: fx.reader.token });
  assert.equal(commenters.body.items.map((member: { id: string }) => member.id).sort(), [fx.editor.id, fx.admin.id].sort());
  assert.equal(
    (await t.call('GET', `/v1/spaces/${space.id}/commenters`, { token: fx.reader.token })).body.items.map((member: { id: string }) => member.id),
    [fx.editor.id],
  );
  assertErrorIs(await t.call('GET', `${byId()}/${onSpace.id}`, { token: fx.reader.token }), 404, `Comment ${onSpace.id} not found in the change request`);
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.id}/comments/${posted.body.id}`, { token: fx.reader.token }), 404, `Comment ${posted.body.id} not found in the space`);
  assertErrorIs(await t.call('GET', `/v1/spaces/${space.id}/change-requests/99/comments`, { token: fx.reader.token }), 404, `Change request 99 in space ${space.id} not found`);
  assertErrorIs(await t.call('POST', byId(), { token: fx.editor.token, body: { page: 'gone', body: { markdown: 'x' } } }), 400, '"page" gone is not a page of the change request');
  await assertGuarded(t, fx, 'POST', byId(), { body: { body: { markdown: 'x' } }, tooLow: { who: fx.reader, message: 'This operation needs the comment role on the space; you have read' } });

  assert.is(await openCount(), 1, 'the change request counts its open comments');
  assert.is(await spaceCount(), 1, 'the space counts its own only');
  const resolved = await t.call('PUT', `${byNumber()}/${posted.body.id}`, { token: fx.editor.token, body: { resolved: true, addedReactions: ['👀'] } });
  assert.is(resolved.body.status, 'resolved');
  assert.is(resolved.body.reactions[0].count, 1);
  assert.is(await openCount(), 0);
  assert.is(await spaceCount(), 1);
});

test('a page that exists only in the change request takes comments there, not on the space', async () => {
  const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`;
  const batch = await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'insert_page', title: 'Draft', document: { markdown: 'Not live yet\n' } }] } });
  assert.is(batch.status, 200, JSON.stringify(batch.body));
  type Page = { id: string; title: string; pages?: Page[] };
  const flat = (pages: Page[]): Page[] => pages.flatMap((one) => [one, ...flat(one.pages ?? [])]);
  const branchPages = (await t.call('GET', `${base}/content/pages`, { token: fx.reader.token })).body.pages as Page[];
  const draft = flat(branchPages).find((one) => one.title === 'Draft')?.id ?? '';
  assert.ok(draft, 'the page is on the branch');
  const head = (await t.call('GET', base, { token: fx.reader.token })).body.revision;
  const posted = await t.call('POST', byId(), { token: fx.editor.token, body: { page: draft, body: { markdown: 'Is this ready?' } } });
  assert.is(posted.status, 200);
  assert.is(posted.body.target.revision, head, 'posted against the branch head');
  assert.is.not(head, changeRequest.revision);
  assertErrorIs(await t.call('POST', `/v1/spaces/${space.id}/comments`, { token: fx.editor.token, body: { page: draft, body: { markdown: 'x' } } }), 400, `"page" ${draft} is not a page of the space`);
});

test('replies in a change request: post (with format), list, get, update, delete; delete answers 204 even when missing', async () => {
  const comment = (await t.call('POST', byId(), { token: fx.editor.token, body: { body: { markdown: 'Thread' } } })).body;
  const replies = `${byNumber()}/${comment.id}/replies`;
  const reply = await t.call('POST', `${replies}?format=document`, { token: fx.admin.token, body: { body: { markdown: 'Agreed' } } });
  assert.is(reply.status, 200);
  assert.is(reply.body.body.document.object, 'document');
  assert.is(reply.body.urls.location, `${changeRequest.urls.location}/comments/${comment.id}/replies/${reply.body.id}`);
  assert.equal(
    (await t.call('GET', replies, { token: fx.reader.token })).body.items.map((item: { id: string }) => item.id),
    [reply.body.id],
  );
  assert.is((await t.call('GET', `${replies}/${reply.body.id}`, { token: fx.reader.token })).body.body.markdown, 'Agreed');
  assert.is((await t.call('PUT', `${replies}/${reply.body.id}`, { token: fx.admin.token, body: { body: { markdown: 'Agreed, with one change' } } })).body.body.markdown, 'Agreed, with one change');
  const read = await t.call('GET', `${byId()}/${comment.id}`, { token: fx.reader.token });
  assert.is(read.body.replies, 1);
  assert.is(read.body.repliers[0].user.id, fx.admin.id);

  assert.is((await t.call('DELETE', `${replies}/${reply.body.id}`, { token: fx.admin.token })).status, 204);
  assert.is((await t.call('DELETE', `${replies}/${reply.body.id}`, { token: fx.admin.token })).status, 204);
  assert.is((await t.call('DELETE', `${byId()}/${comment.id}`, { token: fx.editor.token })).status, 204);
  assert.is((await t.call('DELETE', `${byId()}/${comment.id}`, { token: fx.editor.token })).status, 204);
  assertErrorIs(await t.call('GET', `${byId()}/${comment.id}`, { token: fx.reader.token }), 404, `Comment ${comment.id} not found in the change request`);
});

test.run();
