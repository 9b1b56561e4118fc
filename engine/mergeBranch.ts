import type { Author } from './change.js';
import { commitTreeHoldingLock } from './commitTree.js';
import { isAncestor } from './git/ancestry.js';
import { syncWrittenFolders } from './internal/gitFs.js';
import { withRepositoryLock } from './lock.js';
import { mergePages, type PageConflictReason } from './internal/mergePages.js';
import { mergeTrees, type PathConflictReason } from './internal/mergeTrees.js';
import { readCommit } from './objects/readCommit.js';
import { readBranch } from './readBranch.js';
import { RevisionNotFoundError } from './errors/index.js';
import type { Repository } from './repository.js';

export type MergeConflict = { kind: 'page'; pageId: string; title: string; reason: PageConflictReason } | { kind: 'file'; path: string; reason: PathConflictReason };

export interface MergeBranchInput {
  repo: Repository;
  /** The branch that receives the merge commit ("ours"). */
  into: string;
  /** The commit merged into it ("theirs"). */
  from: string;
  /** Their common ancestor. */
  base: string;
  message: string;
  author: Author;
  /** Sides chosen for conflicting pages, by page id. */
  resolve?: ReadonlyMap<string, 'ours' | 'theirs'>;
  /** Decides, under the lock and before the branch moves, whether the merge commit may land (see CommitTreeInput). */
  beforeLanding?: (commit: string) => Promise<void>;
}

export type MergeBranchResult = { merged: true; commit: string; tree: string } | { merged: false; head: string; conflicts: MergeConflict[] };

/** Where the merge of texts isn't enough: the table of contents, and pages added, deleted or moved on one side, or edited apart. */
const structural = (path: string, reason: 'both-changed' | PathConflictReason) => path === 'SUMMARY.md' || (path.endsWith('.md') && reason !== 'both-changed');

/**
 * Merges `from` into the branch `into` as a merge commit with both parents, under the repository
 * lock: trees first (mergeTrees: untouched folders are never read), and the page structure by id
 * (mergePages) only when the table of contents or a page's place changed on both sides, or a page
 * edit clashes. On conflicts nothing is written to any branch and they are returned.
 */
export function mergeBranch(input: MergeBranchInput): Promise<MergeBranchResult> {
  const { repo } = input;
  return withRepositoryLock(repo.gitdir, async () => {
    const head = await readBranch(repo, input.into);
    if (!head) throw new RevisionNotFoundError(input.into);
    // Nothing to merge (an empty change request): the branch stays where it is, as git's "Already up to date".
    // A merge commit would name one parent twice, which git itself never writes.
    if (input.from === head || (await isAncestor(repo.gitdir, input.from, head))) {
      await input.beforeLanding?.(head);
      return { merged: true, commit: head, tree: (await readCommit(repo, head)).tree };
    }
    const [base, ours, theirs] = await Promise.all([readCommit(repo, input.base), readCommit(repo, head), readCommit(repo, input.from)]);
    const result = await mergeOnHead(input, head, base.tree, ours.tree, theirs.tree);
    // Objects written for a merge that meets conflicts are synced too: a folder left pending would
    // fail the next commit of any repository if this one were deleted meanwhile.
    if (!result.merged) await syncWrittenFolders();
    return result;
  });
}

async function mergeOnHead(input: MergeBranchInput, head: string, baseTree: string, oursTree: string, theirsTree: string): Promise<MergeBranchResult> {
  const { repo } = input;
  const files = await mergeTrees(repo, baseTree, oursTree, theirsTree, { isStructural: structural });
  const fileConflicts: MergeConflict[] = files.conflicts.map((conflict) => ({ kind: 'file', ...conflict }));
  let tree = files.tree;
  if (files.structural.length || input.resolve?.size) {
    const pages = await mergePages({ repo, base: input.base, ours: head, theirs: input.from, filesTree: files.tree, resolve: (id) => input.resolve?.get(id) });
    if ('conflicts' in pages) return { merged: false, head, conflicts: [...pages.conflicts.map((conflict): MergeConflict => ({ kind: 'page', ...conflict })), ...fileConflicts] };
    tree = pages.tree;
  }
  if (fileConflicts.length) return { merged: false, head, conflicts: fileConflicts };
  const commit = await commitTreeHoldingLock({
    repo,
    branch: input.into,
    expected: head,
    tree,
    parents: [head, input.from],
    message: input.message,
    author: input.author,
    beforeLanding: input.beforeLanding,
  });
  return { merged: true, ...commit };
}
