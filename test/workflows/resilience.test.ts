import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { withRepositoryLock } from '../../engine/lock.js';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { markSpaceDeleted, findSpacePurge } from '../../storage/spaceDeletion.js';
import { assertErrorIs } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { startWorkerProcess, type ServiceProcess } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { inspectJobs, ownDevServer, testTemporalSettings } from '../helpers/temporal.js';

const test = suite('jobs survive restarts, killed workers and Temporal outages');
const cleanups: Array<() => Promise<unknown>> = [];
// After each test, not the suite: a test's servers, workers and dev servers left running would load the machine under the next.
test.after.each(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** A port this test holds, where every connection is dropped: a Temporal that can't be reached. */
async function refusingAddress(): Promise<string> {
  const refusing = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => refusing.close(resolve)));
  return `127.0.0.1:${(refusing.address() as { port: number }).port}`;
}
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-jobs-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The 503 of a delete whose purge job could not start; the reason in brackets is Temporal's or the health check's. */
const jobServiceDown = (spaceId: string, address: string) =>
  new RegExp(
    `Could not start the purge of space ${spaceId}: the job service \\(Temporal at ${escape(address)}\\) is unavailable \\((Failed to start Workflow|it failed a moment ago)\\)\\. Nothing was changed; try again later\\.`,
  );

async function spaceOn(t: TestServer) {
  const admin = await t.user();
  const org = (await t.call('POST', '/v1/orgs', { token: admin.token, body: { title: 'Jobs' } })).body;
  const space = (await t.call('POST', `/v1/orgs/${org.id}/spaces`, { token: admin.token, body: { title: 'Doomed', template: { id: 'getting-started' } } })).body;
  return { token: admin.token, orgId: org.id as string, spaceId: space.id as string };
}

/** A test server without a worker of its own, and worker processes (`npm run worker`) beside it, started one at a time. */
async function withWorkerProcesses(spaceRetentionMs: number) {
  const temporal = await testTemporalSettings();
  const t = await startTestServer({ spaceRetentionMs, temporal });
  cleanups.push(() => t.close());
  const env = { DATA_DIR: t.dataDir, TEMPORAL_ADDRESS: temporal.address, QUIRE_TASK_QUEUE: temporal.taskQueue };
  const workers: ServiceProcess[] = [];
  cleanups.push(() => Promise.all(workers.map((worker) => worker.stop('SIGKILL'))));
  const startWorker = async () => workers.push(await startWorkerProcess(env));
  await startWorker();
  const jobs = await inspectJobs(temporal);
  cleanups.push(() => jobs.close());
  return { t, jobs, workers, startWorker };
}

test('a restart of Quire in the middle of the wait: the purge still happens, once', async () => {
  const temporal = await testTemporalSettings();
  const dataDir = tempDir();
  const first = await startTestServer({ spaceRetentionMs: 2000, temporal }, { worker: true, dataDir });
  const { token, spaceId } = await spaceOn(first);
  assert.is((await first.call('DELETE', `/v1/spaces/${spaceId}`, { token })).status, 205);
  await first.close({ keepData: true });

  const second = await startTestServer({ spaceRetentionMs: 2000, temporal }, { worker: true, dataDir });
  cleanups.push(() => second.close());
  const jobs = await inspectJobs(temporal);
  cleanups.push(() => jobs.close());
  assert.is(await jobs.outcome(spaceId), 'purged');
  assert.not.ok(existsSync(spaceGitdir(dataDir, spaceId)));
  assertErrorIs(await second.call('GET', `/v1/spaces/${spaceId}`, { token }), 404, `Space ${spaceId} not found`);
  const events = (await jobs.handle(spaceId).fetchHistory()).events ?? [];
  assert.is(events.filter((event) => event.activityTaskCompletedEventAttributes).length, 1, 'one purge');
});

test('a restart of the Temporal dev server in the middle of the wait: reads go on, jobs wait, then the purge happens', async () => {
  const stateDir = tempDir();
  // Any free port at first; the restart takes the same one, where the clients look for it.
  let devServer = await ownDevServer(stateDir);
  const port = Number(devServer.address.split(':').pop());
  cleanups.push(() => devServer.stop());
  const temporal = { address: devServer.address, namespace: 'default', taskQueue: 'restart-test' };
  const t = await startTestServer({ spaceRetentionMs: 3000, temporal }, { worker: true });
  cleanups.push(() => t.close());
  const { token, orgId, spaceId } = await spaceOn(t);
  const other = (await t.call('POST', `/v1/orgs/${orgId}/spaces`, { token, body: { title: 'Stays' } })).body;
  assert.is((await t.call('DELETE', `/v1/spaces/${spaceId}`, { token })).status, 205);

  await devServer.stop();
  const jobsStatus = async () => (await t.call('GET', '/v1/')).body.jobs.status;
  await until('GET /v1/ to tell the job service is down', async () => (await jobsStatus()) === 'down');
  assert.is((await t.call('GET', `/v1/spaces/${other.id}`, { token })).status, 200, 'reads are served while Temporal is down');
  assertErrorIs(await t.call('DELETE', `/v1/spaces/${other.id}`, { token }), 503, jobServiceDown(other.id, temporal.address));
  assert.is((await t.call('GET', `/v1/spaces/${other.id}`, { token })).status, 200, 'a delete that could not start its job changed nothing');

  devServer = await ownDevServer(stateDir, port);
  await until('GET /v1/ to tell the job service is up', async () => (await jobsStatus()) === 'up');
  const jobs = await inspectJobs(temporal);
  cleanups.push(() => jobs.close());
  assert.is(await jobs.outcome(spaceId), 'purged', 'the timer was kept in the dev server state file');
  assert.not.ok(existsSync(spaceGitdir(t.dataDir, spaceId)));
  assert.is((await t.call('GET', `/v1/spaces/${other.id}`, { token })).status, 200);
});

