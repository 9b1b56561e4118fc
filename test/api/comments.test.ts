import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { markSpaceDeleted, purgeDeletedSpaceRows } from '../../storage/spaceDeletion.js';
import { acceptInvitation, assertErrorIs, assertGuarded, type OrganizationFixture, type Person } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

const test = suite('space comments');
let t: TestServer;
let fx: OrganizationFixture;
/** A member with the comment role: the lowest that may post. */
let commenter: Person;
let space: { id: string; urls: { location: string } };
let pages: { quickStart: string; faq: string };
let comments: string;
withOrganization(test, (setup) => ({ t, fx } = setup));

test.before(async () => {
  commenter = { ...(await t.user()) };
  assert.is((await t.call('POST', `/v1/orgs/${fx.org.id}/invites`, { token: fx.admin.token, body: { emails: [{ email: commenter.email, role: 'comment' }] } })).status, 200);
  await acceptInvitation(t, fx.org.id, commenter);
  space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Discussed', template: { id: 'getting-started' } } })).body;
  const listed = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.admin.token })).body.pages as Array<{ id: string; title: string }>;
  const byTitle = (title: string) => {
    const found = listed.find((page) => page.title === title);
    if (!found) throw new Error(`the template has no page ${title}`);
    return found.id;
  };
  pages = { quickStart: byTitle('Quick start'), faq: byTitle('FAQ') };
  comments = `/v1/spaces/${space.id}/comments`;
});

const post = (who: Person, body: Record<string, unknown>) => t.call('POST', comments, { token: who.token, body });

test('POST comments on the space, a page and a block node; the target says where, at which revision', async () => {
  const revision = (await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.admin.token })).body.revision;
  const onSpace = await post(commenter, { body: { markdown: 'Who owns **this** space?' } });
  assert.is(onSpace.status, 200);
  assert.is(onSpace.body.object, 'comment');
  assert.equal(onSpace.body.target, { space: space.id, revision });
  assert.equal(onSpace.body.body, { markdown: 'Who owns **this** space?' });
  assert.is(onSpace.body.postedBy.id, commenter.id);
  assert.is(onSpace.body.status, 'open');
  assert.is(onSpace.body.replies, 0);
  assert.equal(onSpace.body.repliers, []);
  assert.equal(onSpace.body.reactions, []);
  assert.is(onSpace.body.urls.location, `${space.urls.location}/comments/${onSpace.body.id}`);
  assert.equal(onSpace.body.permissions, { view: true, edit: true, reply: true, delete: true });

  const onNode = await post(fx.editor, { page: pages.quickStart, node: 'block-7', body: { markdown: 'Typo here' } });
  assert.equal(onNode.body.target, { space: space.id, revision, page: { id: pages.quickStart }, node: { id: 'block-7' } });
  const onCell = await post(fx.editor, { page: pages.faq, tableCell: { record: 'r1', definition: 'd1' }, body: { markdown: 'Cell' } });
  assert.equal(onCell.body.target.tableCell, { record: 'r1', definition: 'd1' });

  const document = {
    object: 'document',
    data: {},
    nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'From a document', marks: [] }] }] }],
  };
  const fromDocument = await post(fx.admin, { page: pages.faq, body: { document } });
  assert.equal(fromDocument.body.body, { markdown: 'From a document' });
  const asDocument = await t.call('GET', `${comments}/${fromDocument.body.id}?format=document`, { token: fx.admin.token });
  assert.equal(asDocument.body.body, { document });
  const markdownAsDocument = await t.call('GET', `${comments}/${onNode.body.id}?format=document`, { token: fx.reader.token });
  assert.is(markdownAsDocument.body.body.document.nodes[0].type, 'paragraph');

  const rich = '# Steps\n\n- install\n- run `quire`\n\nThen **done**.';
  const richAsDocument = (await t.call('GET', `${comments}/${(await post(commenter, { body: { markdown: rich } })).body.id}?format=document`, { token: commenter.token })).body.body;
  assert.is((await post(commenter, { body: richAsDocument })).body.body.markdown, rich, 'a Document reads back as the markdown it came from');

  assertErrorIs(await post(commenter, { page: 'noSuchPage', body: { markdown: 'x' } }), 400, '"page" noSuchPage is not a page of the space');
  assertErrorIs(await post(commenter, { node: 'block-1', body: { markdown: 'x' } }), 400, 'A comment on a block node needs the "page" it is on');
  assertErrorIs(await post(commenter, { body: { markdown: '  \n' } }), 400, 'A comment needs some text: its body is empty');
  assertErrorIs(await post(commenter, { body: {} }), 400, 'Invalid request body: "body" must have at least 1 field');
  assertErrorIs(await post(commenter, { body: { markdown: 'a', document } }), 400, 'Invalid request body: "body" must NOT have more than 1 properties');
  assertErrorIs(await post(commenter, {}), 400, 'Invalid request body: "body" is required');
  await assertGuarded(t, fx, 'POST', comments, { body: { body: { markdown: 'x' } }, tooLow: { who: fx.reader, message: 'This operation needs the comment role on the space; you have read' } });
  await assertGuarded(t, fx, 'GET', comments);
});

