import { stageTree } from './buildTree.js';
import type { Author, Change } from './change.js';
import { commitTreeHoldingLock } from './commitTree.js';
import { withRepositoryLock } from './lock.js';
import { readCommit } from './objects/readCommit.js';
import { readBranch } from './readBranch.js';
import type { Repository } from './repository.js';

export interface CommitOnHeadInput {
  repo: Repository;
  branch: string;
  /** The changes, worked out from the branch's head while the repository lock is held. */
  derive: (head: string | null) => Promise<Change[]> | Change[];
  message: string;
  author: Author;
  /** See CommitTreeInput: called with the new commit while the branch move syncs. */
  whileLanding?: (commit: string) => void;
}

/**
 * Reads the branch's head, derives the changes from it and commits them on it, all in one hold of
 * the repository lock: writers of one repository queue instead of racing, so a hundred concurrent
 * batches all land, each on the one before. Throws RefConflictError only if real git moved the
 * branch meanwhile (it doesn't take Quire's lock).
 */
export function commitOnHead(input: CommitOnHeadInput): Promise<{ commit: string; tree: string }> {
  return withRepositoryLock(input.repo.gitdir, async () => {
    const head = await readBranch(input.repo, input.branch);
    const changes = await input.derive(head);
    const baseTree = head ? (await readCommit(input.repo, head)).tree : null;
    const { tree, objects } = await stageTree(input.repo, baseTree, changes);
    return commitTreeHoldingLock({ ...input, expected: head, tree, parents: head ? [head] : [], newObjects: objects });
  });
}
