import fs from 'node:fs/promises';
import path from 'node:path';
import { RefConflictError } from './errors.js';
import { syncDirectory } from './gitFs.js';
import { branchRef, readBranch, type Repository } from './repository.js';

/**
 * Moves a branch to `next` only if it still points at `expected` (null: the branch must not
 * exist). Call it holding the repository lock. The new value is written to a lock file and
 * renamed over the ref, so a crash leaves the old or the new commit, never a torn ref.
 */
export async function compareAndSwapBranch(repo: Repository, branch: string, expected: string | null, next: string): Promise<void> {
  const actual = await readBranch(repo, branch);
  if (actual !== expected) throw new RefConflictError(branchRef(branch), expected, actual);
  const refPath = path.join(repo.gitdir, branchRef(branch));
  await fs.mkdir(path.dirname(refPath), { recursive: true });
  const temporary = `${refPath}.lock`;
  // We hold the repository lock, so a `.lock` file left here is a crashed writer's: clear it,
  // then take it exclusively, as git does.
  await fs.rm(temporary, { force: true });
  const handle = await fs.open(temporary, 'wx');
  try {
    await handle.writeFile(`${next}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temporary, refPath);
  await syncDirectory(path.dirname(refPath));
}