test('GET comments lists newest first, filters by status, page and authors, and pages through', async () => {
  const local = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Listed', template: { id: 'getting-started' } } })).body;
  const path = `/v1/spaces/${local.id}/comments`;
  const page = (await t.call('GET', `/v1/spaces/${local.id}/content/pages`, { token: fx.admin.token })).body.pages[0].id;
  const posted: string[] = [];
  for (const [who, target] of [
    [commenter, {}],
    [fx.editor, { page }],
    [commenter, { page }],
    [fx.admin, {}],
  ] as const) {
    posted.push((await t.call('POST', path, { token: who.token, body: { ...target, body: { markdown: `comment ${posted.length}` } } })).body.id);
  }
  const ids = async (query: string) => ((await t.call('GET', `${path}${query}`, { token: fx.reader.token })).body.items as Array<{ id: string }>).map((item) => item.id);
  assert.equal(await ids(''), [...posted].reverse());
  assert.equal(await ids('?order=asc'), posted);
  assert.equal(await ids(`?targetPage=${page}&order=asc`), [posted[1], posted[2]]);
  assert.equal(await ids(`?authors=${commenter.id}&order=asc`), [posted[0], posted[2]]);
  assert.equal(await ids(`?authors=${commenter.id}&authors=${fx.admin.id}&order=asc`), [posted[0], posted[2], posted[3]]);

  assert.is((await t.call('PUT', `${path}/${posted[1]}`, { token: fx.editor.token, body: { resolved: true } })).status, 200);
  assert.equal(await ids('?status=resolved'), [posted[1]]);
  assert.equal(await ids('?status=open&order=asc'), [posted[0], posted[2], posted[3]]);
  assert.equal(await ids('?status=all&order=asc'), posted);
  assert.is((await t.call('GET', `/v1/spaces/${local.id}`, { token: fx.reader.token })).body.comments, 3, 'the space counts its open comments');

  const first = await t.call('GET', `${path}?limit=3&order=asc`, { token: fx.reader.token });
  assert.is(first.body.count, 4);
  const second = await t.call('GET', `${path}?limit=3&order=asc&page=${first.body.next.page}`, { token: fx.reader.token });
  assert.equal(
    [...first.body.items, ...second.body.items].map((item: { id: string }) => item.id),
    posted,
  );
  assert.is(second.body.next, undefined);

  const markdown = await t.call('GET', `${path}?format=markdown&limit=1`, { token: fx.reader.token });
  assert.equal(markdown.body.items[0].body, { markdown: 'comment 3' });
  assertErrorIs(await t.call('GET', `${path}?status=closed`, { token: fx.reader.token }), 400, 'Invalid query parameter: "status" must be one of "all", "open", "resolved"');
});

