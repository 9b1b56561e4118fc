import { execFileSync } from 'node:child_process';
import { renameSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { recordedSpaceHeads } from '../../storage/spaceHeads.js';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

// Lists of spaces show each one's revision without opening its repository: the primary branch's
// head is recorded in the database after every move (the repository stays the truth).
const test = suite('space heads recorded for lists');
let t: TestServer;
let fx: OrganizationFixture;

test.before(
  reportingErrors(async () => {
    t = await startTestServer();
    fx = await organizationWithMembers(t, 'Heads');
  }),
);
test.after(async () => t?.close());

const branchHead = (spaceId: string) => execFileSync('git', ['-C', spaceGitdir(t.dataDir, spaceId), 'rev-parse', 'main'], { encoding: 'utf8' }).trim();
const listed = async (spaceId: string) => {
  const list = await t.call('GET', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token });
  assert.is(list.status, 200);
  return list.body.items.find((space: { id: string }) => space.id === spaceId)?.revision as string | undefined;
};

async function mergedPage(spaceId: string, title: string) {
  const changeRequest = (await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: fx.editor.token, body: { subject: title } })).body;
  const wrote = await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content`, {
    token: fx.editor.token,
    body: { changes: [{ operation: 'insert_page', title, document: { markdown: `# ${title}\n` } }] },
  });
  assert.is(wrote.status, 200, JSON.stringify(wrote.body));
  return changeRequest.id as string;
}

test('a list shows the revision a merge has just made, as the repository has it', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Listed', template: { id: 'getting-started' } } })).body;
  assert.is(await listed(space.id), space.revision, 'recorded when the space was made');
  const changeRequest = await mergedPage(space.id, 'Fresh');
  const merged = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest}/merge`, { token: fx.admin.token });
  assert.is(merged.body.result, 'merge');
  assert.is(await listed(space.id), merged.body.revision, 'no wait: recorded before the merge answered');
  assert.is(merged.body.revision, branchHead(space.id));
});

test('concurrent merges leave the head of the last one recorded, never an older one', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Raced', template: { id: 'getting-started' } } })).body;
  const changeRequests = await Promise.all(Array.from({ length: 6 }, (_, index) => mergedPage(space.id, `Page ${index}`)));
  const merges = await Promise.all(changeRequests.map((id) => t.call('POST', `/v1/spaces/${space.id}/change-requests/${id}/merge`, { token: fx.admin.token })));
  assert.ok(
    merges.every((merge) => merge.status === 200 && merge.body.result === 'merge'),
    JSON.stringify(merges.map((merge) => merge.body)),
  );
  assert.is(await listed(space.id), branchHead(space.id));
  assert.is((await recordedSpaceHeads(t.server.db, [space.id])).get(space.id), branchHead(space.id));
});

test('a list opens no repository: it answers with the repository moved away', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Away' } })).body;
  const gitdir = spaceGitdir(t.dataDir, space.id);
  renameSync(gitdir, `${gitdir}.away`);
  try {
    assert.is(await listed(space.id), space.revision);
    const collectionless = await t.call('GET', `/v1/orgs/${fx.org.id}/members/${fx.admin.id}/spaces`, { token: fx.admin.token });
    assert.is(collectionless.status, 200, 'the spaces of a member too');
  } finally {
    renameSync(`${gitdir}.away`, gitdir);
  }
});

test('a space from before heads were recorded is read from its repository once, then recorded', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Older' } })).body;
  await t.server.db.run('DELETE FROM space_heads WHERE space_id = ?', [space.id]);
  assert.is((await recordedSpaceHeads(t.server.db, [space.id])).size, 0);
  assert.is(await listed(space.id), space.revision, 'read from the repository');
  await until('its head to be recorded', async () => (await recordedSpaceHeads(t.server.db, [space.id])).get(space.id) === space.revision, 5000);
});

test.run();
