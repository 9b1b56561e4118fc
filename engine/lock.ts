import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { RepositoryBusyError, RepositoryElsewhereError } from './errors/index.js';
import { isProcessAlive } from './internal/processAlive.js';

const inProcess = new Map<string, Promise<unknown>>();

/** How long a writer waits for the lock, in this process's queue and then at the lock folder, before giving up with RepositoryBusyError. */
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
 * A writer gives up after `waitMs` (20 s) in all, even behind a writer of this process that never
 * ends: a hung holder must not hold every later request of its repository open for good.
 */
export function withRepositoryLock<T>(gitdir: string, work: () => Promise<T>, options: { absentOk?: boolean; waitMs?: number } = {}): Promise<T> {
  const waitMs = options.waitMs ?? waitLimitMs;
  const deadline = Date.now() + waitMs;
  // A repository moved to another storage while this writer waited is gone once the lock is had.
  const present = options.absentOk
    ? work
    : () => {
        if (!existsSync(gitdir)) throw new RepositoryElsewhereError(path.basename(gitdir, '.git'));
        return work();
      };
  const previous = inProcess.get(gitdir);
  const run = (previous ? settledBy(previous, deadline) : Promise.resolve()).then(() => holdFileLock(gitdir, present, { deadline, waitMs }));
  const settled = run.catch(() => undefined);
  inProcess.set(gitdir, settled);
  void settled.then(() => {
    if (inProcess.get(gitdir) === settled) inProcess.delete(gitdir);
  });
  return run;
}

/**
 * Resolves once `previous` settles, or at `deadline` if it hasn't: the writer then goes on to the
 * lock folder, which a writer of this process holds as any other's, so it still waits there for a
 * holder that is slow, and gives up at the same deadline.
 */
function settledBy(previous: Promise<unknown>, deadline: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
    const settle = () => {
      clearTimeout(timer);
      resolve();
    };
    previous.then(settle, settle);
  });
}

/** When a writer gives up waiting, and how long it has waited then (for its message). */
interface Wait {
  deadline: number;
  waitMs: number;
}

async function holdFileLock<T>(gitdir: string, work: () => Promise<T>, wait: Wait): Promise<T> {
  const lock = repositoryLockPath(gitdir);
  const token = randomBytes(8).toString('hex');
  await acquire(lock, token, wait);
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

/**
 * Lock folders are made whole in `<lock>-staging/` (owner file written) and renamed into place,
 * so a lock never exists without its owner's name: a writer killed while naming itself left an
 * empty owner file, which read as nobody's and held every other writer for 10 s.
 */
const stagingOf = (lock: string) => `${lock}-staging`;

async function acquire(lock: string, token: string, { deadline, waitMs }: Wait): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    // Inline, not through the thread pool: creating a folder and a small file take microseconds.
    if (tryCreate(lock, token)) return;
    if (await isAbandoned(lock)) await takeOver(lock);
    else if (Date.now() > deadline) throw new RepositoryBusyError(`another writer has held ${path.basename(lock)} for the ${waitMs / 1000} s this one waited`);
    else await sleep(Math.min(100, 5 * 1.3 ** attempt) * (0.5 + Math.random()));
  }
}

/** Makes the lock, named after this writer, in one rename; false when another holds it. */
function tryCreate(lock: string, token: string): boolean {
  const staging = path.join(stagingOf(lock), `${process.pid}.${token}`);
  mkdirSync(staging, { recursive: true });
  writeFileSync(path.join(staging, 'owner'), `${hostname()} ${process.pid} ${token}\n`);
  try {
    renameSync(staging, lock);
    return true;
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // A folder can't be renamed onto one that has files in it: the lock is held.
    if (!['EEXIST', 'ENOTEMPTY', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    sweepStaging(lock);
    return false;
  }
}

/** Staging folders of writers that died before renaming theirs into place (a kill at that instant). */
function sweepStaging(lock: string): void {
  let names: string[];
  try {
    names = readdirSync(stagingOf(lock));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.split('.')[0]);
    if (pid !== process.pid && !isProcessAlive(pid)) rmSync(path.join(stagingOf(lock), name), { recursive: true, force: true });
  }
}

/** Whether the lock's holder is gone: a dead process of this host, or no refresh for `staleMs`. */
async function isAbandoned(lock: string): Promise<boolean> {
  const [owner, stat] = await Promise.all([fs.readFile(path.join(lock, 'owner'), 'utf8').catch(() => null), fs.stat(lock).catch(() => null)]);
  if (!stat) return false; // released meanwhile: try again
  if (Date.now() - stat.mtimeMs > staleMs) return true;
  // Nameless: a lock of an older Quire whose holder died between creating it and naming itself.
  if (owner === null || !/^\S+ \d+ \S+$/.test(owner.trim())) return Date.now() - stat.mtimeMs > refreshMs;
  const [host, pid] = owner.trim().split(' ');
  return host === hostname() && !isProcessAlive(Number(pid));
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
    if (await isAbandoned(lock)) await removeLock(lock);
  } finally {
    await fs.rm(takeover, { recursive: true, force: true });
  }
}

/**
 * Frees the lock's name in one rename, then removes the folder: removed in place, it would be an
 * empty folder for a moment, and a writer's rename onto an empty folder succeeds.
 */
async function removeLock(lock: string): Promise<void> {
  const gone = path.join(stagingOf(lock), `removed.${randomBytes(8).toString('hex')}`);
  try {
    await fs.mkdir(stagingOf(lock), { recursive: true });
    await fs.rename(lock, gone);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  await fs.rm(gone, { recursive: true, force: true });
}

async function release(lock: string, token: string): Promise<void> {
  let owner = '';
  try {
    owner = readFileSync(path.join(lock, 'owner'), 'utf8');
  } catch {
    return; // taken over meanwhile: not ours to remove
  }
  if (!owner.trim().endsWith(` ${token}`)) return;
  const gone = path.join(stagingOf(lock), `released.${token}`);
  mkdirSync(stagingOf(lock), { recursive: true });
  try {
    renameSync(lock, gone);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // taken over meanwhile
    throw error;
  }
  rmSync(gone, { recursive: true, force: true });
}

/** The lock's staging folder, once its repository is gone (the lock itself is removed as it is released). */
export async function forgetRepositoryLock(gitdir: string): Promise<void> {
  await fs.rm(stagingOf(repositoryLockPath(gitdir)), { recursive: true, force: true });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
