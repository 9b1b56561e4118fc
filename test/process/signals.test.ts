import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { until } from '../helpers/poll.js';
import { projectRoot } from '../helpers/processes.js';
import { testTemporalSettings } from '../helpers/temporal.js';

const test = suite('npm start stops the way operators stop it');
const dirs: string[] = [];
const leftovers: number[] = [];
test.after(() => {
  for (const pid of leftovers.filter(alive)) kill(pid, 'SIGKILL');
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

const token = 'signals-token-0123456789abcdef';

function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
  } catch {
    return false;
  }
}

function kill(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
}

/** Live processes whose command line mentions `text` (the dev server names its state file in DATA_DIR). */
function processesMentioning(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text) && alive(pid);
      } catch {
        return false;
      }
    });
}

interface NpmStart {
  npm: ChildProcess;
  /** The Quire process (node), from its ready line. */
  quire: number;
  url: string;
  /** The dev server and its guard. */
  devServer: number[];
  output: () => string;
  /** Settles once npm's output pipes are closed: every process writing to them is gone and all they wrote has been read. */
  outputEnded: Promise<void>;
}

/** `npm start` in a process group of its own, as a terminal, a service manager or `timeout` runs it. */
async function npmStart(extraEnv: Record<string, string> = {}): Promise<NpmStart> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-signals-'));
  dirs.push(dataDir);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    QUIRE_BOOTSTRAP_TOKEN: token,
    // Any free ports, taken as the dev server starts: a port found free here could be taken before it binds it.
    QUIRE_TEMPORAL_PORT: '0',
    QUIRE_TEMPORAL_UI_PORT: '0',
    ...extraEnv,
  };
  delete env.TEMPORAL_ADDRESS;
  delete env.QUIRE_WORKFLOW_BUNDLE; // the bundle `npm run build` writes to dist/, as in production
  const npm = spawn('npm', ['start'], { cwd: projectRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  leftovers.push(npm.pid!);
  const outputEnded = new Promise<void>((resolve) => npm.once('close', () => resolve()));
  let output = '';
  npm.stdout!.on('data', (chunk) => (output += chunk));
  npm.stderr!.on('data', (chunk) => (output += chunk));
  const ready = await new Promise<{ url: string; pid: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start not ready in 120 s:\n${output}`)), 120_000);
    npm.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
    const look = () => {
      const line = output.split('\n').find((text) => text.includes('"message":"Quire is ready"'));
      if (!line) return;
      clearTimeout(timer);
      const parsed = JSON.parse(line) as { url: string; pid: number };
      resolve(parsed);
    };
    npm.stdout!.on('data', look);
    npm.stderr!.on('data', look);
  });
  leftovers.push(ready.pid);
  const devServer = processesMentioning(path.join(dataDir, 'temporal', 'dev-server.sqlite'));
  leftovers.push(...devServer);
  assert.ok(devServer.length >= 1, 'a dev server runs');
  return { npm, quire: ready.pid, url: ready.url, devServer, output: () => output, outputEnded };
}

/**
 * Waits until none of the pids is alive. How soon they go is a benchmark's figure
 * (`npm run bench jobs`); the deadline only bounds the wait for an exit that must happen.
 */
async function allGone(pids: number[], what: string): Promise<void> {
  await until(`${what}: processes ${pids.join(', ')} to exit`, () => !pids.some(alive), 10_000, 50);
}

/**
 * Waits for the last of a process's output: a process can be gone while the lines it wrote last
 * ("stopped") still wait in the pipe for this process's next read.
 */
async function allRead(ended: Promise<void>, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([ended, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: output pipes still open 5 s after the processes exited`)), 5_000)))]);
  clearTimeout(timer);
}

async function served(start: NpmStart) {
  const response = await fetch(`${start.url}/v1/orgs`, { headers: { authorization: `Bearer ${token}`, 'x-request-id': 'last-before-stop' } });
  assert.is(response.status, 200);
}

async function assertCleanShutdown(start: NpmStart, reason: RegExp) {
  await allRead(start.outputEnded, 'npm start');
  const lines = start
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { message?: string; requestId?: string });
  assert.ok(
    lines.some((line) => reason.test(line.message ?? '')),
    `a "shutting down" line:\n${start.output()}`,
  );
  // The shutdown's own time, from the signal to the dev server gone (its last step): within 5 s.
  const stopped = lines.find((line) => line.message === 'stopped') as { ms?: number } | undefined;
  assert.ok(stopped, `the shutdown finished:\n${start.output()}`);
  assert.ok(stopped.ms! < 5000, `stopped in ${stopped.ms} ms:\n${start.output()}`);
  assert.not.match(start.output(), /shutdown took over/, 'the shutdown finished by itself, not at the grace period');
  assert.ok(
    lines.some((line) => line.requestId === 'last-before-stop'),
    `the last access-log line was written:\n${start.output()}`,
  );
}

