import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { assertErrorIs, assertGuarded, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';
import { gitOut as git } from '../helpers/gitClient.js';

const test = suite('change requests');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => {
  ({ t, fx } = setup);
});

async function newSpace(title = 'Handbook', template = 'getting-started') {
  const created = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title, template: { id: template } } });
  assert.is(created.status, 201);
  return created.body as { id: string; revision: string };
}

test('a change request is a branch from the primary head, readable after a clone', async () => {
  const space = await newSpace();
  const base = `/v1/spaces/${space.id}/change-requests`;
  const created = await t.call('POST', base, { token: fx.editor.token, body: { subject: 'Fix the install guide' } });
  assert.is(created.status, 201);
  const changeRequest = created.body;
  assert.is(changeRequest.number, 1);
  assert.is(changeRequest.status, 'open');
  assert.is(changeRequest.subject, 'Fix the install guide');
  assert.is(changeRequest.revision, space.revision, 'the branch starts at the primary head');
  assert.is(changeRequest.revisionInitial, space.revision);
  assert.is(changeRequest.outdated, false);
  assert.is(changeRequest.createdBy.id, fx.editor.id);
  assert.is(created.headers.get('location'), changeRequest.urls.location);

  const gitdir = spaceGitdir(t.dataDir, space.id);
  const clone = mkdtempSync(path.join(tmpdir(), 'quire-cr-clone-'));
  try {
    execFileSync('git', ['clone', '--quiet', gitdir, clone]);
    assert.ok(
      git(clone, 'branch', '-r')
        .split('\n')
        .map((line) => line.trim())
        .includes('origin/change-requests/1-fix-the-install-guide'),
      git(clone, 'branch', '-r'),
    );
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }

  const second = (await t.call('POST', base, { token: fx.editor.token, body: {} })).body;
  assert.is(second.number, 2);
  assert.is(second.subject, '');
  assert.is(git(gitdir, 'rev-parse', 'refs/heads/change-requests/2').trim(), space.revision);

  const byNumber = await t.call('GET', `${base}/1`, { token: fx.reader.token });
  const byId = await t.call('GET', `${base}/${changeRequest.id}`, { token: fx.reader.token });
  assert.equal(byNumber.body, byId.body, 'the id or the number finds the same change request');
  assert.equal(byId.body, changeRequest, 'the POST answers what a GET reads');
  assertErrorIs(await t.call('GET', `${base}/99`, { token: fx.reader.token }), 404, `Change request 99 not found in space ${space.id}`);
  assertErrorIs(await t.call('GET', `${base}/nope`, { token: fx.reader.token }), 404, `Change request nope not found in space ${space.id}`);

  await assertGuarded(t, fx, 'POST', base, { body: {}, tooLow: { who: fx.reader, message: 'This operation needs the edit role on the space; you have read' } });
  await assertGuarded(t, fx, 'GET', `${base}/1`);
  assertErrorIs(await t.call('POST', base, { token: fx.editor.token, body: { subject: 'x'.repeat(101) } }), 400, 'Invalid request body: "subject" must NOT have more than 100 characters');
  assertErrorIs(await t.call('POST', base, { token: fx.editor.token, body: { template: { id: 'nope' } } }), 400, 'Unknown template "nope"');
});

