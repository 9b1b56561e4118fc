import { stageTree } from './internal/buildTree.js';
import type { Author, Change } from './change.js';
import { commitTreeHoldingLock } from './commitTree.js';
import { RefConflictError } from './errors/index.js';
import { withRepositoryLock } from './lock.js';
import { readCommit } from './objects/readCommit.js';
import { readBranch } from './readBranch.js';
import type { Repository } from './repository.js';

export type { Author, Change } from './change.js';

export interface CommitChangesInput {
  repo: Repository;
  branch: string;
  /** The commit the changes were made against (the new commit's parent); null to create the branch. */
  base: string | null;
  changes: Change[];
  message: string;
  author: Author;
}

/**
 * buildTree then commitTree, in one hold of the repository lock: the changes applied to `base`'s
 * tree land on the branch if it is still at `base` (RefConflictError otherwise, nothing moved).
 */
export function commitChanges(input: CommitChangesInput): Promise<{ commit: string; tree: string }> {
  return withRepositoryLock(input.repo.gitdir, () => commitOnBase(input));
}

/**
 * Like commitChanges, based on wherever the branch is. Only Quire's writers take the repository
 * lock, so real git (a push, `git update-ref`) may still move the branch meanwhile: then the
 * changes are applied again on its new head, after a short random wait, up to 20 times.
 */
export function commitToBranchHead(input: Omit<CommitChangesInput, 'base'>): Promise<{ commit: string; tree: string }> {
  return withRepositoryLock(input.repo.gitdir, async () => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await commitOnBase({ ...input, base: await readBranch(input.repo, input.branch) });
      } catch (error) {
        if (!(error instanceof RefConflictError) || attempt === 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
      }
    }
  });
}

async function commitOnBase(input: CommitChangesInput): Promise<{ commit: string; tree: string }> {
  const baseTree = input.base ? (await readCommit(input.repo, input.base)).tree : null;
  const { tree, objects } = await stageTree(input.repo, baseTree, input.changes);
  return commitTreeHoldingLock({ ...input, expected: input.base, tree, parents: input.base ? [input.base] : [], newObjects: objects });
}
