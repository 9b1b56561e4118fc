import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { testDatabaseUrl } from './postgres.js';

export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** Sends the signal (SIGKILL to its whole process group) and resolves with the exit code and how long the exit took. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
}

/**
 * Starts `api/main.ts` as its own OS process, as `npm start` does, and waits until it says it is
 * ready. Without TEMPORAL_ADDRESS it runs its own Temporal dev server, on free ports unless given.
 */
export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const ports: Record<string, string> = env.TEMPORAL_ADDRESS || env.QUIRE_TEMPORAL_PORT ? {} : { QUIRE_TEMPORAL_PORT: '0', QUIRE_TEMPORAL_UI_PORT: '0' };
  return startProcess('api/main.ts', { HOST: '127.0.0.1', PORT: '0', ...ports, ...env }, /"message":"Quire is ready","url":"([^"]+)"/);
}

/** Starts `workflows/main.ts` (what `npm run worker` runs) and waits until it polls. */
export function startWorkerProcess(env: Record<string, string>): Promise<ServiceProcess> {
  return startProcess('workflows/main.ts', env, /"message":"Quire worker is running"()/);
}

/** On a PostgreSQL test run, the database of the process's data directory. */
async function withDatabase(env: Record<string, string>): Promise<Record<string, string>> {
  const url = env.DATA_DIR && !env.QUIRE_DATABASE_URL ? await testDatabaseUrl(env.DATA_DIR) : undefined;
  return url ? { ...env, QUIRE_DATABASE_URL: url } : env;
}

async function startProcess(entry: string, env: Record<string, string>, ready: RegExp): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: projectRoot,
    env: { ...process.env, ...(await withDatabase(env)) },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own, so that a SIGKILL takes what it started with it (below).
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child.pid!);
      reject(new Error(`${entry} not ready in 20 s:\n${out}${err}`));
    }, 20_000);
    child.on('exit', (code) => reject(new Error(`${entry} exited with ${code}:\n${out}${err}`)));
    // The logger writes to stdout (domain/common/log.ts); the ready line is looked for on both streams.
    child.stdout!.on('data', () => check());
    child.stderr!.on('data', (chunk) => {
      err += chunk;
      check();
    });
    const check = () => {
      const match = ready.exec(out) ?? ready.exec(err);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        child,
        url: match[1] ?? '',
        stdout: () => out,
        stderr: () => err,
        stop: (signal = 'SIGTERM') =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done({ code: child.exitCode, ms: 0 });
            const started = Date.now();
            child.once('exit', (code) => done({ code, ms: Date.now() - started }));
            // SIGKILL ends the whole group, as systemd (KillMode=control-group) or a container
            // runtime would: a git gc or fetch the node started would otherwise write on into a
            // repository the test is deleting. Other signals go to the process alone, which stops
            // its children itself. (The local Temporal dev server has a group of its own.)
            if (signal === 'SIGKILL') killGroup(child.pid!);
            else child.kill(signal);
          }),
      });
    };
  });
}

/** SIGKILL to the process's group; nothing when it and its group are gone already. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Runs `npm run -s admin -- …` the way an operator would (through tsx directly, for speed). */
export async function runAdmin(args: string[], env: Record<string, string>, options: { stdin?: string } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/cli/admin.ts', ...args], { cwd: projectRoot, env: { ...process.env, ...(await withDatabase(env)) } });
  child.stdin.end(options.stdin ?? '');
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  // 'close', not 'exit': the process can exit before its last output has been read.
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Gives each person a password with the operator's command (`user password`, read from stdin), as an operator would. */
export async function givePasswords(dataDir: string, people: Array<{ email: string }>, password: string): Promise<void> {
  for (const person of people) {
    const set = await runAdmin(['user', 'password', '--email', person.email], { DATA_DIR: dataDir }, { stdin: `${password}\n` });
    if (set.code !== 0) throw new Error(`user password --email ${person.email} exited ${set.code}: ${set.stderr}`);
  }
}