test('a template is the branch first commit; applyTemplateToSpace writes to a change request', async () => {
  const space = await newSpace('Templated', 'blank');
  const base = `/v1/spaces/${space.id}/change-requests`;
  const created = (await t.call('POST', base, { token: fx.editor.token, body: { subject: 'Start over', template: { id: 'getting-started' } } })).body;
  assert.is.not(created.revision, space.revision);
  const gitdir = spaceGitdir(t.dataDir, space.id);
  assert.is(git(gitdir, 'rev-parse', `${created.revision}^`).trim(), space.revision, 'one commit on top of the primary head');
  assert.is(git(gitdir, 'rev-parse', 'refs/heads/main').trim(), space.revision, 'the primary branch has not moved');
  assert.ok(git(gitdir, 'show', `${created.revision}:SUMMARY.md`).includes('Quick start'));

  const other = (await t.call('POST', base, { token: fx.editor.token, body: { subject: 'Applied later' } })).body;
  const applied = await t.call('POST', `/v1/spaces/${space.id}/content/template`, { token: fx.editor.token, body: { id: 'getting-started', changeRequestId: String(other.number) } });
  assert.is(applied.status, 201);
  const after = (await t.call('GET', `${base}/${other.id}`, { token: fx.editor.token })).body;
  assert.is.not(after.revision, space.revision);
  assert.is(git(gitdir, 'rev-parse', 'refs/heads/main').trim(), space.revision, 'the primary branch has not moved');
  assert.equal((await t.call('GET', `${base}?contributor=${fx.editor.id}`, { token: fx.editor.token })).body.items.map((item: { id: string }) => item.id).sort(), [created.id, other.id].sort());
  assertErrorIs(
    await t.call('POST', `/v1/spaces/${space.id}/content/template`, { token: fx.editor.token, body: { id: 'getting-started', changeRequestId: 'missing' } }),
    404,
    `Change request missing not found in space ${space.id}`,
  );
});

test('PATCH: subject, description, status transitions; nothing leaves merged', async () => {
  const space = await newSpace('Patched');
  const base = `/v1/spaces/${space.id}/change-requests`;
  const created = (await t.call('POST', base, { token: fx.editor.token, body: { subject: 'Draft it' } })).body;
  const url = `${base}/${created.id}`;
  const description = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why', marks: [] }] }] }] };
  const patched = await t.call('PATCH', url, { token: fx.editor.token, body: { subject: 'Renamed', description, status: 'draft' } });
  assert.is(patched.status, 200);
  assert.equal([patched.body.subject, patched.body.description, patched.body.status], ['Renamed', description, 'draft']);
  assert.equal((await t.call('GET', url, { token: fx.reader.token })).body, patched.body, 'the PATCH answers what a later GET reads');
  // A Document sent without `data` reads back with an empty one (the upstream shape requires it).
  const bare = { object: 'document', nodes: description.nodes };
  assert.equal((await t.call('PATCH', url, { token: fx.editor.token, body: { description: bare } })).body.description, { ...bare, data: {} });
  assert.is((await t.call('PATCH', url, { token: fx.editor.token, body: { description } })).status, 200);
  assertErrorIs(await t.call('PATCH', url, { token: fx.editor.token, body: { status: 'merged' } }), 400, 'Invalid request body: "status" must be one of "draft", "open", "archived"');
  assertErrorIs(await t.call('PATCH', url, { token: fx.editor.token, body: { subject: 'y'.repeat(101) } }), 400, 'Invalid request body: "subject" must NOT have more than 100 characters');
  assertErrorIs(await t.call('PATCH', url, { token: fx.reader.token, body: { subject: 'No' } }), 403, 'This operation needs the edit role on the space; you have read');

  const archived = await t.call('PATCH', url, { token: fx.editor.token, body: { status: 'archived' } });
  assert.is(archived.body.status, 'archived');
  assertErrorIs(
    await t.call('POST', `/v1/spaces/${space.id}/content/template`, { token: fx.editor.token, body: { id: 'blank', changeRequestId: created.id } }),
    409,
    'Change request 1 is archived: its content can no longer change',
  );
  assert.is((await t.call('PATCH', url, { token: fx.editor.token, body: { status: 'open' } })).body.status, 'open', 'an archived change request can be reopened');
});

