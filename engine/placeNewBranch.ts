import { compareAndSwapBranch } from './compareAndSwapBranch.js';
import { readBranch } from './readBranch.js';
import { withRepositoryLock } from './lock.js';
import type { Repository } from './repository.js';

/**
 * Runs `work` holding the repository lock, with `place`: it makes a change request's branch at a
 * commit while the row is being written (a branch of that name already there was left by a process
 * killed before its row was committed: no row names it, and it is taken over). The lock comes
 * first and the database inside it, the order every writer keeps (a merge writes its change
 * request's row under the lock): a transaction waiting for the lock while a lock holder waited for
 * the database stalled every write of an SQLite process for good.
 */
export function placingNewBranch<T>(repo: Repository, work: (place: (branch: string, commit: string) => Promise<void>) => Promise<T>): Promise<T> {
  return withRepositoryLock(repo.gitdir, () => work(async (branch, commit) => compareAndSwapBranch(repo, branch, await readBranch(repo, branch), commit)));
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
