import lockfile from 'proper-lockfile';
import { EngineError } from './errors.js';

const inProcess = new Map<string, Promise<unknown>>();

/**
 * Runs `work` holding the repository's write lock. Writers in this process queue in memory;
 * writers in other processes (API, Temporal worker, admin tools) meet at a lock directory beside
 * the repository, which proper-lockfile refreshes while held and treats as stale after 10 s if
 * its holder died.
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
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(gitdir, {
      realpath: false,
      stale: 10_000,
      update: 2_000,
      retries: { retries: 200, factor: 1.3, minTimeout: 5, maxTimeout: 100, randomize: true },
      // Losing the lock (this process stalled past `stale`, 10 s) must not crash the process; it
      // is logged, as a second writer may then have overlapped this one.
      onCompromised: (error) => console.error(JSON.stringify({ level: 'warn', message: `repository lock lost: ${error.message}`, gitdir })),
    });
  } catch (error) {
    throw new EngineError('locked', `the repository is busy: ${(error as Error).message}`);
  }
  try {
    return await work();
  } finally {
    await release().catch(() => undefined);
  }
}