test('a worker killed in the middle of a job: a new worker finishes it, and the purge is applied once', async () => {
  const { t, jobs, workers, startWorker } = await withWorkerProcesses(2500);

  const { token, spaceId } = await spaceOn(t);
  assert.is((await t.call('DELETE', `/v1/spaces/${spaceId}`, { token })).status, 205);
  const timerStarted = async () => (await jobs.handle(spaceId).fetchHistory()).events?.some((event) => event.timerStartedEventAttributes) ?? false;
  await until('the first worker to take the job and start its timer', timerStarted);
  await workers[0]!.stop('SIGKILL');

  const timerFired = async () => (await jobs.handle(spaceId).fetchHistory()).events?.some((event) => event.timerFiredEventAttributes) ?? false;
  await until('the timer to fire with no worker to run the purge', timerFired);
  assert.ok(existsSync(spaceGitdir(t.dataDir, spaceId)), 'nothing purged without a worker');
  await startWorker();
  assert.is(await jobs.outcome(spaceId), 'purged');
  const events = (await jobs.handle(spaceId).fetchHistory()).events ?? [];
  assert.is(events.filter((event) => event.activityTaskScheduledEventAttributes).length, 1, 'one purge scheduled');
  assert.is(events.filter((event) => event.activityTaskCompletedEventAttributes).length, 1, 'one purge completed');
  assert.ok(await findSpacePurge(t.server.db, spaceId));
  assert.not.ok(existsSync(spaceGitdir(t.dataDir, spaceId)));
});

test('a worker killed in the middle of the purge activity: the activity runs again on a new worker, and the purge is on record once', async () => {
  const { t, jobs, workers, startWorker } = await withWorkerProcesses(1000);
  const { token, spaceId } = await spaceOn(t);

  // Holding the repository's lock stops the activity between its two steps: rows purged, repository not yet.
  const gitdir = spaceGitdir(t.dataDir, spaceId);
  let release: () => void = () => undefined;
  let held = false;
  const holding = withRepositoryLock(gitdir, () => new Promise<void>((resolve) => ((release = resolve), (held = true))));
  cleanups.push(async () => release());
  await until('the repository lock to be held', () => held);

  assert.is((await t.call('DELETE', `/v1/spaces/${spaceId}`, { token })).status, 205);
  await until('the first attempt to purge the rows', () => findSpacePurge(t.server.db, spaceId));
  assert.ok(existsSync(gitdir), 'and is waiting to remove the repository');
  await workers[0]!.stop('SIGKILL');
  release();
  await holding;

  await startWorker();
  assert.is(await jobs.outcome(spaceId), 'already-purged', 'the second attempt found the rows gone and finished the repository');
  assert.not.ok(existsSync(gitdir));
  const events = (await jobs.handle(spaceId).fetchHistory()).events ?? [];
  assert.is(events.filter((event) => event.activityTaskScheduledEventAttributes).length, 1, 'one purge scheduled');
  assert.is(events.find((event) => event.activityTaskStartedEventAttributes)?.activityTaskStartedEventAttributes?.attempt, 2, 'completed by its second attempt');
  assert.is(events.filter((event) => event.activityTaskCompletedEventAttributes).length, 1, 'one purge completed');
  const purges = await t.server.db.all('SELECT * FROM space_purges WHERE space_id = ?', [spaceId]);
  assert.is(purges.length, 1);
});

test('Temporal unreachable: reads are served, a delete answers 503 at once and changes nothing, a restore still works', async () => {
  const address = await refusingAddress();
  const t = await startTestServer({ temporal: { address, namespace: 'default', taskQueue: 'nowhere' } });
  cleanups.push(() => t.close());
  assert.is((await t.call('GET', '/v1/')).body.jobs.status, 'down');
  const { token, spaceId } = await spaceOn(t);
  assert.is((await t.call('GET', `/v1/spaces/${spaceId}`, { token })).status, 200);

  // How fast the 503 comes is measured by bench/jobs.ts; here it must come at all.
  assertErrorIs(await t.call('DELETE', `/v1/spaces/${spaceId}`, { token }), 503, jobServiceDown(spaceId, address));
  assert.is((await t.call('GET', `/v1/spaces/${spaceId}`, { token })).status, 200, 'still live');
  assertErrorIs(await t.call('DELETE', `/v1/spaces/${spaceId}`, { token }), 503, jobServiceDown(spaceId, address));

  // A space put in the bin while Temporal was up comes back out without it: the database decides.
  await markSpaceDeleted(t.server.db, spaceId, new Date().toISOString());
  const restored = await t.call('POST', `/v1/spaces/${spaceId}/restore`, { token });
  assert.is(restored.status, 200);
  assert.is((await t.call('GET', `/v1/spaces/${spaceId}`, { token })).status, 200);
});

test('npm run worker keeps running while Temporal is down, and stops cleanly', async () => {
  const dataDir = tempDir();
  const worker = await startWorkerProcess({ DATA_DIR: dataDir, TEMPORAL_ADDRESS: await refusingAddress(), QUIRE_TASK_QUEUE: 'nowhere' });
  cleanups.push(() => worker.stop('SIGKILL'));
  const retries = () => (worker.stdout() + worker.stderr()).match(/not running; retrying/g)?.length ?? 0;
  await until('the worker to retry its connection twice', () => retries() >= 2, 20_000);
  assert.is(worker.child.exitCode, null, 'still running, retrying the connection');
  const { code } = await worker.stop('SIGTERM');
  assert.is(code, 0);
});

test.run();
