import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../workflows/runtime/devServer.js';

export interface FuzzedServer {
  /** `http://127.0.0.1:<port>/v1`, the base URL the spec's paths hang from. */
  base: string;
  token: string;
  dataDir: string;
  logFile: string;
  stop(): Promise<void>;
}

const readyTimeoutMs = 120_000;

/**
 * Quire the way `npm start` runs it (api/main.ts: its own Temporal dev server, the bootstrap admin),
 * over a new temporary DATA_DIR, on a free loopback port; no worker, since the fuzzer only needs
 * deletions to be able to start their jobs, not to run them.
 */
export async function startFuzzedServer(root: string, logFile: string): Promise<FuzzedServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-fuzz-'));
  const token = randomBytes(24).toString('hex');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    QUIRE_BOOTSTRAP_TOKEN: token,
    QUIRE_WORKER: 'off',
    // The fuzzer sends thousands of requests a minute with one token: limits are tested in test/api/rateLimits.test.ts.
    QUIRE_RATE_LIMIT: 'off',
    QUIRE_TEMPORAL_PORT: '0',
    QUIRE_TEMPORAL_UI_PORT: '0',
  };
  delete env.TEMPORAL_ADDRESS;
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'api/main.ts')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}/v1`;
  const stop = async () => {
    await stopChild(child, exited);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(base, exited);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}; its output is in ${logFile}`);
  }
  return { base, token, dataDir, logFile, stop };
}

async function waitUntilServing(base: string, exited: Promise<number | null>): Promise<void> {
  let gone: number | null | undefined;
  void exited.then((code) => (gone = code));
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (gone !== undefined) throw new Error(`Quire exited with code ${gone} before serving`);
    const answered = await fetch(base + '/').then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Quire did not answer on ${base} within ${readyTimeoutMs / 1000} s`);
}

/** SIGTERM, as a service manager stops Quire (it stops its dev server too); SIGKILL if it hangs. */
async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
