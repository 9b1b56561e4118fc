import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freePort, startDevServer, type DevServer } from '../workflows/runtime/devServer.js';
import { ensureTemporalCli } from '../workflows/runtime/temporalCli.js';

export const root = fileURLToPath(new URL('../', import.meta.url));
export const tempDataDir = () => mkdtempSync(path.join(tmpdir(), 'quire-bench-'));

export interface Spawned {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** Starts a server process and waits for the line announcing its port (or URL). */
export function spawnServer(args: string[], env: Record<string, string> = {}): Promise<Spawned> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${err}`)));
    const onData = (chunk: Buffer) => {
      err += chunk;
      const port = /ready (\d+)/.exec(err)?.[1];
      const url = /"url":"([^"]+)"/.exec(err)?.[1] ?? (port && `http://127.0.0.1:${port}`);
      if (!url) return;
      child.stderr!.off('data', onData);
      child.stderr!.resume();
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
    const server = await startDevServer({ cli, port: await freePort() });
    process.once('exit', () => process.kill(server.pid, 'SIGKILL'));
    return server;
  });
  return (await benchTemporal).address;
}

export const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
