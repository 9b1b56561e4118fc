import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('change request reviews and merge rules');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
});

async function changeRequestIn(title: string, mergeRules?: unknown, author = fx.editor) {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title, template: { id: 'getting-started' } } })).body;
  if (mergeRules) assert.is((await t.call('PATCH', `/v1/spaces/${space.id}`, { token: fx.admin.token, body: { mergeRules } })).status, 200);
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: author.token, body: { subject: title } })).body;
  const url = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`;
  return { space, changeRequest, url };
}

const edit = async (url: string, title: string, token = fx.editor.token) => {
  const response = await t.call('POST', `${url}/content`, { token, body: { changes: [{ operation: 'insert_page', title, document: { markdown: `${title}\n` } }] } });
  assert.is(response.status, 200, JSON.stringify(response.body));
  return response.body.revision as string;
};

test('reviews are tied to the head they saw; a new request or review outdates the earlier ones', async () => {
  const { url } = await changeRequestIn('Reviewed');
  const requested = await t.call('POST', `${url}/requested-reviewers`, { token: fx.editor.token, body: { users: [fx.admin.id, fx.creator.id], subject: 'Please review' } });
  assert.is(requested.status, 200);
  assert.equal(requested.body.users.map((entry: { user: { id: string } }) => entry.user.id).sort(), [fx.admin.id, fx.creator.id].sort());
  assert.is(requested.body.users[0].requestedBy.id, fx.editor.id);
  assert.is((await t.call('GET', url, { token: fx.reader.token })).body.subject, 'Please review');
  assert.is((await t.call('GET', `${url}/requested-reviewers`, { token: fx.reader.token })).body.count, 2);
  const mine = await t.call('GET', `/v1/orgs/${fx.org.id}/change-requests?requestedReviewer=${fx.admin.id}`, { token: fx.admin.token });
  assert.ok(mine.body.items.some((item: { subject: string }) => item.subject === 'Please review'));

  const head = (await t.call('GET', url, { token: fx.reader.token })).body.revision;
  const review = await t.call('POST', `${url}/reviews`, { token: fx.admin.token, body: { status: 'changes-requested', comment: { markdown: 'Please add an example.' } } });
  assert.is(review.status, 201);
  assert.equal([review.body.status, review.body.revision, review.body.reviewer.id, review.body.requestedBy.id, review.body.outdated], ['changes-requested', head, fx.admin.id, fx.editor.id, false]);
  assert.is(review.body.comment.body.document.object, 'document');
  assert.is((await t.call('GET', `${url}/reviews/${review.body.id}?format=markdown`, { token: fx.reader.token })).body.comment.body.markdown, 'Please add an example.');
  assert.is(review.headers.get('location'), review.body.urls.location);
  assert.equal((await t.call('GET', `${url}/reviews/${review.body.id}?format=document`, { token: fx.reader.token })).body.id, review.body.id);
  assert.ok(
    (await t.call('GET', `${url}/comments`, { token: fx.reader.token })).body.items.some((comment: { id: string }) => comment.id === review.body.comment.id),
    'the review comment is a comment of the change request',
  );

  await edit(url, 'Example');
  const again = await t.call('POST', `${url}/reviews`, { token: fx.admin.token, body: { status: 'approved' } });
  assert.is(again.body.outdated, false);
  const reviews = await t.call('GET', `${url}/reviews`, { token: fx.reader.token });
  assert.equal(
    reviews.body.items.map((item: { status: string; outdated: boolean }) => [item.status, item.outdated]),
    [
      ['changes-requested', true],
      ['approved', false],
    ],
  );
  assert.is((await t.call('GET', `${url}/reviews?outdated=false`, { token: fx.reader.token })).body.count, 1);

  assertErrorIs(await t.call('POST', `${url}/reviews`, { token: fx.reader.token, body: { status: 'approved' } }), 403, 'This operation needs the review role on the space; you have read');
  assertErrorIs(await t.call('GET', `${url}/reviews/nope`, { token: fx.reader.token }), 404, 'Review nope not found in change request 1');
  assertErrorIs(
    await t.call('POST', `${url}/requested-reviewers`, { token: fx.editor.token, body: { users: [fx.outsider.id] } }),
    400,
    `"users": ${fx.outsider.id} is not a member of the organization`,
  );
  assertErrorIs(
    await t.call('POST', `${url}/requested-reviewers`, { token: fx.editor.token, body: { users: [fx.guest.id] } }),
    400,
    `"users": ${fx.guest.id} can't see this space, so can't review it`,
  );

  const removed = await t.call('DELETE', `${url}/requested-reviewers/${fx.creator.id}`, { token: fx.editor.token });
  assert.is(removed.status, 205);
  assert.is((await t.call('DELETE', `${url}/requested-reviewers/${fx.creator.id}`, { token: fx.editor.token })).status, 204);
  assert.is((await t.call('GET', `${url}/requested-reviewers`, { token: fx.reader.token })).body.count, 1);
});

test('contributors are who wrote to the branch, with how many writes', async () => {
  const { url } = await changeRequestIn('Contributed');
  await edit(url, 'One');
  await edit(url, 'Two');
  await edit(url, 'Three', fx.admin.token);
  const contributors = await t.call('GET', `${url}/contributors`, { token: fx.reader.token });
  assert.equal(
    contributors.body.items.map((item: { user: { id: string }; count: number; actionType: string }) => [item.user.id, item.count, item.actionType]),
    [
      [fx.admin.id, 1, 'edit'],
      [fx.editor.id, 2, 'edit'],
    ],
  );
});

test('merge rules: named approvals on the current head, one of, at least one, up to date, bypass', async () => {
  const rules = {
    type: 'rules',
    rules: [{ rule: 'require_specific_reviewers', users: [fx.admin.id] }, { rule: 'require_up_to_date_change_request' }, { rule: 'allow_bypass', users: [fx.creator.id] }],
  };
  const { url, space } = await changeRequestIn('Ruled', rules);
  await edit(url, 'Ruled page');
  const adminName = (await t.call('GET', `/v1/orgs/${fx.org.id}/members/${fx.admin.id}`, { token: fx.admin.token })).body.user.displayName;
  assertErrorIs(
    await t.call('POST', `${url}/merge`, { token: fx.editor.token }),
    403,
    `The merge is blocked by the rule require_specific_reviewers: waiting for the approval of ${adminName} on the current revision`,
  );
  await t.call('POST', `${url}/reviews`, { token: fx.admin.token, body: { status: 'approved' } });
  await edit(url, 'After the approval');
  assertErrorIs(
    await t.call('POST', `${url}/merge`, { token: fx.editor.token }),
    403,
    `The merge is blocked by the rule require_specific_reviewers: waiting for the approval of ${adminName} on the current revision`,
    'an approval of an older head does not count',
  );
  await t.call('POST', `${url}/reviews`, { token: fx.admin.token, body: { status: 'approved' } });
  await t.call('POST', `/v1/spaces/${space.id}/content/template`, { token: fx.admin.token, body: { id: 'getting-started' } });
  assertErrorIs(
    await t.call('POST', `${url}/merge`, { token: fx.editor.token }),
    403,
    'The merge is blocked by the rule require_up_to_date_change_request: the change request is behind the primary branch: update it first',
  );
  assert.is((await t.call('POST', `${url}/merge`, { token: fx.creator.token })).body.result, 'merge', 'allow_bypass lets its users merge');

  const inherited = await changeRequestIn('Inherited', {
    type: 'rules',
    rules: [{ rule: 'require_one_of_specific_reviewers', users: [fx.admin.id, fx.creator.id] }, { rule: 'require_at_least_one_review' }],
  });
  await edit(inherited.url, 'Page');
  assert.is((await t.call('POST', `${inherited.url}/merge`, { token: fx.editor.token })).status, 403);
  await t.call('POST', `${inherited.url}/reviews`, { token: fx.creator.token, body: { status: 'approved' } });
  assert.is((await t.call('POST', `${inherited.url}/merge`, { token: fx.editor.token })).body.result, 'merge');
});

test("the author's own approval is no review: it satisfies only a rule that names the author", async () => {
  // The author is a member who may review (role `create`).
  const { url } = await changeRequestIn('Self-approved', { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] }, fx.creator);
  await edit(url, 'Mine', fx.creator.token);
  assert.is((await t.call('POST', `${url}/reviews`, { token: fx.creator.token, body: { status: 'approved' } })).status, 201);
  assertErrorIs(
    await t.call('POST', `${url}/merge`, { token: fx.creator.token }),
    403,
    'The merge is blocked by the rule require_at_least_one_review: waiting for an approval by someone other than its author on the current revision',
  );
  assert.is((await t.call('GET', url, { token: fx.reader.token })).body.status, 'open', 'the refused merge changed nothing');
  await t.call('POST', `${url}/reviews`, { token: fx.admin.token, body: { status: 'approved' } });
  assert.is((await t.call('POST', `${url}/merge`, { token: fx.creator.token })).body.result, 'merge');

  const named = await changeRequestIn('Named author', { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [fx.creator.id] }] }, fx.creator);
  await edit(named.url, 'Named', fx.creator.token);
  await t.call('POST', `${named.url}/reviews`, { token: fx.creator.token, body: { status: 'approved' } });
  assert.is((await t.call('POST', `${named.url}/merge`, { token: fx.creator.token })).body.result, 'merge', 'a rule naming the author takes their approval');
});

test('a custom merge rule is an expression over the space, the change request, its reviews and the actor', async () => {
  const expression = 'changeRequest.subject.startsWith("[docs]") && (reviews.length > 0 || actor.email.endsWith("@example.com"))';
  const { url } = await changeRequestIn('Custom', { type: 'rules', rules: [{ rule: 'custom', expression }] });
  await edit(url, 'Custom page');
  assertErrorIs(await t.call('POST', `${url}/merge`, { token: fx.editor.token }), 403, `The merge is blocked by the rule custom: ${JSON.stringify(expression)} is false`);
  await t.call('PATCH', url, { token: fx.editor.token, body: { subject: '[docs] Custom' } });
  assert.is((await t.call('POST', `${url}/merge`, { token: fx.editor.token })).body.result, 'merge');

  const broken = await changeRequestIn('Broken', { type: 'rules', rules: [{ rule: 'custom', expression: 'process.exit(1)' }] });
  assertErrorIs(
    await t.call('POST', `${broken.url}/merge`, { token: fx.editor.token }),
    403,
    `The merge is blocked by the rule custom: its expression can't be evaluated: only the methods includes, startsWith, endsWith can be called`,
  );
  const unknown = await changeRequestIn('Unknown', { type: 'rules', rules: [{ rule: 'custom', expression: 'visitor.claims.x' }] });
  assertErrorIs(
    await t.call('POST', `${unknown.url}/merge`, { token: fx.editor.token }),
    403,
    `The merge is blocked by the rule custom: its expression can't be evaluated: unknown name "visitor": merge rules read space, changeRequest, reviews, actor`,
  );
});

test.run();
