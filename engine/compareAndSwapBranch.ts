import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { RefConflictError, RepositoryBusyError, RepositoryMovingError } from './errors/index.js';
import { isFrozen } from './internal/frozenRepository.js';
import { syncDirectory, writeSynced } from './internal/gitFs.js';
import { forgetRefStat, readBranch } from './readBranch.js';
import { branchRef, type Repository } from './repository.js';

/** How long to wait for git itself to finish with a ref it has locked (it holds one for milliseconds). */
const gitLockWaitMs = 2_000;

/**
 * Moves a branch to `next` only if it still points at `expected` (null: the branch must not
 * exist). Call it holding the repository lock.
 *
 * Real git (a `git push`, `git gc`, `git update-ref` on the same repository) locks a ref by
 * creating `<ref>.lock` exclusively, and so does this, so neither overwrites the other: the new
 * value is written to a file of Quire's own (`quire-tmp/`), hard-linked to `<ref>.lock` (which
 * fails if git holds it: then wait, then RepositoryBusyError, never delete git's lock), compared
 * with the branch while holding it, and renamed over the loose ref. A crash leaves the old or the
 * new commit; a `<ref>.lock` left by a crashed Quire writer is recognised as the same file as its
 * own temporary one and cleared. With `after`, the branch moves only once it has settled (and
 * not if it fails): what must be durable first is waited for while the new value is written.
 */
export async function compareAndSwapBranch(repo: Repository, branch: string, expected: string | null, next: string, options: { after?: Promise<unknown> } = {}): Promise<void> {
  const ref = branchRef(branch);
  const refPath = path.join(repo.gitdir, ref);
  const gitLock = `${refPath}.lock`;
  const ours = path.join(repo.gitdir, 'quire-tmp', `${ref.replaceAll('/', '%')}.${randomBytes(4).toString('hex')}`);
  options.after?.catch(() => undefined); // awaited below; a failure before then isn't left unhandled
  // The metadata steps are inline, the syncs off the event loop (see gitFs).
  mkdirSync(path.dirname(refPath), { recursive: true });
  mkdirSync(path.dirname(ours), { recursive: true });
  clearCrashedWrites(path.dirname(ours), ref.replaceAll('/', '%'), gitLock);
  try {
    // The new value is written while `after` (the new objects' folders being synced) finishes.
    await Promise.all([writeSynced(ours, Buffer.from(`${next}\n`), 'wx'), options.after]);
    await takeGitLock(ours, gitLock, ref);
    try {
      // Checked holding the ref's lock, under the repository lock the freeze is taken under too.
      if (isFrozen(repo.gitdir)) throw new RepositoryMovingError(repo.gitdir);
      const actual = await readBranch(repo, branch);
      if (actual !== expected) throw new RefConflictError(ref, expected, actual);
      renameSync(gitLock, refPath);
      forgetRefStat(repo, branch);
    } catch (error) {
      rmSync(gitLock, { force: true });
      throw error;
    }
    await syncDirectory(path.dirname(refPath));
  } finally {
    rmSync(ours, { force: true });
  }
}

async function takeGitLock(ours: string, gitLock: string, ref: string): Promise<void> {
  const deadline = Date.now() + gitLockWaitMs;
  for (;;) {
    try {
      linkSync(ours, gitLock);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // `git pack-refs` (run by `git gc`, our maintenance) removes the folders it emptied, this
      // ref's among them, between our mkdir and the link: made again, as git does in that race.
      if (code === 'ENOENT' && Date.now() <= deadline) {
        mkdirSync(path.dirname(gitLock), { recursive: true });
        continue;
      }
      if (code !== 'EEXIST') throw error;
    }
    if (Date.now() > deadline) throw new RepositoryBusyError(`git holds ${ref}.lock (another git command is writing ${ref})`);
    await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 20));
  }
}

/**
 * A Quire writer that crashed after linking its file to `<ref>.lock` left both: the lock is then
 * the same file (inode) as one of ours, so it is ours to clear. We hold the repository lock, so no
 * other Quire writer is using these files; a `<ref>.lock` that is no file of ours is git's.
 */
function clearCrashedWrites(folder: string, prefix: string, gitLock: string): void {
  const leftovers = readdirSync(folder).filter((name) => name.startsWith(`${prefix}.`));
  if (leftovers.length === 0) return;
  const lock = statSync(gitLock, { throwIfNoEntry: false });
  for (const name of leftovers) {
    const file = path.join(folder, name);
    const stat = statSync(file, { throwIfNoEntry: false });
    if (lock && stat && stat.ino === lock.ino && stat.dev === lock.dev) rmSync(gitLock, { force: true });
    rmSync(file, { force: true });
  }
}
