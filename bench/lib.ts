import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startDevServer, type DevServer } from '../workflows/runtime/devServer.js';
import { ensureTemporalCli } from '../workflows/runtime/temporalCli.js';
import { seedOrganization } from './seed.js';

export const root = fileURLToPath(new URL('../', import.meta.url));
const tempDirs: string[] = [];
/** A data directory of the benchmark's own, removed when the benchmark process exits. */
/**
 * How `npm start` runs the server: package.json's start script (`[NAME=value …] exec node [flags]
 * dist/api/main.js`) read here, so the benchmarks run the very process a deployment runs, its
 * environment settings and V8 flags included.
 */
function startedServer(): { args: string[]; env: Record<string, string> } {
  const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const started = /((?:[A-Z_]+=\S+\s+)*)exec node ((?:--\S+\s+)*)dist\/api\/main\.js/.exec(scripts.start ?? '');
  if (!started) throw new Error('package.json\'s start script no longer reads "[NAME=value …] exec node [flags] dist/api/main.js"');
  const words = (text = '') => text.split(/\s+/).filter(Boolean);
  return {
    env: Object.fromEntries(words(started[1]).map((setting) => [setting.slice(0, setting.indexOf('=')), setting.slice(setting.indexOf('=') + 1)])),
    args: [...words(started[2]), path.join(root, 'dist/api/main.js')],
  };
}
const quireServer = startedServer();

/**
 * Starts the built server as `npm start` does, with `env` besides (its data directory, port,
 * Temporal). Rate limits are off: a benchmark measures what the server can do, not the limit.
 */
export const spawnQuire = (env: Record<string, string>) => spawnServer([...profiling(), ...quireServer.args], { ...quireServer.env, QUIRE_RATE_LIMIT: 'off', ...env });

/** With QUIRE_BENCH_CPU_PROFILE=<folder>, each server writes a V8 CPU profile there as it exits (for `npm run -s profile:top`). */
const profiling = () => (process.env.QUIRE_BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.QUIRE_BENCH_CPU_PROFILE}`] : []);

export const tempDataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-'));
  tempDirs.push(dir);
  return dir;
};
process.once('exit', () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Drops the OS page cache (root only: `echo 1 > /proc/sys/vm/drop_caches`, after a sync), so a
 * read after a restart comes from disk. Says what it could do, for the figure's label.
 */
export function dropPageCache(): 'dropped' | 'not permitted' {
  try {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '1');
    return 'dropped';
  } catch {
    return 'not permitted';
  }
}

export interface Spawned {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a server process and waits for the line announcing its port (or URL), on either stream:
 * Quire's logger writes information to stdout, the bare servers write to stderr.
 */
export function spawnServer(args: string[], env: Record<string, string> = {}): Promise<Spawned> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${output}`)));
    const onData = (chunk: Buffer) => {
      output += chunk;
      const port = /ready (\d+)/.exec(output)?.[1];
      const url = /"url":"([^"]+)"/.exec(output)?.[1] ?? (port && `http://127.0.0.1:${port}`);
      if (!url) return;
      for (const stream of [child.stdout!, child.stderr!]) {
        stream.off('data', onData);
        stream.resume(); // drained, not kept: the access log would fill memory
      }
      child.removeAllListeners('exit');
      resolve({
        child,
        url,
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
  });
}

/** Sequential requests: the latency one client sees, without queueing behind others. */
export async function latency(url: string, headers: Record<string, string>, count: number): Promise<{ median: number; p95: number }> {
  const samples: number[] = [];
  for (let i = 0; i < count + 20; i += 1) {
    const started = process.hrtime.bigint();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    if (i >= 20) samples.push(Number(process.hrtime.bigint() - started) / 1e6); // the first 20 warm up
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)]!, p95: samples[Math.floor(samples.length * 0.95)]! };
}

/** Requests per second under autocannon's load: 10 connections for `seconds`. */
export async function throughput(url: string, headers: Record<string, string>, seconds: number): Promise<number> {
  const result = await autocannon({ url, headers, connections: 10, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

export const fmt = (n: number, digits = 2) => n.toFixed(digits);

/** `npm run build`, as `npm start` runs it: the compiled server and the workflow bundle. */
export function buildQuire(): void {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
}

let benchTemporal: Promise<DevServer> | undefined;

/** One in-memory Temporal dev server for the benchmarks that aren't about Temporal: TEMPORAL_ADDRESS for their servers. */
export async function sharedTemporalAddress(): Promise<string> {
  benchTemporal ??= ensureTemporalCli().then(async (cli) => {
    const server = await startDevServer({ cli, port: 0 });
    process.once('exit', () => process.kill(server.pid, 'SIGKILL'));
    return server;
  });
  return (await benchTemporal).address;
}

export const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
/** Median with the smallest and largest sample: `12.3 (10.1–15.8, n=5)`. */
export const spread = (samples: number[], digits = 1) => `${fmt(median(samples), digits)} (${fmt(Math.min(...samples), digits)}–${fmt(Math.max(...samples), digits)}, n=${samples.length})`;

/**
 * The disk's latency for one durable small write as the engine makes it (a new file written and
 * synced, renamed, its folder synced): median of 20, in the folder the benchmarks' data lives in.
 * Write figures move with it (it varied 0.5–2.4 ms within one session on the development VM).
 */
export function durableWriteMs(): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-disk-'));
  try {
    const times: number[] = [];
    for (let round = 0; round < 20; round += 1) {
      const started = process.hrtime.bigint();
      const temporary = path.join(dir, `tmp-${round}`);
      const fd = openSync(temporary, 'w');
      writeSync(fd, Buffer.alloc(1024, round));
      fsyncSync(fd);
      closeSync(fd);
      renameSync(temporary, path.join(dir, `file-${round}`));
      const folder = openSync(dir, 'r');
      fsyncSync(folder);
      closeSync(folder);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    return median(times);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A built Quire over a new data folder with a seeded organization (its admin's token), and a
 * JSON caller of its API (another token's headers may be given): what the git and published
 * benchmarks start from. `scratch` is a work folder inside the data folder.
 */
export async function quireWithOrganization() {
  buildQuire();
  const dataDir = tempDataDir();
  const scratch = mkdtempSync(path.join(dataDir, 'work-'));
  const { organizationId, token } = await seedOrganization(dataDir, 1);
  const server = await spawnQuire({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS: await sharedTemporalAddress() });
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const api = async (method: string, route: string, body?: unknown, auth: Record<string, string> = headers) => {
    const response = await fetch(`${server.url}/v1${route}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${await response.text()}`);
    return response.json() as Promise<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a few fields of several shapes
  };
  return { dataDir, scratch, organizationId, token, server, api };
}
