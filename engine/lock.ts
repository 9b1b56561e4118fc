import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { RepositoryBusyError } from './errors/index.js';

const inProcess = new Map<string, Promise<unknown>>();

/** How long a writer waits for the lock before giving up with RepositoryBusyError. */
const waitLimitMs = 20_000;
/** A holder refreshes its lock's time this often; a lock not refreshed for `staleMs` is abandoned. */
const refreshMs = 2_000;
const staleMs = 10_000;

/** The lock's folder, beside the repository: a name git never uses, removed with nothing of git's. */
export const repositoryLockPath = (gitdir: string) => `${gitdir}.quire-lock`;

/**
 * Runs `work` holding the repository's write lock. Writers in this process queue in memory;
 * writers in other processes (API, Temporal worker, admin tools) meet at a lock folder beside the
 * repository that names its holder (host, pid). A lock whose holder died on this host is taken
 * over at once; one whose holder stopped refreshing it (another host, a reused pid) after 10 s.
 */
export function withRepositoryLock<T>(gitdir: string, work: () => Promise<T>): Promise<T> {
  const previous = inProcess.get(gitdir) ?? Promise.resolve();
  const run = previous.then(
    () => holdFileLock(gitdir, work),
    () => holdFileLock(gitdir, work),
  );
  const settled = run.catch(() => undefined);
  inProcess.set(gitdir, settled);
  void settled.then(() => {
    if (inProcess.get(gitdir) === settled) inProcess.delete(gitdir);
  });
  return run;
}

async function holdFileLock<T>(gitdir: string, work: () => Promise<T>): Promise<T> {
  const lock = repositoryLockPath(gitdir);
  const token = randomBytes(8).toString('hex');
  await acquire(lock, token);
  const refresh = setInterval(() => {
    const now = new Date();
    fs.utimes(lock, now, now).catch((error: Error) =>
      // Losing the lock (this process stalled past 10 s and another writer took it over) must not
      // crash the process; it is logged, as that writer may then have overlapped this one.
      console.error(JSON.stringify({ level: 'warn', message: `repository lock lost: ${error.message}`, gitdir })),
    );
  }, refreshMs);
  refresh.unref();
  try {
    return await work();
  } finally {
    clearInterval(refresh);
    await release(lock, token);
  }
}

async function acquire(lock: string, token: string): Promise<void> {
  const deadline = Date.now() + waitLimitMs;
  for (let attempt = 0; ; attempt += 1) {
    try {
      // Inline, not through the thread pool: creating a folder and a small file take microseconds.
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'owner'), `${hostname()} ${process.pid} ${token}\n`);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (await isAbandoned(lock)) await takeOver(lock);
    else if (Date.now() > deadline) throw new RepositoryBusyError(`another writer has held ${path.basename(lock)} for ${waitLimitMs / 1000} s`);
    else await sleep(Math.min(100, 5 * 1.3 ** attempt) * (0.5 + Math.random()));
  }
}

/** Whether the lock's holder is gone: a dead process of this host, or no refresh for `staleMs`. */
async function isAbandoned(lock: string): Promise<boolean> {
  const [owner, stat] = await Promise.all([fs.readFile(path.join(lock, 'owner'), 'utf8').catch(() => null), fs.stat(lock).catch(() => null)]);
  if (!stat) return false; // released meanwhile: try again
  if (Date.now() - stat.mtimeMs > staleMs) return true;
  if (owner === null) return Date.now() - stat.mtimeMs > refreshMs; // its holder died between creating it and naming itself
  const [host, pid] = owner.trim().split(' ');
  return host === hostname() && !isAlive(Number(pid));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes an abandoned lock. Takeovers are serialized by a second lock folder, so two waiters who
 * both judged the lock abandoned can't remove the lock a third writer has just taken meanwhile: the
 * judgement is made again by the one who holds the takeover lock.
 */
async function takeOver(lock: string): Promise<void> {
  const takeover = `${lock}-takeover`;
  try {
    await fs.mkdir(takeover);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const stat = await fs.stat(takeover).catch(() => null);
    // A takeover lasts milliseconds: one older than a few seconds was left by a crash.
    if (stat && Date.now() - stat.mtimeMs > staleMs / 2) await fs.rm(takeover, { recursive: true, force: true });
    return;
  }
  try {
    if (await isAbandoned(lock)) await fs.rm(lock, { recursive: true, force: true });
  } finally {
    await fs.rm(takeover, { recursive: true, force: true });
  }
}

async function release(lock: string, token: string): Promise<void> {
  let owner = '';
  try {
    owner = readFileSync(path.join(lock, 'owner'), 'utf8');
  } catch {
    return; // taken over meanwhile: not ours to remove
  }
  if (owner.trim().endsWith(` ${token}`)) rmSync(lock, { recursive: true, force: true });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
