import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  /** Sends the signal and resolves with the exit code and how long the exit took. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
}

/** Starts `api/main.ts` as its own OS process, as `npm start` does, and waits until it says it is ready. */
export function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/main.ts'], {
    cwd: projectRoot,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service not ready in 15 s:\n${err}`)), 15_000);
    child.on('exit', (code) => reject(new Error(`service exited with ${code}:\n${err}`)));
    child.stderr!.on('data', (chunk) => {
      err += chunk;
      const ready = /"message":"Quire is ready","url":"([^"]+)"/.exec(err);
      if (!ready?.[1]) return;
      clearTimeout(timer);
      resolve({
        child,
        url: ready[1],
        stdout: () => out,
        stop: (signal = 'SIGTERM') =>
          new Promise((done) => {
            const started = Date.now();
            child.once('exit', (code) => done({ code, ms: Date.now() - started }));
            child.kill(signal);
          }),
      });
    });
  });
}

/** Runs `npm run -s admin -- …` the way an operator would (through tsx directly, for speed). */
export function runAdmin(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/cli/admin.ts', ...args], { cwd: projectRoot, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}
