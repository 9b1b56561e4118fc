import { stageTree } from './internal/buildTree.js';
import type { Author, Change } from './change.js';
import { commitObject } from './commitTree.js';
import { compareAndSwapBranch } from './compareAndSwapBranch.js';
import { syncWrittenFolders } from './internal/gitFs.js';
import { withRepositoryLock } from './lock.js';
import { writeLooseObjects, type NewObject } from './objects/loose.js';
import { readCommit } from './objects/readCommit.js';
import { stageObjects, unstageObjects } from './objects/stagedObjects.js';
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

interface Waiting {
  input: CommitOnHeadInput;
  resolve: (result: { commit: string; tree: string }) => void;
  reject: (error: unknown) => void;
}

/** Batches waiting for their repository's lock, by repository: the next holder commits them all. */
const waiting = new Map<string, Waiting[]>();
/** Repositories with a lock request under way that will take every batch waiting when it gets the lock. */
const asked = new Set<string>();
/** Groups committed and the batches in them, since start (`GET /metrics`). */
const counts = { groups: 0, batches: 0 };

export const groupCommitStats = () => ({ ...counts });

/**
 * Reads the branch's head, derives the changes from it and commits them on it, all in one hold of
 * the repository lock: writers of one repository queue instead of racing, so a hundred concurrent
 * batches all land, each on the one before. Throws RefConflictError only if real git moved the
 * branch meanwhile (it doesn't take Quire's lock).
 *
 * Group commit: one lock request at a time per repository; when it gets the lock it commits every
 * batch waiting at that moment, each as its own commit on the one before it (on its own branch),
 * then writes all their objects with one round of syncs and moves each branch once, to its last
 * commit. A batch that fails (its changes don't apply) fails alone; the others land.
 */
export function commitOnHead(input: CommitOnHeadInput): Promise<{ commit: string; tree: string }> {
  const { repo } = input;
  const gitdir = repo.gitdir;
  return new Promise((resolve, reject) => {
    waiting.set(gitdir, [...(waiting.get(gitdir) ?? []), { input, resolve, reject }]);
    if (asked.has(gitdir)) return;
    asked.add(gitdir);
    const takeWaiting = () => {
      asked.delete(gitdir);
      const group = waiting.get(gitdir) ?? [];
      waiting.delete(gitdir);
      return group;
    };
    withRepositoryLock(gitdir, async () => {
      const group = takeWaiting();
      counts.groups += 1;
      counts.batches += group.length;
      await commitGroup(repo, group);
    }).catch((error: unknown) => {
      // The lock was never had (busy, or the repository moved away): every batch that waited for
      // it fails with that. (commitGroup settles its own batches and never throws.)
      if (asked.has(gitdir)) for (const request of takeWaiting()) request.reject(error);
    });
  });
}

interface BranchGroup {
  /** The branch's head when the group started: where the compare-and-swap expects it. */
  expected: string | null;
  tip: string | null;
  landed: Array<{ request: Waiting; commit: string; tree: string }>;
}

async function commitGroup(repo: Repository, group: Waiting[]): Promise<void> {
  const branches = new Map<string, BranchGroup>();
  const objects: NewObject[] = [];
  try {
    for (const request of group) {
      const { branch } = request.input;
      let state = branches.get(branch);
      if (!state) {
        const head = await readBranch(repo, branch);
        branches.set(branch, (state = { expected: head, tip: head, landed: [] }));
      }
      try {
        const changes = await request.input.derive(state.tip);
        const baseTree = state.tip ? (await readCommit(repo, state.tip)).tree : null;
        const staged = await stageTree(repo, baseTree, changes);
        const commit = commitObject({ ...request.input, tree: staged.tree, parents: state.tip ? [state.tip] : [] });
        // The next batch is derived from this commit: its objects are read from memory until written.
        const made = [...staged.objects, commit];
        stageObjects(repo.gitdir, made);
        objects.push(...made);
        state.tip = commit.oid;
        state.landed.push({ request, commit: commit.oid, tree: staged.tree });
      } catch (error) {
        request.reject(error);
      }
    }
    const landing = [...branches].filter(([, state]) => state.landed.length > 0);
    if (landing.length === 0) return;
    // Objects are in place, and their names durable, before any branch moves: a crash before the
    // swap leaves only unreachable objects. The folders are synced while the new refs are written.
    await writeLooseObjects(repo.gitdir, objects);
    const folders = syncWrittenFolders();
    await Promise.all(
      landing.map(async ([branch, state]) => {
        const moved = compareAndSwapBranch(repo, branch, state.expected, state.tip!, { after: folders });
        state.landed.at(-1)!.request.input.whileLanding?.(state.tip!);
        try {
          await moved;
        } catch (error) {
          for (const { request } of state.landed) request.reject(error);
          return;
        }
        for (const { request, commit, tree } of state.landed) request.resolve({ commit, tree });
      }),
    );
  } catch (error) {
    // Reading a branch or writing the objects failed: nothing moved, and every batch of the group
    // not settled yet fails with it (settling a settled promise does nothing).
    for (const request of group) request.reject(error);
  } finally {
    unstageObjects(
      repo.gitdir,
      objects.map(({ oid }) => oid),
    );
  }
}
