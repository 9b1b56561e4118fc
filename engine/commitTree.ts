import type { Author } from './change.js';
import { compareAndSwapBranch } from './compareAndSwapBranch.js';
import { syncWrittenFolders } from './internal/gitFs.js';
import { commitContent } from './objects/commitObject.js';
import { objectId } from './objects/hashObject.js';
import { writeLooseObjects, type NewObject } from './objects/loose.js';
import { withRepositoryLock } from './lock.js';
import type { Repository } from './repository.js';

export interface CommitTreeInput {
  repo: Repository;
  branch: string;
  /** Where the branch must be for the commit to land; null: the branch must not exist yet. */
  expected: string | null;
  tree: string;
  /** The new commit's parents: usually `[expected]`, two for a merge, none for a first commit. */
  parents: string[];
  message: string;
  author: Author;
  /** The tree's new objects, not yet written (stageTree): written in one group with the commit object. */
  newObjects?: NewObject[];
  /**
   * Called once the commit's objects are written, while the branch's move is made durable: work
   * on the new commit (deriving its revision for the next reader) runs while the disk syncs.
   */
  whileLanding?: (commit: string) => void;
  /**
   * Called with the commit once its objects are written, before the branch moves: what must be
   * decided together with the move (a change request's status) is decided here. If it throws, the
   * branch stays where it was and the error is the commit's.
   */
  beforeLanding?: (commit: string) => Promise<void>;
}

/**
 * Writes a commit of `tree` with its parents and moves the branch to it from `expected` with a
 * compare-and-swap, under the repository lock: the one durable path by which anything (a change, a
 * template, a merge) lands on a branch. Throws RefConflictError, having moved nothing, when the
 * branch is no longer at `expected`.
 */
export function commitTree(input: CommitTreeInput): Promise<{ commit: string; tree: string }> {
  return withRepositoryLock(input.repo.gitdir, () => commitTreeHoldingLock(input));
}

/** commitTree for a caller that already holds the repository lock. */
export async function commitTreeHoldingLock(input: CommitTreeInput): Promise<{ commit: string; tree: string }> {
  const { oid: commit, content } = commitObject(input);
  await writeLooseObjects(input.repo.gitdir, [...(input.newObjects ?? []), { oid: commit, type: 'commit', content }]);
  await input.beforeLanding?.(commit);
  // Objects are in place, and their names durable, before the branch moves: a crash before the
  // swap leaves only unreachable objects. The folders are synced while the new ref is written.
  const landed = compareAndSwapBranch(input.repo, input.branch, input.expected, commit, { after: syncWrittenFolders() });
  input.whileLanding?.(commit);
  await landed;
  return { commit, tree: input.tree };
}

/** The commit object of `tree` with its parents, by the author, now. */
export function commitObject(input: Pick<CommitTreeInput, 'tree' | 'parents' | 'author' | 'message'>): NewObject {
  const when = { timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
  const person = { name: input.author.name, email: input.author.email, ...when };
  const content = commitContent({ tree: input.tree, parents: input.parents, author: person, committer: person, message: input.message });
  return { oid: objectId('commit', content), type: 'commit', content };
}
