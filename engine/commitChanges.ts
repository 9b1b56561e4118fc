import { gitFs as fs, syncWrittenFolders } from './gitFs.js';
import git, { type TreeEntry } from 'isomorphic-git';
import { EngineError } from './errors.js';
import { withRepositoryLock } from './lock.js';
import { readBranch, type Repository } from './repository.js';
import { compareAndSwapBranch } from './updateBranch.js';

/** One file to write or remove, by its path from the repository root. */
export type Change = { path: string; content: string | Uint8Array } | { path: string; remove: true };

export interface Author {
  name: string;
  email: string;
}

export interface CommitChangesInput {
  repo: Repository;
  branch: string;
  /** The commit the changes were made against; null to create the branch. */
  base: string | null;
  changes: Change[];
  message: string;
  author: Author;
  /** Parents beyond `base`, for merges. */
  extraParents?: string[];
}

/**
 * The one write primitive: builds the new tree from the base commit's tree with the changes
 * (objects only, no index or working tree), writes the commit, then moves the branch from `base`
 * to it with a compare-and-swap under the repository lock. Throws RefConflictError, having moved
 * nothing, when the branch is no longer at `base`.
 */
export function commitChanges(input: CommitChangesInput): Promise<{ commit: string; tree: string }> {
  return withRepositoryLock(input.repo.gitdir, () => writeCommitAndSwap(input));
}

/** Like commitChanges, based on wherever the branch is now. */
export function commitToBranchHead(input: Omit<CommitChangesInput, 'base'>): Promise<{ commit: string; tree: string }> {
  return withRepositoryLock(input.repo.gitdir, async () => writeCommitAndSwap({ ...input, base: await readBranch(input.repo, input.branch) }));
}

/** Writes are serialized per repository, objects included: no two writers create the same object file at once. */
async function writeCommitAndSwap(input: CommitChangesInput): Promise<{ commit: string; tree: string }> {
  const { repo } = input;
  const baseTree = input.base ? (await git.readCommit({ fs, gitdir: repo.gitdir, oid: input.base, cache: repo.cache })).commit.tree : null;
  const tree = (await applyChanges(repo, baseTree, input.changes.map(splitPath))) ?? (await git.writeTree({ fs, gitdir: repo.gitdir, tree: [] }));
  const when = { timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
  const person = { name: input.author.name, email: input.author.email, ...when };
  const commit = await git.writeCommit({
    fs,
    gitdir: repo.gitdir,
    commit: {
      message: input.message.endsWith('\n') ? input.message : `${input.message}\n`,
      tree,
      parent: [...(input.base ? [input.base] : []), ...(input.extraParents ?? [])],
      author: person,
      committer: person,
    },
  });
  // Objects are in place (and their names durable) before the branch moves: a crash before the
  // swap leaves only unreachable objects.
  await syncWrittenFolders();
  await compareAndSwapBranch(repo, input.branch, input.base, commit);
  return { commit, tree };
}

interface PathChange {
  segments: string[];
  change: Change;
}

function splitPath(change: Change): PathChange {
  const segments = change.path.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment === '.git')) {
    throw new EngineError('invalid_change', `"${change.path}" is not a path a repository can hold`);
  }
  return { segments, change };
}

/** Applies changes to a tree, depth first; returns the new tree's id, or null when it ends up empty. */
async function applyChanges(repo: Repository, treeOid: string | null, changes: PathChange[]): Promise<string | null> {
  const entries = new Map<string, TreeEntry>();
  if (treeOid) {
    const { tree } = await git.readTree({ fs, gitdir: repo.gitdir, oid: treeOid, cache: repo.cache });
    for (const entry of tree) entries.set(entry.path, entry);
  }
  const byName = new Map<string, PathChange[]>();
  for (const change of changes) {
    const [name] = change.segments;
    byName.set(name!, [...(byName.get(name!) ?? []), change]);
  }
  for (const [name, group] of byName) {
    const leaves = group.filter((c) => c.segments.length === 1);
    const deeper = group.filter((c) => c.segments.length > 1).map((c) => ({ ...c, segments: c.segments.slice(1) }));
    if (leaves.length > 0 && deeper.length > 0) throw new EngineError('invalid_change', `"${name}" can't be both a file and a folder`);
    for (const { change } of leaves) {
      if ('remove' in change) entries.delete(name);
      else {
        const blob = typeof change.content === 'string' ? Buffer.from(change.content, 'utf8') : change.content;
        entries.set(name, { mode: '100644', path: name, oid: await git.writeBlob({ fs, gitdir: repo.gitdir, blob }), type: 'blob' });
      }
    }
    if (deeper.length > 0) {
      const current = entries.get(name);
      const subtree = await applyChanges(repo, current?.type === 'tree' ? current.oid : null, deeper);
      if (subtree) entries.set(name, { mode: '040000', path: name, oid: subtree, type: 'tree' });
      else entries.delete(name);
    }
  }
  if (entries.size === 0) return null;
  return git.writeTree({ fs, gitdir: repo.gitdir, tree: [...entries.values()] });
}
