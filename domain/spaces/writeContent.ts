import { type Change, commitOnHead, primaryBranch, readRevision, RefConflictError, type Repository } from '../../engine/index.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { UserRecord } from '../../storage/users.js';
import { authorOf } from './spaces.js';
import type { ContentDeps } from '../common/deps.js';
import { spaceLocked } from '../common/errors.js';
import { primaryBranchMoved } from './primaryHead.js';

export interface ContentWrite {
  space: SpaceRecord;
  /** The branch written; the primary branch unless a change request's. */
  branch?: string;
  /** The changes to make, worked out from the branch's head as it is when the commit is built. */
  changes: (repo: Repository, head: string | null) => Promise<Change[]> | Change[];
  message: string;
  author: UserRecord;
}

/**
 * The new commit's revision is derived while its branch move syncs: the next batch on the branch,
 * the read after the write and the search refresh all start from it. A failure is left to them.
 */
const deriveAhead = (repo: Repository) => (commit: string) => void readRevision(repo, commit).catch(() => undefined);

/** Other writers moving the branch meanwhile: worked out again from the new head, a few times at most. */
const attempts = 5;

/**
 * The one path every content writer takes (the API, change requests, translations, imports):
 * a locked space refuses, the changes become one commit on the branch through the engine's
 * locked compare-and-swap, and the search index follows the primary branch.
 */
export async function writeContent(deps: ContentDeps, write: ContentWrite): Promise<{ commit: string }> {
  if (write.space.editMode === 'locked') throw spaceLocked(write.space.id);
  const repo = deps.repositories.open(write.space.id);
  const branch = write.branch ?? primaryBranch;
  for (let attempt = 1; ; attempt++) {
    try {
      // The changes are worked out under the repository lock: concurrent writers queue, none retries.
      const { commit } = await commitOnHead({ repo, branch, derive: (head) => write.changes(repo, head), message: write.message, author: authorOf(write.author), whileLanding: deriveAhead(repo) });
      if (branch === primaryBranch) await primaryBranchMoved(deps, write.space.id);
      return { commit };
    } catch (error) {
      if (!(error instanceof RefConflictError) || attempt === attempts) throw error;
    }
  }
}
