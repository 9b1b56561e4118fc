import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { until } from '../helpers/poll.js';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { spawn } from 'node:child_process';
import { parse } from 'yaml';
import net from 'node:net';
import { databaseLocation, openDatabase } from '../../storage/db.js';
import { testDatabaseUrl } from '../helpers/postgres.js';
import { markSpaceDeleted } from '../../storage/spaceDeletion.js';
import { answers, freePort, startDevServer } from '../../workflows/runtime/devServer.js';
import { pinnedCliVersion } from '../../workflows/runtime/temporalCli.js';
import { temporalCli } from '../helpers/temporal.js';
import { projectRoot, startService, type ServiceProcess } from '../helpers/processes.js';
import { assertUpstreamResponse } from '../helpers/upstream.js';

const test = suite('npm start with its own Temporal dev server');
const running: ServiceProcess[] = [];
const pids: number[] = [];
const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-local-temporal-'));
test.after(async () => {
  await Promise.all(running.map((service) => service.stop('SIGKILL')));
  for (const pid of pids.filter(alive)) process.kill(pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const token = 'local-temporal-token-0123456789';
const pidFile = path.join(dataDir, 'temporal', 'dev-server.pid.json');
const devServerPid = (): number => JSON.parse(readFileSync(pidFile, 'utf8')).pid;
function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
  } catch {
    return false;
  }
}
async function call(service: ServiceProcess, method: string, url: string, body?: unknown) {
  const response = await fetch(service.url + url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : undefined;
  if (response.ok) assertUpstreamResponse(method, url.split('?')[0]!, response.status, parsed);
  return { status: response.status, body: parsed };
}

test('a pending purge survives a crash of Quire, whose dev server stops with it; one left running otherwise is replaced; SIGTERM stops both', async () => {
  const uiPort = await freePort();
  const env = { DATA_DIR: dataDir, QUIRE_BOOTSTRAP_TOKEN: token, QUIRE_SPACE_RETENTION: '4s', QUIRE_TEMPORAL_PORT: String(await freePort()), QUIRE_TEMPORAL_UI_PORT: String(uiPort) };
  const first = await startService(env);
  running.push(first);
  assert.is((await call(first, 'GET', '/v1/')).body.jobs.status, 'up');
  assert.ok(existsSync(path.join(dataDir, 'temporal', 'dev-server.sqlite')), 'the dev server persists under DATA_DIR');
  assert.is((await fetch(`http://127.0.0.1:${uiPort}/`)).status, 200, 'the Temporal web UI answers on its port');

  const orgId = (await call(first, 'GET', '/v1/orgs')).body.items[0].id;
  const space = (await call(first, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Pending' })).body;
  const halfDeleted = (await call(first, 'POST', `/v1/orgs/${orgId}/spaces`, { title: 'Half deleted' })).body;
  assert.is((await call(first, 'DELETE', `/v1/spaces/${space.id}`)).status, 205);

  const guarded = devServerPid();
  pids.push(guarded);
  await first.stop('SIGKILL');
  await until('a crash of Quire to stop its dev server too (the pipe to its guard closed)', () => !alive(guarded), 5000, 100);
  // A dev server can still be left running by something else (its guard killed alone, a dev server
  // of an older Quire): the same CLI on the same state and port, named by the pid file.
  const leftover = spawn(
    temporalCli(),
    ['server', 'start-dev', '--ip', '127.0.0.1', '--port', env.QUIRE_TEMPORAL_PORT, '--headless', '--log-level', 'warn', '--db-filename', path.join(dataDir, 'temporal', 'dev-server.sqlite')],
    {
      detached: true,
      stdio: 'ignore',
    },
  ).pid!;
  pids.push(leftover);
  writeFileSync(pidFile, JSON.stringify({ pid: leftover, owner: first.child.pid, address: `127.0.0.1:${env.QUIRE_TEMPORAL_PORT}` }));
  await until('the leftover dev server to answer', () => answers(`127.0.0.1:${env.QUIRE_TEMPORAL_PORT}`), 15_000, 200);
  // A crash between marking a space deleted and starting its job leaves this behind.
  const db = await openDatabase(databaseLocation(dataDir, await testDatabaseUrl(dataDir)));
  await markSpaceDeleted(db, halfDeleted.id, new Date().toISOString());
  await db.close();

  const second = await startService(env);
  running.push(second);
  assert.match(second.stdout() + second.stderr(), /left running/);
  assert.not.ok(alive(leftover), 'the leftover dev server was stopped');
  const current = devServerPid();
  pids.push(current);
  assert.is.not(current, leftover);

  const third = await startService(env).then(
    () => 'started',
    (error: Error) => error.message,
  );
  assert.match(third, /in use by the Quire process/, 'a second Quire on the same DATA_DIR refuses instead of taking the dev server');
  assert.ok(alive(current), 'and leaves the running one alone');

  const purged = (id: string) => !existsSync(spaceGitdir(dataDir, id));
  await until('the space to be purged after the restart, by the timer set before the crash', () => purged(space.id), 15_000, 200);
  await until('the space deleted without a job to get one at start, and be purged', () => purged(halfDeleted.id), 15_000, 200);

  const { code } = await second.stop('SIGTERM');
  assert.is(code, 0, 'a graceful stop');
  assert.not.ok(alive(current), 'the dev server stops with Quire');
  assert.not.ok(existsSync(pidFile));
});

test('a port already taken is reported, not mistaken for our dev server', async () => {
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as net.AddressInfo).port;
  try {
    const failure = await startDevServer({ cli: temporalCli(), port }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    assert.match(failure, new RegExp(`Port ${port} on 127.0.0.1 is taken.*TEMPORAL_ADDRESS`));
  } finally {
    taken.close();
  }
});

test('temporal-dev.yml runs a dev server this CLI version accepts, persisting to its volume', async () => {
  const compose = parse(readFileSync(path.join(projectRoot, 'temporal-dev.yml'), 'utf8'));
  const command: string[] = compose.services.temporal.command;
  const state = command.indexOf('--db-filename');
  assert.ok(state > 0, 'the dev server state is kept');
  assert.is(compose.services.temporal.image, `temporalio/temporal:${pinnedCliVersion.slice(1)}`, 'the image is the CLI version the project builds');
  // The same arguments on this machine, with the volume and the ports moved somewhere free.
  const args = command.map((arg, i) => (i === state + 1 ? path.join(dataDir, 'compose.sqlite') : arg === '0.0.0.0' ? '127.0.0.1' : arg));
  const port = await freePort();
  const child = spawn(temporalCli(), [...args, '--port', String(port), '--ui-port', String(await freePort())], { stdio: 'ignore' });
  try {
    await until('the dev server to answer', () => answers(`127.0.0.1:${port}`), 15_000, 200);
    assert.ok(existsSync(path.join(dataDir, 'compose.sqlite')));
  } finally {
    child.kill('SIGKILL');
  }
});

test.run();
