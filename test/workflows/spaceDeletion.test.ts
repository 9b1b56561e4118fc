import { existsSync } from 'node:fs';
import { suite } from 'uvu';
import { systemActor } from '../../domain/audit/index.js';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { ensureDeletionJobs, restoreSpace } from '../../domain/spaces/index.js';
import { clearSpaceDeletion, findSpacePurge, markSpaceDeleted } from '../../storage/spaceDeletion.js';
import { findSpace } from '../../storage/spaces.js';
import { purgeDeletedSpace } from '../../workflows/activities/purgeDeletedSpace.js';
import { assertErrorIs } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';
import { inspectJobs } from '../helpers/temporal.js';

const retentionMs = 1500;
const test = suite('space deletion as a Temporal job');
let t: TestServer;
let jobs: Awaited<ReturnType<typeof inspectJobs>>;
let admin: { token: string };
let orgId: string;

test.before(
  reportingErrors(async () => {
    t = await startTestServer({ spaceRetentionMs: retentionMs }, { worker: true });
    jobs = await inspectJobs(t.server.jobs.settings);
    admin = await t.user();
    orgId = (await t.call('POST', '/v1/orgs', { token: admin.token, body: { title: 'Deletion' } })).body.id;
  }),
);
test.after(async () => {
  await jobs?.close();
  await t?.close();
});

const newSpace = async (): Promise<{ id: string }> =>
  (await t.call('POST', `/v1/orgs/${orgId}/spaces`, { token: admin.token, body: { title: 'Short-lived', template: { id: 'getting-started' } } })).body;