test('PUT edits the body (author or admin), resolves and reopens, and keeps reactions per emoji with who and when', async () => {
  const comment = (await post(commenter, { body: { markdown: 'First draft' } })).body;
  const path = `${comments}/${comment.id}`;
  const edited = await t.call('PUT', path, { token: commenter.token, body: { body: { markdown: 'Second draft' } } });
  assert.equal(edited.body.body, { markdown: 'Second draft' });
  assert.ok(edited.body.editedAt >= comment.postedAt);
  assertErrorIs(await t.call('PUT', path, { token: fx.editor.token, body: { body: { markdown: 'Hijack' } } }), 403, 'Only its author or an admin of the space may edit a comment');
  assert.equal((await t.call('PUT', path, { token: fx.admin.token, body: { body: { markdown: 'Moderated' } } })).body.body, { markdown: 'Moderated' });

  const resolved = await t.call('PUT', path, { token: fx.editor.token, body: { resolved: true } });
  assert.is(resolved.body.status, 'resolved');
  assert.is(resolved.body.resolvedBy.id, fx.editor.id);
  assert.type(resolved.body.resolvedAt, 'string');
  const again = await t.call('PUT', path, { token: fx.admin.token, body: { resolved: true } });
  assert.is(again.body.resolvedBy.id, fx.editor.id, 'resolving a resolved comment keeps who resolved it');
  const reopened = await t.call('PUT', path, { token: commenter.token, body: { resolved: false } });
  assert.is(reopened.body.status, 'open');
  assert.is(reopened.body.resolvedAt, undefined);
  assert.is(reopened.body.resolvedBy, undefined);
  const other = (await post(fx.editor, { body: { markdown: 'Not yours' } })).body;
  assertErrorIs(await t.call('PUT', `${comments}/${other.id}`, { token: commenter.token, body: { resolved: true } }), 403, "Resolving someone else's comment needs the edit role on the space");

  assert.is((await t.call('PUT', path, { token: commenter.token, body: { addedReactions: ['👍', '🎉'] } })).status, 200);
  assert.is((await t.call('PUT', path, { token: fx.editor.token, body: { addedReactions: ['1f44d'] } })).status, 200);
  const reacted = await t.call('PUT', path, { token: fx.admin.token, body: { addedReactions: ['👍'] } });
  const thumbs = reacted.body.reactions.find((reaction: { emoji: string }) => reaction.emoji === '👍');
  assert.is(thumbs.count, 3);
  assert.equal(
    thumbs.users.map((entry: { user: { id: string } }) => entry.user.id),
    [commenter.id, fx.editor.id, fx.admin.id],
  );
  assert.type(thumbs.users[0].reactedAt, 'string');
  assert.equal(
    reacted.body.reactions.map((reaction: { emoji: string; count: number }) => [reaction.emoji, reaction.count]),
    [
      ['👍', 3],
      ['🎉', 1],
    ],
  );
  const removed = await t.call('PUT', path, { token: commenter.token, body: { removedReactions: ['👍', '🎉', '🚀'] } });
  assert.equal(
    removed.body.reactions.map((reaction: { emoji: string; count: number }) => [reaction.emoji, reaction.count]),
    [['👍', 2]],
  );
  assert.is(removed.body.editedAt, reopened.body.editedAt, 'reactions are no edit');
  assertErrorIs(await t.call('PUT', path, { token: commenter.token, body: { addedReactions: ['thumbs'] } }), 400, 'Reaction "thumbs" is not an emoji');
  assertErrorIs(await t.call('PUT', path, { token: commenter.token, body: { addedReactions: ['👍'], removedReactions: ['👍'] } }), 400, 'Reaction 👍 is both added and removed');
  assertErrorIs(await t.call('PUT', path, { token: fx.reader.token, body: { addedReactions: ['👍'] } }), 403, 'This operation needs the comment role on the space; you have read');
  assertErrorIs(await t.call('PUT', `${comments}/nope`, { token: fx.admin.token, body: { addedReactions: ['thumbs'] } }), 404, 'Comment nope not found in the space', 'missing before invalid');
});

test('permissions follow the caller: authors edit and delete their own, admins any, readers only view', async () => {
  const comment = (await post(commenter, { body: { markdown: 'Mine' } })).body;
  const as = async (who: Person) => (await t.call('GET', `${comments}/${comment.id}`, { token: who.token })).body.permissions;
  assert.equal(await as(commenter), { view: true, edit: true, reply: true, delete: true });
  assert.equal(await as(fx.editor), { view: true, edit: false, reply: true, delete: false });
  assert.equal(await as(fx.admin), { view: true, edit: true, reply: true, delete: true });
  assert.equal(await as(fx.reader), { view: true, edit: false, reply: false, delete: false });
});

