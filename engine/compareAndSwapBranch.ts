import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { RefConflictError, RepositoryBusyError } from './errors/index.js';
import { syncDirectory } from './gitFs.js';
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
 * own temporary one and cleared.
 */
export async function compareAndSwapBranch(repo: Repository, branch: string, expected: string | null, next: string): Promise<void> {
  const ref = branchRef(branch);
  const refPath = path.join(repo.gitdir, ref);
  const gitLock = `${refPath}.lock`;
  const ours = path.join(repo.gitdir, 'quire-tmp', `${ref.replaceAll('/', '%')}.${randomBytes(4).toString('hex')}`);
  await fs.mkdir(path.dirname(refPath), { recursive: true });
  await fs.mkdir(path.dirname(ours), { recursive: true });
  await clearCrashedWrites(path.dirname(ours), ref.replaceAll('/', '%'), gitLock);
  await writeDurably(ours, `${next}\n`);
  try {
    await takeGitLock(ours, gitLock, ref);
    try {
      const actual = await readBranch(repo, branch);
      if (actual !== expected) throw new RefConflictError(ref, expected, actual);
      await fs.rename(gitLock, refPath);
      forgetRefStat(repo, branch);
    } catch (error) {
      await fs.rm(gitLock, { force: true });
      throw error;
    }
    await syncDirectory(path.dirname(refPath));
  } finally {
    await fs.rm(ours, { force: true });
  }
}

async function writeDurably(file: string, content: string): Promise<void> {
  const handle = await fs.open(file, 'wx');
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function takeGitLock(ours: string, gitLock: string, ref: string): Promise<void> {
  const deadline = Date.now() + gitLockWaitMs;
  for (;;) {
    try {
      await fs.link(ours, gitLock);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
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
async function clearCrashedWrites(folder: string, prefix: string, gitLock: string): Promise<void> {
  const leftovers = (await fs.readdir(folder)).filter((name) => name.startsWith(`${prefix}.`));
  if (leftovers.length === 0) return;
  const lock = await fs.stat(gitLock).catch(() => null);
  for (const name of leftovers) {
    const file = path.join(folder, name);
    const stat = await fs.stat(file).catch(() => null);
    if (lock && stat && stat.ino === lock.ino && stat.dev === lock.dev) await fs.rm(gitLock, { force: true });
    await fs.rm(file, { force: true });
  }
}
