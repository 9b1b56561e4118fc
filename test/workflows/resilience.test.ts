import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { withRepositoryLock } from '../../engine/lock.js';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { markSpaceDeleted, findSpacePurge } from '../../storage/spaceDeletion.js';
import { freePort } from '../../workflows/runtime/devServer.js';
import { assertError } from '../helpers/fixtures.js';
import { startWorkerProcess, type ServiceProcess } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { inspectJobs, ownDevServer, testTemporalSettings } from '../helpers/temporal.js';

const test = suite('jobs survive restarts, killed workers and Temporal outages');
const cleanups: Array<() => Promise<unknown>> = [];
test.after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-jobs-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

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

  await sleep(500);
  const second = await startTestServer({ spaceRetentionMs: 2000, temporal }, { worker: true, dataDir });
  cleanups.push(() => second.close());
  const jobs = await inspectJobs(temporal);
  cleanups.push(() => jobs.close());
  assert.is(await jobs.outcome(spaceId), 'purged');
  assert.not.ok(existsSync(spaceGitdir(dataDir, spaceId)));
  assertError(await second.call('GET', `/v1/spaces/${spaceId}`, { token }), 404, 'not found');
  const events = (await jobs.handle(spaceId).fetchHistory()).events ?? [];
  assert.is(events.filter((event) => event.activityTaskCompletedEventAttributes).length, 1, 'one purge');
});

test('a restart of the Temporal dev server in the middle of the wait: reads go on, jobs wait, then the purge happens', async () => {
  const stateDir = tempDir();
  const port = await freePort();
  let devServer = await ownDevServer(stateDir, port);
  cleanups.push(() => devServer.stop());
  const temporal = { address: devServer.address, namespace: 'default', taskQueue: 'restart-test' };
  const t = await startTestServer({ spaceRetentionMs: 3000, temporal }, { worker: true });
  cleanups.push(() => t.close());
  const { token, orgId, spaceId } = await spaceOn(t);
  const other = (await t.call('POST', `/v1/orgs/${orgId}/spaces`, { token, body: { title: 'Stays' } })).body;
  assert.is((await t.call('DELETE', `/v1/spaces/${spaceId}`, { token })).status, 205);

  await devServer.stop();
  const jobsStatus = async () => (await t.call('GET', '/v1/')).body.jobs.status;
  for (let waited = 0; (await jobsStatus()) !== 'down' && waited < 3000; waited += 100) await sleep(100);
  assert.is(await jobsStatus(), 'down', 'GET /v1/ tells the job service is down');
  assert.is((await t.call('GET', `/v1/spaces/${other.id}`, { token })).status, 200, 'reads are served while Temporal is down');
  assertError(await t.call('DELETE', `/v1/spaces/${other.id}`, { token }), 503, 'job service');
  assert.is((await t.call('GET', `/v1/spaces/${other.id}`, { token })).status, 200, 'a delete that could not start its job changed nothing');

  devServer = await ownDevServer(stateDir, port);
  for (let waited = 0; (await jobsStatus()) !== 'up' && waited < 5000; waited += 100) await sleep(100);
  assert.is(await jobsStatus(), 'up');
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
  for (let waited = 0; !(await timerStarted()) && waited < 10_000; waited += 100) await sleep(100);
  assert.ok(await timerStarted(), 'the first worker took the job and started its timer');
  await workers[0]!.stop('SIGKILL');

  await sleep(3000); // the timer fires with no worker to run the purge
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
  const holding = withRepositoryLock(gitdir, () => new Promise<void>((resolve) => (release = resolve)));
  cleanups.push(async () => release());
  for (let waited = 0; !existsSync(`${gitdir}.lock`) && waited < 5000; waited += 20) await sleep(20);

  assert.is((await t.call('DELETE', `/v1/spaces/${spaceId}`, { token })).status, 205);
  for (let waited = 0; !(await findSpacePurge(t.server.db, spaceId)) && waited < 10_000; waited += 50) await sleep(50);
  assert.ok(await findSpacePurge(t.server.db, spaceId), 'the first attempt purged the rows');
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
  const t = await startTestServer({ temporal: { address: `127.0.0.1:${await freePort()}`, namespace: 'default', taskQueue: 'nowhere' } });
  cleanups.push(() => t.close());
  assert.is((await t.call('GET', '/v1/')).body.jobs.status, 'down');
  const { token, spaceId } = await spaceOn(t);
  assert.is((await t.call('GET', `/v1/spaces/${spaceId}`, { token })).status, 200);

  const started = Date.now();
  const answer = await t.call('DELETE', `/v1/spaces/${spaceId}`, { token });
  assertError(answer, 503, 'job service');
  assert.ok(Date.now() - started < 10_000, 'answered instead of hanging');
  assert.is((await t.call('GET', `/v1/spaces/${spaceId}`, { token })).status, 200, 'still live');
  assertError(await t.call('DELETE', `/v1/spaces/${spaceId}`, { token }), 503, 'job service');

  // A space put in the bin while Temporal was up comes back out without it: the database decides.
  await markSpaceDeleted(t.server.db, spaceId, new Date().toISOString());
  const restored = await t.call('POST', `/v1/spaces/${spaceId}/restore`, { token });
  assert.is(restored.status, 200);
  assert.is((await t.call('GET', `/v1/spaces/${spaceId}`, { token })).status, 200);
});

test('npm run worker keeps running while Temporal is down, and stops cleanly', async () => {
  const dataDir = tempDir();
  const worker = await startWorkerProcess({ DATA_DIR: dataDir, TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`, QUIRE_TASK_QUEUE: 'nowhere' });
  cleanups.push(() => worker.stop('SIGKILL'));
  await sleep(2500);
  assert.is(worker.child.exitCode, null, 'still running, retrying the connection');
  assert.match(worker.stderr(), /not running; retrying/);
  const { code } = await worker.stop('SIGTERM');
  assert.is(code, 0);
});

test.run();
