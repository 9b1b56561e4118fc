import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { log } from '../../domain/common/log.js';

export interface DevServerOptions {
  /** The `temporal` CLI (see temporalCli.ts). */
  cli: string;
  /** Where its state file, pid file and log go; without it, workflows live in memory only. */
  stateDir?: string;
  ip?: string;
  /** 0: any free port (tried again on others if it is taken before the dev server binds it). */
  port: number;
  /** The web UI's port (0: any free port); omitted, the UI is off. */
  uiPort?: number;
  namespace?: string;
}

export interface DevServer {
  address: string;
  uiUrl?: string;
  pid: number;
  stop(): Promise<void>;
}

const readyTimeoutMs = 30_000;

/**
 * `sh -c guard temporal-dev-guard <cli> <args…>`: runs the CLI, and stops it when stdin reaches
 * its end (the pipe's writer, Quire, is gone) or when the guard gets SIGTERM or SIGINT; it exits
 * with the CLI's status once the CLI has exited.
 */
const guard = `
exec 3<&0
"$@" </dev/null 3<&- &
server=$!
trap 'kill -TERM "$server" 2>/dev/null' TERM INT
(read -r _ <&3; kill -TERM "$server" 2>/dev/null) &
watcher=$!
exec 3<&-
wait "$server"; code=$?
while kill -0 "$server" 2>/dev/null; do wait "$server"; code=$?; done
kill "$watcher" 2>/dev/null
exit "$code"
`;

interface PidFile {
  pid: number;
  /** The Quire process that started it. */
  owner: number;
  address: string;
}

/**
 * `temporal server start-dev`, persisting to `<stateDir>/dev-server.sqlite` so pending timers
 * survive a restart. A dev server left running by an earlier crash of ours (its pid file says
 * so) is stopped first: it holds the state file and the port.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  // A port found free can be taken by another process before the dev server binds it, which then
  // exits at once: ports chosen here are chosen again. The CLI does the same for ports of its own
  // (its HTTP API and metrics, any free ones), so a dev server that exits before serving on ports
  // it was given (found free just before: startOnPorts checks) is started again on them.
  for (let attempt = 1; ; attempt += 1) {
    const ports = { port: options.port || (await freePort()), uiPort: options.uiPort === 0 ? await freePort() : options.uiPort };
    try {
      return await startOnPorts({ ...options, ...ports });
    } catch (error) {
      if (!(error instanceof ExitedBeforeServing) || attempt >= 5) throw error;
      log.warn(`the Temporal dev server exited before serving ${error.address}; starting it again${options.port === 0 || options.uiPort === 0 ? ' on other ports' : ''}`);
    }
  }
}

/** The dev server exited before it answered: most often, a port it needs was taken. */
class ExitedBeforeServing extends Error {
  constructor(
    readonly address: string,
    message: string,
  ) {
    super(message);
  }
}

async function startOnPorts(options: DevServerOptions): Promise<DevServer> {
  const ip = options.ip ?? '127.0.0.1';
  const address = `${ip}:${options.port}`;
  const args = ['server', 'start-dev', '--ip', ip, '--port', String(options.port), '--log-level', 'warn', '--namespace', options.namespace ?? 'default'];
  args.push(...(options.uiPort ? ['--ui-port', String(options.uiPort), '--ui-ip', ip] : ['--headless']));
  args.push(...devServerTuning.flatMap((setting) => ['--dynamic-config-value', setting]));
  let logFd: number | 'ignore' = 'ignore';
  let pidFile: string | undefined;
  if (options.stateDir) {
    mkdirSync(options.stateDir, { recursive: true });
    pidFile = path.join(options.stateDir, 'dev-server.pid.json');
    await stopLeftover(pidFile);
  }
  // Something already on the port would answer our readiness check in our server's place.
  for (const port of [options.port, options.uiPort]) {
    if (port && !(await isFree(ip, port))) {
      throw new Error(
        `Port ${port} on ${ip} is taken, so the local Temporal dev server can't start: set TEMPORAL_ADDRESS to use a Temporal server already running, or choose other ports (QUIRE_TEMPORAL_PORT, QUIRE_TEMPORAL_UI_PORT)`,
      );
    }
  }
  if (options.stateDir) {
    args.push('--db-filename', path.join(options.stateDir, 'dev-server.sqlite'));
    logFd = openSync(path.join(options.stateDir, 'dev-server.log'), 'a');
  }
  // Its own process group: a Ctrl-C in the terminal reaches Quire, which stops it last, after the
  // worker. It runs under a guard that stops it when its stdin, a pipe from this process, closes:
  // however this process ends, SIGKILL included, the dev server can't outlive it.
  const child = spawn('sh', ['-c', guard, 'temporal-dev-guard', options.cli, ...args], { stdio: ['pipe', logFd, logFd], detached: true });
  child.unref(); // its owner decides how long it runs, and stops it
  child.stdin?.on('error', () => undefined); // nothing is ever written; the guard gone is no error here
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  if (typeof logFd === 'number') closeSync(logFd);
  if (pidFile && child.pid) writeFileSync(pidFile, JSON.stringify({ pid: child.pid, owner: process.pid, address } satisfies PidFile));
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(-1)); // could not start at all: reported as an early exit
  });

  try {
    await waitUntilServing(address, exited, options.stateDir);
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`The Temporal dev server exited as it became ready (code ${child.exitCode})`);
  } catch (error) {
    await stopChild(child, exited);
    if (pidFile) rmSync(pidFile, { force: true });
    throw error;
  }
  return {
    address,
    uiUrl: options.uiPort ? `http://${ip}:${options.uiPort}` : undefined,
    pid: child.pid ?? -1,
    stop: async () => {
      await stopChild(child, exited);
      if (pidFile) rmSync(pidFile, { force: true });
    },
  };
}

