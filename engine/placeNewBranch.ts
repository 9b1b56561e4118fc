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

/**
 * The head of `branch`, made at `commit` if it isn't there: for a change request whose row was
 * committed without its branch, which data written before the two were made together (791ecbd)
 * can hold after a process was killed between them. A branch made meanwhile by another writer is
 * kept.
 */
export function placeMissingBranch(repo: Repository, branch: string, commit: string): Promise<string> {
  return withRepositoryLock(repo.gitdir, async () => {
    const head = await readBranch(repo, branch);
    if (head !== null) return head;
    await compareAndSwapBranch(repo, branch, null, commit);
    return commit;
  });
}