test('replies: post, read, list oldest first, edit, react, delete; the comment counts replies and repliers', async () => {
  const comment = (await post(fx.editor, { body: { markdown: 'Question' } })).body;
  const replies = `${comments}/${comment.id}/replies`;
  const first = await t.call('POST', replies, { token: commenter.token, body: { body: { markdown: 'Answer one' } } });
  assert.is(first.status, 200);
  assert.is(first.body.object, 'comment-reply');
  assert.is(first.body.urls.location, `${space.urls.location}/comments/${comment.id}/replies/${first.body.id}`);
  assert.equal(first.body.permissions, { view: true, edit: true, reply: true, delete: true });
  const second = (await t.call('POST', replies, { token: commenter.token, body: { body: { markdown: 'Answer two' } } })).body;
  const third = (await t.call('POST', replies, { token: fx.admin.token, body: { body: { markdown: 'Answer three' } } })).body;

  const read = await t.call('GET', `${comments}/${comment.id}`, { token: fx.reader.token });
  assert.is(read.body.replies, 3);
  // Who commented in the space: posters of comments and of replies, each once, as members.
  const commenters = await t.call('GET', `/v1/spaces/${space.id}/commenters`, { token: fx.reader.token });
  assert.is(commenters.status, 200);
  const ids = commenters.body.items.map((member: { id: string }) => member.id);
  assert.ok(
    [fx.editor.id, commenter.id, fx.admin.id].every((id) => ids.includes(id)),
    JSON.stringify(ids),
  );
  assert.is(new Set(ids).size, ids.length);
  assert.not.ok(ids.includes(fx.reader.id), 'a reader who never commented is not listed');
  assert.equal(
    read.body.repliers.map((replier: { user: { id: string }; count: number }) => [replier.user.id, replier.count]),
    [
      [fx.admin.id, 1],
      [commenter.id, 2],
    ],
  );
  const listed = await t.call('GET', replies, { token: fx.reader.token });
  assert.equal(
    listed.body.items.map((item: { id: string }) => item.id),
    [first.body.id, second.id, third.id],
  );
  const paged = await t.call('GET', `${replies}?limit=2`, { token: fx.reader.token });
  assert.is(paged.body.count, 3);
  assert.is((await t.call('GET', `${replies}?limit=2&page=${paged.body.next.page}`, { token: fx.reader.token })).body.items[0].id, third.id);

  const got = await t.call('GET', `${replies}/${second.id}?format=document`, { token: fx.reader.token });
  assert.is(got.body.body.document.object, 'document');
  assert.equal(got.body.permissions, { view: true, edit: false, reply: false, delete: false });
  const edited = await t.call('PUT', `${replies}/${second.id}`, { token: commenter.token, body: { body: { markdown: 'Answer two, fixed' }, addedReactions: ['✅'] } });
  assert.equal(edited.body.body, { markdown: 'Answer two, fixed' });
  assert.type(edited.body.editedAt, 'string');
  assert.equal(edited.body.reactions[0].emoji, '✅');
  assertErrorIs(await t.call('PUT', `${replies}/${third.id}`, { token: commenter.token, body: { body: { markdown: 'no' } } }), 403, 'Only its author or an admin of the space may edit a reply');
  assertErrorIs(await t.call('DELETE', `${replies}/${third.id}`, { token: commenter.token }), 403, 'Only its author or an admin of the space may delete a reply');
  assertErrorIs(await t.call('POST', replies, { token: fx.reader.token, body: { body: { markdown: 'x' } } }), 403, 'This operation needs the comment role on the space; you have read');
  assertErrorIs(await t.call('POST', `${comments}/nope/replies`, { token: commenter.token, body: { body: { markdown: ' ' } } }), 404, 'Comment nope not found in the space');
  assertErrorIs(await t.call('PUT', `${replies}/nope`, { token: commenter.token, body: { removedReactions: ['x'] } }), 404, `Reply nope not found in comment ${comment.id}`);
  assertErrorIs(await t.call('GET', `${replies}/nope`, { token: commenter.token }), 404, `Reply nope not found in comment ${comment.id}`);

  assert.is((await t.call('DELETE', `${replies}/${first.body.id}`, { token: commenter.token })).status, 204);
  assert.is((await t.call('DELETE', `${replies}/${third.id}`, { token: fx.admin.token })).status, 204);
  assert.is((await t.call('DELETE', `${replies}/${third.id}`, { token: fx.admin.token })).status, 204, 'a reply already gone: 204 too');
  const after = await t.call('GET', `${comments}/${comment.id}`, { token: fx.reader.token });
  assert.is(after.body.replies, 1);
  assert.equal(
    after.body.repliers.map((replier: { user: { id: string }; count: number }) => [replier.user.id, replier.count]),
    [[commenter.id, 1]],
  );
});