/**
 * Activities start in the answer to the workflow task that schedules them (eager execution, which
 * the worker asks for and the server refuses unless told). Any other task (a workflow task after a
 * signal, an activity not run eagerly) reaches matching through the history shard's transfer queue,
 * which reads new tasks at most `history.transferProcessorMaxPollRPS` times a second (20 unless
 * told): past a second of steady work, each such hop waited for the next read, about 40 ms (issue
 * 21; non-eager, a conversation from post to processed went from 55–60 ms to 75–95 ms after 15
 * posts in a row, and stayed at 40–50 ms with the limit raised).
 */
const devServerTuning = ['system.enableActivityEagerExecution=true', 'history.transferProcessorMaxPollRPS=1000'];

async function waitUntilServing(address: string, exited: Promise<number | null>, stateDir: string | undefined): Promise<void> {
  const deadline = Date.now() + readyTimeoutMs;
  let early: number | null | undefined;
  void exited.then((code) => (early = code));
  while (Date.now() < deadline) {
    if (early !== undefined) {
      const log = stateDir ? ` (see ${path.join(stateDir, 'dev-server.log')})` : '';
      throw new ExitedBeforeServing(address, `The Temporal dev server exited with code ${early} before it served ${address}: is the port taken?${log}`);
    }
    if (await answers(address)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The Temporal dev server did not answer on ${address} within ${readyTimeoutMs / 1000} s`);
}

/** Whether a Temporal frontend at the address says it is serving. */
export async function answers(address: string, timeoutMs = 1000): Promise<boolean> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address, connectTimeout: timeoutMs });
    const health = await connection.withDeadline(Date.now() + timeoutMs, () => connection!.healthService.check({}));
    return health.status === 1; // SERVING
  } catch {
    return false;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

/** SIGTERM to the guard's process group (the guard, the CLI, the watcher); SIGKILL after 5 s. */
async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const group = -child.pid;
  signalGroup(group, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(group, 'SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

function signalGroup(group: number, signal: NodeJS.Signals) {
  try {
    process.kill(group, signal);
  } catch {
    // already gone
  }
}

async function stopLeftover(pidFile: string): Promise<void> {
  if (!existsSync(pidFile)) return;
  let leftover: PidFile | undefined;
  try {
    leftover = JSON.parse(readFileSync(pidFile, 'utf8')) as PidFile;
  } catch {
    leftover = undefined;
  }
  if (leftover && leftover.owner !== process.pid && isQuire(leftover.owner)) {
    throw new Error(`${path.dirname(pidFile)} is in use by the Quire process ${leftover.owner}, which runs the dev server there: stop it first, or use another DATA_DIR`);
  }
  if (leftover && isDevServer(leftover.pid)) {
    log.warn(`stopping the Temporal dev server left running (pid ${leftover.pid}) by an earlier run`);
    signalLeftover(leftover.pid, 'SIGTERM');
    for (let waited = 0; isDevServer(leftover.pid); waited += 100) {
      if (waited === 5000) signalLeftover(leftover.pid, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  rmSync(pidFile, { force: true });
}

/** A guard leads its own process group (the CLI inside it); a dev server started otherwise, just itself. */
function signalLeftover(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    signalGroup(pid, signal);
  }
}

/** The command line of a live process (not a zombie), or undefined. Reads /proc: Linux only. */
function commandLineOf(pid: number): string | undefined {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state === 'Z' ? undefined : readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
}

/** Alive, and a `temporal server start-dev` (a recycled pid belongs to something else). */
const isDevServer = (pid: number) => commandLineOf(pid)?.includes('start-dev') ?? false;
/** Alive, and a Node process, as Quire is. */
const isQuire = (pid: number) => commandLineOf(pid)?.includes('node') ?? false;

function isFree(ip: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, ip, () => server.close(() => resolve(true)));
  });
}

/** A port nothing listens on right now, for dev servers in tests and benchmarks. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