for (const [name, send, reason] of [
  ['SIGTERM to npm’s own pid (kill <pid>, process managers)', (start: NpmStart) => kill(start.npm.pid!, 'SIGTERM'), /shutting down: (received SIGTERM|its parent process)/],
  ['SIGTERM to the process group (timeout, service managers, container runtimes)', (start: NpmStart) => kill(-start.npm.pid!, 'SIGTERM'), /shutting down: received SIGTERM/],
  ['SIGINT to the process group (Ctrl-C)', (start: NpmStart) => kill(-start.npm.pid!, 'SIGINT'), /shutting down: received SIGINT/],
] as const) {
  test(`${name}: the API, the worker and the dev server stop within 5 s, the shutdown logged`, async () => {
    const start = await npmStart();
    await served(start);
    send(start);
    await allGone([start.npm.pid!, start.quire, ...start.devServer], 'npm, Quire and the dev server');
    await assertCleanShutdown(start, reason);
    await fetch(`${start.url}/v1/`).then(
      () => assert.unreachable('the API still answers'),
      () => undefined,
    );
  });
}

test('SIGTERM while a worker thread is busy with a request’s input: the thread is stopped, not waited for', async () => {
  // A task limit far beyond the test, so only the shutdown can end the task.
  const start = await npmStart({ QUIRE_TASK_LIMIT_MS: '600000' });
  const call = async (method: string, path: string, body?: unknown) =>
    (
      await fetch(`${start.url}/v1${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
    ).json();
  const [organization] = (await call('GET', '/orgs')).items;
  const space = await call('POST', `/orgs/${organization.id}/spaces`, { title: 'Busy' });
  const changeRequest = await call('POST', `/spaces/${space.id}/change-requests`, { subject: 'Slow' });
  // A page of 16,000 links (880 KB): seconds of parsing, none of it refused before it starts.
  const links = Array.from({ length: 16_000 }, (_, i) => `- [Link number ${i}](guides/page-${i}.md) and words`).join('\n');
  const slow = call('POST', `/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', title: 'Links', document: { markdown: links } }] }).catch(
    () => 'cut off',
  );
  await until('the pool to be busy', async () => /^quire_worker_pool_running [1-9]/m.test(await (await fetch(`${start.url}/metrics`)).text()), 10_000, 50);
  await served(start);
  assert.match(await (await fetch(`${start.url}/metrics`)).text(), /^quire_worker_pool_running [1-9]/m, 'still parsing as the signal is sent');
  kill(start.npm.pid!, 'SIGTERM');
  await allGone([start.npm.pid!, start.quire, ...start.devServer], 'npm, Quire and the dev server');
  await assertCleanShutdown(start, /shutting down: (received SIGTERM|its parent process)/);
  assert.not.match(start.output(), /shutdown took over/, 'the shutdown finished by itself, not at the grace period');
  await slow;
});

test('SIGKILL to Quire: the dev server can’t outlive it', async () => {
  const start = await npmStart();
  kill(start.quire, 'SIGKILL');
  await allGone(start.devServer, 'the dev server, once Quire was killed');
  kill(-start.npm.pid!, 'SIGKILL');
});

test('SIGKILL to npm: Quire notices it is orphaned and shuts down, the dev server with it', async () => {
  const start = await npmStart();
  await served(start);
  kill(start.npm.pid!, 'SIGKILL');
  await allGone([start.quire, ...start.devServer], 'Quire and the dev server');
});

test('npm run worker: SIGTERM to npm’s pid stops the worker within 5 s, the shutdown logged', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-signals-worker-'));
  dirs.push(dataDir);
  const { address, namespace, taskQueue } = await testTemporalSettings();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace, QUIRE_TASK_QUEUE: taskQueue };
  delete env.QUIRE_WORKFLOW_BUNDLE; // the bundle `npm run build` writes to dist/, as in production
  const npm = spawn('npm', ['run', 'worker'], { cwd: projectRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  leftovers.push(npm.pid!);
  const outputEnded = new Promise<void>((resolve) => npm.once('close', () => resolve()));
  let output = '';
  const ready = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run worker not ready in 120 s:\n${output}`)), 120_000);
    const look = (chunk: Buffer) => {
      output += chunk;
      const line = output.split('\n').find((text) => text.includes('"message":"Quire worker is running"'));
      if (!line) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as { pid: number }).pid);
    };
    npm.stdout!.on('data', look);
    npm.stderr!.on('data', look);
  });
  const worker = await ready;
  leftovers.push(worker);
  kill(npm.pid!, 'SIGTERM');
  await allGone([npm.pid!, worker], 'npm and the worker');
  await allRead(outputEnded, 'npm run worker');
  assert.match(output, /shutting down: (received SIGTERM|its parent process)/);
  const stopped = output.split('\n').find((line) => line.includes('"message":"stopped"'));
  assert.ok(stopped, output);
  assert.ok((JSON.parse(stopped) as { ms: number }).ms < 5000, `stopped in ${stopped}`);
});

test.run();