test('lists filter by status, creator and requested reviewer, paginate, and the space counts stay true', async () => {
  const space = await newSpace('Listed');
  const base = `/v1/spaces/${space.id}/change-requests`;
  const made = [];
  for (const [who, subject] of [
    [fx.editor, 'one'],
    [fx.admin, 'two'],
    [fx.editor, 'three'],
  ] as const) {
    made.push((await t.call('POST', base, { token: who.token, body: { subject } })).body);
  }
  await t.call('PATCH', `${base}/${made[1].id}`, { token: fx.admin.token, body: { status: 'draft' } });

  const open = await t.call('GET', base, { token: fx.reader.token });
  assert.equal(
    open.body.items.map((item: { subject: string }) => item.subject),
    ['three', 'one'],
    'open by default, newest first',
  );
  assert.equal(
    (await t.call('GET', `${base}?status=draft`, { token: fx.reader.token })).body.items.map((item: { subject: string }) => item.subject),
    ['two'],
  );
  assert.equal((await t.call('GET', `${base}?creator=${fx.editor.id}`, { token: fx.reader.token })).body.count, 2);
  assert.equal((await t.call('GET', `${base}?requestedReviewer=${fx.reader.id}`, { token: fx.reader.token })).body.count, 0);
  assert.equal((await t.call('GET', `${base}?conversationsIssuesCluster=anything`, { token: fx.reader.token })).body.count, 0);

  const first = await t.call('GET', `${base}?limit=1`, { token: fx.reader.token });
  assert.is(first.body.items[0].subject, 'three');
  assert.is(first.body.count, 2);
  const next = await t.call('GET', `${base}?limit=1&page=${encodeURIComponent(first.body.next.page)}`, { token: fx.reader.token });
  assert.is(next.body.items[0].subject, 'one');
  assert.is(next.body.next, undefined);

  const counted = (await t.call('GET', `/v1/spaces/${space.id}`, { token: fx.reader.token })).body;
  assert.equal([counted.changeRequests, counted.changeRequestsOpen, counted.changeRequestsDraft], [3, 2, 1]);

  const inOrganization = await t.call('GET', `/v1/orgs/${fx.org.id}/change-requests?creator=${fx.admin.id}&status=draft`, { token: fx.reader.token });
  assert.equal(
    inOrganization.body.items.map((item: { id: string }) => item.id),
    [made[1].id],
  );
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/change-requests`, { token: fx.guest.token })).body.count, 0, 'a guest reaches no space, so none of their change requests');
  assertErrorIs(await t.call('GET', `${base}?status=closed`, { token: fx.reader.token }), 400, 'Invalid query parameter: "status" must be one of "draft", "open", "archived", "merged"');
});

test('outdated: the primary branch moved past the branch base', async () => {
  const space = await newSpace('Outdated');
  const base = `/v1/spaces/${space.id}/change-requests`;
  const created = (await t.call('POST', base, { token: fx.editor.token, body: { subject: 'Behind' } })).body;
  assert.is(created.outdated, false);
  await t.call('POST', `/v1/spaces/${space.id}/content/template`, { token: fx.editor.token, body: { id: 'blank' } });
  assert.is((await t.call('GET', `${base}/${created.id}`, { token: fx.editor.token })).body.outdated, true);
  const gitdir = spaceGitdir(t.dataDir, space.id);
  assert.ok(readFileSync(path.join(gitdir, 'HEAD'), 'utf8').includes('refs/heads/main'));
});

test('change requests opened at once in one space get distinct numbers, each with its branch', async () => {
  const space = await newSpace('Raced');
  const base = `/v1/spaces/${space.id}/change-requests`;
  const created = await Promise.all(Array.from({ length: 8 }, (_, index) => t.call('POST', base, { token: fx.editor.token, body: { subject: `Draft ${index}` } })));
  assert.ok(
    created.every((answer) => answer.status === 201),
    JSON.stringify(created.map((answer) => answer.body)),
  );
  assert.equal(
    created.map((answer) => answer.body.number).sort((a, b) => a - b),
    [1, 2, 3, 4, 5, 6, 7, 8],
  );
  for (const { body } of created) assert.is((await t.call('GET', `${base}/${body.number}`, { token: fx.reader.token })).body.id, body.id);
});

test.run();