test('concurrent reactions and replies are all counted', async () => {
  const comment = (await post(commenter, { body: { markdown: 'Popular' } })).body;
  const people = [commenter, fx.editor, fx.admin, fx.creator];
  await Promise.all(
    people.flatMap((who) => [
      t.call('PUT', `${comments}/${comment.id}`, { token: who.token, body: { addedReactions: ['🔥'] } }),
      t.call('POST', `${comments}/${comment.id}/replies`, { token: who.token, body: { body: { markdown: 'Yes' } } }),
      t.call('POST', `${comments}/${comment.id}/replies`, { token: who.token, body: { body: { markdown: 'Indeed' } } }),
    ]),
  );
  const read = (await t.call('GET', `${comments}/${comment.id}`, { token: fx.reader.token })).body;
  assert.is(read.reactions[0].count, 4);
  assert.equal(read.reactions[0].users.map((entry: { user: { id: string } }) => entry.user.id).sort(), people.map((who) => who.id).sort());
  assert.is(read.replies, 8);
  assert.equal(
    read.repliers.map((replier: { count: number }) => replier.count),
    [2, 2, 2, 2],
  );
});

test('DELETE answers 204 whether or not the comment was there; only its author or an admin deletes it, replies with it', async () => {
  const comment = (await post(commenter, { body: { markdown: 'Short-lived' } })).body;
  assert.is((await t.call('POST', `${comments}/${comment.id}/replies`, { token: fx.editor.token, body: { body: { markdown: 'Reply' } } })).status, 200);
  const path = `${comments}/${comment.id}`;
  assertErrorIs(await t.call('DELETE', path, { token: fx.editor.token }), 403, 'Only its author or an admin of the space may delete a comment');
  assertErrorIs(await t.call('DELETE', path, { token: fx.reader.token }), 403, 'This operation needs the comment role on the space; you have read');
  const deleted = await t.call('DELETE', path, { token: commenter.token });
  assert.is(deleted.status, 204);
  assert.is(deleted.body, undefined);
  assertErrorIs(await t.call('GET', path, { token: commenter.token }), 404, `Comment ${comment.id} not found in the space`);
  assert.is((await t.call('DELETE', path, { token: commenter.token })).status, 204);
  assert.is((await t.call('DELETE', `${comments}/neverThere`, { token: commenter.token })).status, 204);
  const replies = await t.server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM comment_replies WHERE comment_id = ?', [comment.id]);
  assert.is(replies?.n, 0, 'its replies went with it');

  const byAdmin = (await post(fx.editor, { body: { markdown: 'Moderated away' } })).body;
  assert.is((await t.call('DELETE', `${comments}/${byAdmin.id}`, { token: fx.admin.token })).status, 204);
});

test('a space comment is not found under another space; a purged space takes its comments with it', async () => {
  const other = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Short-lived' } })).body;
  const comment = (await t.call('POST', `/v1/spaces/${other.id}/comments`, { token: fx.admin.token, body: { body: { markdown: 'Soon gone' } } })).body;
  assert.is((await t.call('POST', `${comments.replace(space.id, other.id)}/${comment.id}/replies`, { token: fx.admin.token, body: { body: { markdown: 'Me too' } } })).status, 200);
  assert.is((await t.call('PUT', `/v1/spaces/${other.id}/comments/${comment.id}`, { token: fx.admin.token, body: { addedReactions: ['👋'] } })).status, 200);
  assertErrorIs(await t.call('GET', `${comments}/${comment.id}`, { token: fx.admin.token }), 404, `Comment ${comment.id} not found in the space`);

  for (const table of ['comment_replies', 'comment_reactions']) {
    const made = await t.server.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE comment_id = ?`, [comment.id]);
    assert.is(made?.n, 1, `the comment has its row in ${table} before the purge`);
  }
  const deletedAt = new Date().toISOString();
  assert.ok(await markSpaceDeleted(t.server.db, other.id, deletedAt));
  assert.is(await purgeDeletedSpaceRows(t.server.db, other.id, deletedAt), 'purged');
  for (const table of ['comments', 'comment_replies', 'comment_reactions']) {
    const row = await t.server.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`);
    const left = await t.server.db.get<{ n: number }>(
      table === 'comments' ? 'SELECT COUNT(*) AS n FROM comments WHERE space_id = ?' : `SELECT COUNT(*) AS n FROM ${table} WHERE comment_id NOT IN (SELECT id FROM comments)`,
      table === 'comments' ? [other.id] : [],
    );
    assert.is(left?.n, 0, `${table} of the purged space are gone (${row?.n} rows of other spaces remain)`);
  }
});

test.run();
