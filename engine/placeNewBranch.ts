import { compareAndSwapBranch } from './compareAndSwapBranch.js';
import { readBranch } from './readBranch.js';
import { withRepositoryLock } from './lock.js';
import type { Repository } from './repository.js';

/**
 * A change request's branch made while its row is being written: a branch of that name already
 * there was left by a process killed before its row was committed (no row names it), and is
 * taken over.
 */
export function placeNewBranch(repo: Repository, branch: string, commit: string): Promise<void> {
  return withRepositoryLock(repo.gitdir, async () => compareAndSwapBranch(repo, branch, await readBranch(repo, branch), commit));
}
