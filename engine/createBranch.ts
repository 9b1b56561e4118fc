import { compareAndSwapBranch } from './compareAndSwapBranch.js';
import { withRepositoryLock } from './lock.js';
import type { Repository } from './repository.js';

/**
 * A new branch at an existing commit (a change request starting from the primary branch's head),
 * under the repository lock. Throws RefConflictError when the branch already exists.
 */
export function createBranch(repo: Repository, branch: string, commit: string): Promise<void> {
  return withRepositoryLock(repo.gitdir, () => compareAndSwapBranch(repo, branch, null, commit));
}
