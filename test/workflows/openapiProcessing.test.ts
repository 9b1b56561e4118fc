import { createServer, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { refreshURLSourcedSpecs } from '../../domain/openapi/index.js';
import { insertOpenAPISpec } from '../../storage/openapi.js';
import { openAPIJobId } from '../../workflows/client.js';
import { temporalFromEnv } from '../../workflows/settings.js';
import { assertErrorIs } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { startWorkerProcess, type ServiceProcess } from '../helpers/processes.js';
import { startTestServer } from '../helpers/server.js';
import { inspectJobs, testTemporalSettings } from '../helpers/temporal.js';
import { configureIntegrations } from '../../domain/common/integrations.js';

const test = suite('OpenAPI processing as a Temporal job');
const cleanups: Array<() => Promise<unknown>> = [];
// After each test: a test's servers and worker processes left running would load the machine under the next.
test.after.each(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

const spec = JSON.stringify({ openapi: '3.0.3', info: { title: 'Killed', version: '1' }, paths: { '/x': { get: { responses: { 200: { description: 'ok' } } } } } });

/** A source server on loopback answering with `handler`; its spec's URL. */
async function sourceAt(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const source = createServer(handler);
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => (source.closeAllConnections(), new Promise((resolve) => source.close(resolve))));
  return `http://127.0.0.1:${(source.address() as AddressInfo).port}/openapi.json`;
}

/** A server with its worker in the process, allowed to fetch loopback sources, and an organization of its own. */
async function serverWithWorker(title: string) {
  configureIntegrations({ allowPrivateFetch: true });
  cleanups.push(async () => configureIntegrations({ allowPrivateFetch: false }));
  const t = await startTestServer({}, { worker: true });
  cleanups.push(() => t.close());
  const jobs = await inspectJobs(t.server.jobs.settings);
  cleanups.push(() => jobs.close());
  const admin = await t.user();
  const org = (await t.call('POST', '/v1/orgs', { token: admin.token, body: { title } })).body;
  return { t, jobs, admin, org, specs: `/v1/orgs/${org.id}/openapi` };
}

test('a worker killed in the middle of processing: a new worker finishes the job, with one version', async () => {
  // The source server holds the first request open: the activity is then in the middle of its fetch.
  let requests = 0;
  let held: ServerResponse | undefined;
  const url = await sourceAt((_req, res) => {
    requests += 1;
    if (requests === 1) held = res;
    else res.writeHead(200, { 'content-type': 'application/json' }).end(spec);
  });

  const temporal = await testTemporalSettings();
  const t = await startTestServer({ temporal });
  cleanups.push(() => t.close());
  const env = { DATA_DIR: t.dataDir, TEMPORAL_ADDRESS: temporal.address, QUIRE_TASK_QUEUE: temporal.taskQueue, QUIRE_ALLOW_PRIVATE_FETCH: '1' };
  const workers: ServiceProcess[] = [];
  cleanups.push(() => Promise.all(workers.map((worker) => worker.stop('SIGKILL'))));
  workers.push(await startWorkerProcess(env));
  const jobs = await inspectJobs(temporal);
  cleanups.push(() => jobs.close());

  const admin = await t.user();
  const org = (await t.call('POST', '/v1/orgs', { token: admin.token, body: { title: 'Specs' } })).body;
  const specs = `/v1/orgs/${org.id}/openapi`;
  assert.is((await t.call('POST', specs, { token: admin.token, body: { slug: 'killed', source: { url } } })).status, 201);
  await until('the first worker to be fetching the source', () => held !== undefined, 20_000);
  assert.is((await t.call('GET', `${specs}/killed`, { token: admin.token })).body.processingState, 'progress');
  await workers[0]!.stop('SIGKILL');

  workers.push(await startWorkerProcess(env));
  const done = await until(
    'the job to complete on the new worker',
    async () => {
      const body = (await t.call('GET', `${specs}/killed`, { token: admin.token })).body;
      return body.processingState === 'complete' ? body : undefined;
    },
    30_000,
  );
  assert.ok(done.lastVersion);
  assert.is(done.lastProcessErrorCode, undefined);
  const versions = (await t.call('GET', `${specs}/killed/versions`, { token: admin.token })).body;
  assert.is(versions.count, 1, 'one version');
  assert.is((await t.call('GET', `${specs}/killed/versions/latest/content`, { token: admin.token })).body.filesystem['openapi.json'].info.title, 'Killed');

  const handle = jobs.client.workflow.getHandle(openAPIJobId(org.id, 'killed'));
  assert.is(await handle.result(), 'stored');
  const events = (await handle.fetchHistory()).events ?? [];
  const processing = events.filter((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'processOpenAPISpec');
  assert.is(processing.length, 1, 'one processing scheduled');
  assert.is(events.find((event) => event.activityTaskStartedEventAttributes)?.activityTaskStartedEventAttributes?.attempt, 2, 'completed by its second attempt');
  assert.is(requests, 2);

  // A repeated PUT once the job is over starts a new round, which stores nothing new.
  const again = await t.call('PUT', `${specs}/killed`, { token: admin.token, body: { source: { url } } });
  assert.is(again.status, 200);
  await until('the second job to end', async () => (await jobs.client.workflow.getHandle(openAPIJobId(org.id, 'killed')).describe()).status.name === 'COMPLETED');
  assert.is(await jobs.client.workflow.getHandle(openAPIJobId(org.id, 'killed')).result(), 'unchanged');
  assert.is((await t.call('GET', `${specs}/killed/versions`, { token: admin.token })).body.count, 1);
});

test('a request while the job runs joins it: one run, one more round for the newer source', async () => {
  let held: ServerResponse | undefined;
  const url = await sourceAt((_req, res) => {
    held = res;
  });
  const { t, jobs, admin, specs, org } = await serverWithWorker('Joined');

  assert.is((await t.call('PUT', `${specs}/joined`, { token: admin.token, body: { source: { url } } })).status, 201);
  await until('the job to be fetching the URL', () => held !== undefined);
  const handle = jobs.client.workflow.getHandle(openAPIJobId(org.id, 'joined'));
  const firstRun = (await handle.describe()).runId;
  const text = JSON.stringify({ openapi: '3.0.3', info: { title: 'Newer', version: '2' }, paths: {} });
  assert.is((await t.call('PUT', `${specs}/joined`, { token: admin.token, body: { source: { text } } })).status, 200);
  held!.writeHead(200, { 'content-type': 'application/json' }).end(spec);

  assert.is(await handle.result(), 'stored');
  assert.is((await handle.describe()).runId, firstRun, 'the second request joined the running job');
  const done = (await t.call('GET', `${specs}/joined`, { token: admin.token })).body;
  assert.is(done.processingState, 'complete');
  assert.is(done.sourceURL, undefined);
  assert.is((await t.call('GET', `${specs}/joined/versions/latest/content`, { token: admin.token })).body.filesystem['openapi.json'].info.title, 'Newer');
  assert.is((await t.call('GET', `${specs}/joined/versions`, { token: admin.token })).body.count, 2, 'the URL source processed, then the text');
});

test('the refresh schedule processes every URL source again: a changed one gets a version, an unchanged one and a text source none', async () => {
  let served = spec;
  let requests = 0;
  const url = await sourceAt((_req, res) => {
    requests += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(served);
  });
  const { t, jobs, admin, specs, org } = await serverWithWorker('Refreshed');
  const versions = async (slug: string) => (await t.call('GET', `${specs}/${slug}/versions`, { token: admin.token })).body.count as number;
  const processed = (slug: string, count: number) =>
    until(
      `${slug} to have ${count} version(s), processed`,
      async () => (await versions(slug)) === count && (await t.call('GET', `${specs}/${slug}`, { token: admin.token })).body.processingState === 'complete',
    );

  assert.is((await t.call('PUT', `${specs}/remote`, { token: admin.token, body: { source: { url } } })).status, 201);
  assert.is((await t.call('PUT', `${specs}/inline`, { token: admin.token, body: { source: { text: spec } } })).status, 201);
  await processed('remote', 1);
  await processed('inline', 1);
  assert.is(requests, 1);

  const scheduleId = await t.server.jobs.ensureOpenAPIRefresh();
  const schedule = jobs.client.schedule.getHandle(scheduleId);
  cleanups.push(() => schedule.delete());
  const described = await schedule.describe();
  assert.equal(
    described.spec.intervals?.map((interval) => interval.every),
    [21_600_000],
    'every 6 hours by default',
  );
  assert.is((described.action as { workflowType?: string }).workflowType, 'openapiRefresh');

  served = JSON.stringify({ openapi: '3.0.3', info: { title: 'Changed at its URL', version: '2' }, paths: {} });
  await schedule.trigger();
  await processed('remote', 2);
  assert.is((await t.call('GET', `${specs}/remote/versions/latest/content`, { token: admin.token })).body.filesystem['openapi.json'].info.title, 'Changed at its URL');
  assert.is(requests, 2);

  // Unchanged at its URL: fetched again, no version.
  await schedule.trigger();
  await until('the source to be fetched a third time', () => requests === 3);
  await until('the round to end', async () => (await jobs.client.workflow.getHandle(openAPIJobId(org.id, 'remote')).describe()).status.name === 'COMPLETED');
  assert.is(await jobs.client.workflow.getHandle(openAPIJobId(org.id, 'remote')).result(), 'unchanged');
  assert.is(await versions('remote'), 2);
  assert.is(await versions('inline'), 1, 'a text source is never refreshed');

  // A retried refresh goes on after the last spec its attempt started (heartbeated), not from the first.
  const remote = (await t.call('GET', `${specs}/remote`, { token: admin.token })).body;
  const deps = { db: t.server.db, jobs: t.server.jobs };
  assert.is(await refreshURLSourcedSpecs(deps, { from: remote.id }), 0);
  const startedIds: string[] = [];
  assert.is(await refreshURLSourcedSpecs(deps, { progress: (id) => startedIds.push(id) }), 1);
  assert.equal(startedIds, [remote.id]);
  await until('the source to be fetched a fourth time', () => requests === 4);
});

test('QUIRE_OPENAPI_REFRESH_MINUTES sets the refresh interval, in minutes (at least one)', () => {
  assert.is(temporalFromEnv({}).temporal.openapiRefreshEveryMs, 21_600_000);
  assert.is(temporalFromEnv({ QUIRE_OPENAPI_REFRESH_MINUTES: '90' }).temporal.openapiRefreshEveryMs, 5_400_000);
  assert.throws(() => temporalFromEnv({ QUIRE_OPENAPI_REFRESH_MINUTES: '0' }), /QUIRE_OPENAPI_REFRESH_MINUTES="0": it must be a whole number of minutes \(1 or more\)/);
});

test('Temporal unreachable: a create or a new source answers 503 and changes nothing', async () => {
  const refusing = createTcpServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => refusing.close(resolve)));
  const address = `127.0.0.1:${(refusing.address() as AddressInfo).port}`;
  const t = await startTestServer({ temporal: { address, namespace: 'default', taskQueue: 'nowhere' } });
  cleanups.push(() => t.close());
  const admin = await t.user();
  const org = (await t.call('POST', '/v1/orgs', { token: admin.token, body: { title: 'No jobs' } })).body;
  const specs = `/v1/orgs/${org.id}/openapi`;
  const down = (slug: string) =>
    new RegExp(
      `^Could not start processing OpenAPI specification ${slug}: the job service \\(Temporal at ${address.replace(/\./g, '\\.')}\\) is unavailable \\(.+\\)\\. Nothing was changed; try again later\\.$`,
    );

  assertErrorIs(await t.call('POST', specs, { token: admin.token, body: { slug: 'fresh', source: { text: spec } } }), 503, down('fresh'));
  assertErrorIs(await t.call('GET', `${specs}/fresh`, { token: admin.token }), 404, 'OpenAPI specification "fresh" not found');
  assertErrorIs(await t.call('PUT', `${specs}/fresh`, { token: admin.token, body: { source: { text: spec } } }), 503, down('fresh'));
  assertErrorIs(await t.call('GET', `${specs}/fresh`, { token: admin.token }), 404, 'OpenAPI specification "fresh" not found');

  // A spec made while Temporal was up keeps its source when a new one can't be processed.
  await t.server.db.transaction((tx) => insertOpenAPISpec(tx, { organizationId: org.id, slug: 'kept', source: { url: 'https://example.com/openapi.yaml' } }));
  const before = (await t.call('GET', `${specs}/kept`, { token: admin.token })).body;
  // Within the client's fail-fast second the 503 says "it failed a moment ago"; past it, it is Temporal's own.
  const refused = await until(
    'a 503 from Temporal itself',
    async () => {
      const answer = await t.call('PUT', `${specs}/kept`, { token: admin.token, body: { source: { text: spec } } });
      return answer.status === 503 && !answer.body.error.message.includes('it failed a moment ago') ? answer : undefined;
    },
    10_000,
    100,
  );
  assertErrorIs(refused, 503, down('kept'));
  assert.equal((await t.call('GET', `${specs}/kept`, { token: admin.token })).body, before);
});

test.run();