const del = (id: string) => t.call('DELETE', `/v1/spaces/${id}`, { token: admin.token });
const restore = (id: string) => t.call('POST', `/v1/spaces/${id}/restore`, { token: admin.token });
const get = (id: string) => t.call('GET', `/v1/spaces/${id}`, { token: admin.token });
const indexedPages = async (id: string) => (await t.server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM search_pages WHERE space_id = ?', [id]))?.n;

/** The two states a space may end in: whole and live, or gone everywhere with one purge on record. */
async function assertWholeOrGone(id: string): Promise<'live' | 'purged'> {
  const status = (await get(id)).status;
  const purge = await findSpacePurge(t.server.db, id);
  if (status === 200) {
    assert.ok(existsSync(spaceGitdir(t.dataDir, id)), 'a live space keeps its repository');
    assert.is(purge, undefined, 'a live space has no purge on record');
    assert.is((await t.call('GET', `/v1/spaces/${id}/content`, { token: admin.token })).status, 200);
    return 'live';
  }
  assert.is(status, 404);
  assert.not.ok(existsSync(spaceGitdir(t.dataDir, id)), 'a purged space has no repository');
  assert.ok(purge, 'the purge is on record');
  assert.is(await indexedPages(id), 0);
  return 'purged';
}

test('a deleted space is purged once the retention is over: repository, row and search index', async () => {
  const space = await newSpace();
  await t.server.jobs.isUp();
  await until('the new space to be indexed for search', async () => (await indexedPages(space.id))! > 0);
  assert.is((await del(space.id)).status, 205);
  assertErrorIs(await get(space.id), 404, `Space ${space.id} not found`);
  assert.ok(existsSync(spaceGitdir(t.dataDir, space.id)), 'kept while it can be restored');
  const description = await jobs.handle(space.id).describe();
  assert.is(description.status.name, 'RUNNING');

  assert.is(await jobs.outcome(space.id), 'purged');
  assert.is(await assertWholeOrGone(space.id), 'purged');
  assertErrorIs(await restore(space.id), 404, `Space ${space.id} not found`);
  assertErrorIs(await del(space.id), 404, `Space ${space.id} not found`);
});

test('restore inside the window ends the job without a purge, and the space outlives its retention', async () => {
  const space = await newSpace();
  assert.is((await del(space.id)).status, 205);
  const restored = await restore(space.id);
  assert.is(restored.status, 200);
  assert.is(restored.body.id, space.id);
  assert.is(await jobs.outcome(space.id), 'restored');
  // What the job would have run at the deadline: the purge of that deletion keeps the live space.
  assert.not.ok((await findSpace(t.server.db, space.id, { includeDeleted: true }))!.deletedAt, 'out of the bin');
  assert.is(
    await purgeDeletedSpace({ db: t.server.db, dataDir: t.dataDir, repositories: t.server.repositories })({ spaceId: space.id, deletedAt: new Date(Date.now() - retentionMs).toISOString() }),
    'restored',
  );
  assert.is(await assertWholeOrGone(space.id), 'live');
});

test('deleting twice starts one job; restoring twice is harmless; deleting again starts a new one', async () => {
  const space = await newSpace();
  assert.is((await del(space.id)).status, 205);
  const first = await jobs.handle(space.id).describe();
  assert.is((await del(space.id)).status, 204, 'already in the bin');
  assert.is((await jobs.handle(space.id).describe()).runId, first.runId, 'the same job, not a second one');

  assert.is((await restore(space.id)).status, 200);
  assertErrorIs(await restore(space.id), 409, `Space ${space.id} is not deleted`);
  assert.is(await jobs.outcome(space.id), 'restored');

  assert.is((await del(space.id)).status, 205);
  const second = await jobs.handle(space.id).describe();
  assert.is.not(second.runId, first.runId);
  assert.is(await jobs.outcome(space.id), 'purged');
  assert.is(await assertWholeOrGone(space.id), 'purged');
});

test('a restore inside the retention wins; one past it is refused, and the purge follows', async () => {
  const inTime = await newSpace();
  assert.is((await del(inTime.id)).status, 205);
  assert.is((await restore(inTime.id)).status, 200);
  assert.is(await jobs.outcome(inTime.id), 'restored');
  assert.is(await assertWholeOrGone(inTime.id), 'live');

  // Deleted one retention ago (as if the restore arrived just after the deadline): refused.
  const late = await newSpace();
  const deletedAt = new Date(Date.now() - retentionMs).toISOString();
  assert.ok(await markSpaceDeleted(t.server.db, late.id, deletedAt));
  assertErrorIs(await restore(late.id), 404, `Space ${late.id} not found: it was deleted too long ago to restore`);
  assert.is(await ensureDeletionJobs({ db: t.server.db, jobs: t.server.jobs, retentionMs }), 1, 'the late space is the only one in the bin');
  assert.is(await jobs.outcome(late.id), 'purged');
  assert.is(await assertWholeOrGone(late.id), 'purged');
});

test('a restore that reaches the database before the purge wins: the purge keeps the space', async () => {
  const purge = purgeDeletedSpace({ db: t.server.db, dataDir: t.dataDir, repositories: t.server.repositories });
  const space = await newSpace();
  assert.is((await del(space.id)).status, 205);
  const { deletedAt } = (await findSpace(t.server.db, space.id, { includeDeleted: true }))!;
  assert.is((await restore(space.id)).status, 200);
  assert.is(await purge({ spaceId: space.id, deletedAt: deletedAt! }), 'restored', 'the purge found the space out of the bin and kept it');
  assert.is(await assertWholeOrGone(space.id), 'live');
  assert.is(await jobs.outcome(space.id), 'restored');
});

test('a purge that reaches the database first wins: a restore that had already read the space answers 404', async () => {
  const purge = purgeDeletedSpace({ db: t.server.db, dataDir: t.dataDir, repositories: t.server.repositories });
  const space = await newSpace();
  assert.is((await del(space.id)).status, 205);
  // The restore has read the space (as its request does before changing anything) when the purge runs.
  const seenByRestore = (await findSpace(t.server.db, space.id, { includeDeleted: true }))!;
  assert.is(await purge({ spaceId: space.id, deletedAt: seenByRestore.deletedAt! }), 'purged');
  const refused = await restoreSpace({ db: t.server.db, jobs: t.server.jobs, retentionMs }, systemActor('script', 'test'), seenByRestore as typeof seenByRestore & { deletedAt: string }).then(
    () => undefined,
    (error: Error) => error.message,
  );
  assert.is(refused, `Space ${space.id} not found: it has been purged`);
  assertErrorIs(await restore(space.id), 404, `Space ${space.id} not found`);
  assert.is(await assertWholeOrGone(space.id), 'purged');
  assert.is(await jobs.outcome(space.id), 'already-purged', 'the job ends without purging twice');
});

test("a restore's late word to the job does not end the job of a deletion that came after it", async () => {
  const space = await newSpace();
  assert.is((await del(space.id)).status, 205);
  const { deletedAt: first } = (await findSpace(t.server.db, space.id, { includeDeleted: true }))!;
  // A restore has taken the space out of the bin but not yet told the job; a delete comes in between.
  assert.ok(await clearSpaceDeletion(t.server.db, space.id, first!));
  assert.is((await del(space.id)).status, 205);
  await t.server.jobs.cancelSpaceDeletion(space.id, first!);
  assert.is(await jobs.outcome(space.id), 'purged');
  assert.is(await assertWholeOrGone(space.id), 'purged');
});

test('a space in the bin without a job (its process stopped halfway) gets one at start, once', async () => {
  const space = await newSpace();
  // What a crash between marking the space and starting its job leaves behind.
  await markSpaceDeleted(t.server.db, space.id, new Date().toISOString());
  const before = await jobs
    .handle(space.id)
    .describe()
    .then(
      () => 'found',
      (error: Error) => error.name,
    );
  assert.is(before, 'WorkflowNotFoundError', 'no job yet');
  const deps = { db: t.server.db, jobs: t.server.jobs, retentionMs };
  assert.is(await ensureDeletionJobs(deps), 1, 'this space is the only one in the bin');
  const first = await jobs.handle(space.id).describe();
  await ensureDeletionJobs(deps);
  assert.is((await jobs.handle(space.id).describe()).runId, first.runId, 'a second pass keeps the job it finds');
  assert.is(await jobs.outcome(space.id), 'purged');
  assert.is(await assertWholeOrGone(space.id), 'purged');

  // A job left from an earlier deletion (its restore couldn't reach Temporal) is replaced by one for the current deletion.
  const other = await newSpace();
  assert.is((await del(other.id)).status, 205);
  const stale = await jobs.handle(other.id).describe();
  const { deletedAt: earlier } = (await findSpace(t.server.db, other.id, { includeDeleted: true }))!;
  assert.ok(await clearSpaceDeletion(t.server.db, other.id, earlier!));
  await markSpaceDeleted(t.server.db, other.id, new Date(Date.now() + 1).toISOString());
  await ensureDeletionJobs(deps);
  assert.is.not((await jobs.handle(other.id).describe()).runId, stale.runId, 'the stale job was replaced');
  assert.is(await jobs.outcome(other.id), 'purged');
  assert.is(await assertWholeOrGone(other.id), 'purged');
});

test.run();
