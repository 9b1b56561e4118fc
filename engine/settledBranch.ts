import { withRepositoryLock } from './lock.js';
import { readBranch } from './readBranch.js';
import type { Repository } from './repository.js';

/**
 * Runs `work` with the branch's head while no writer can move it (under the repository lock):
 * what `work` records of the head can't be overtaken by an older value recorded later.
 */
export function withSettledBranch<T>(repo: Repository, branch: string, work: (head: string | null) => Promise<T>): Promise<T> {
  return withRepositoryLock(repo.gitdir, async () => work(await readBranch(repo, branch)));
}
