import { Lru } from './runtime/lru.js';
import { readCommit } from './objects/readCommit.js';
import { readTree, type TreeEntry } from './objects/readTree.js';
import type { Repository } from './repository.js';

/** How many commits back a file's last change is looked for: older than that, the oldest one looked at is said. */
const depth = 100;

// By commit and file: the answer for a commit that didn't touch the file is its parent's, so a
// new head finds it after one step.
const known = new Lru<string, Promise<number>>(20_000);

/**
 * When `file` last changed along the first-parent history of `head` (the committer's time, in
 * seconds): the newest commit whose blob at that path differs from its first parent's, which for
 * a merged change request is the merge, the moment it was published.
 */
export function lastChangeOf(repo: Repository, head: string, file: string): Promise<number> {
  const key = `${repo.gitdir}:${head}:${file}`;
  let answer = known.get(key);
  if (!answer) {
    answer = walk(repo, head, file, depth);
    answer.catch(() => known.delete(key)); // a read that failed is tried again next time
    known.set(key, answer);
  }
  return answer;
}

async function walk(repo: Repository, commitId: string, file: string, stepsLeft: number): Promise<number> {
  const commit = await readCommit(repo, commitId);
  const parent = commit.parents[0];
  if (!parent || stepsLeft === 0) return commit.committedAt;
  const [mine, theirs] = await Promise.all([blobAt(repo, commit.tree, file), blobAt(repo, (await readCommit(repo, parent)).tree, file)]);
  if (mine !== theirs) return commit.committedAt;
  const cached = known.get(`${repo.gitdir}:${parent}:${file}`);
  return cached ?? walk(repo, parent, file, stepsLeft - 1);
}

async function blobAt(repo: Repository, tree: string, file: string): Promise<string | undefined> {
  let oid: string | undefined = tree;
  for (const name of file.split('/')) {
    if (!oid) return undefined;
    const entries: TreeEntry[] = await readTree(repo, oid);
    oid = entries.find((candidate) => candidate.path === name)?.oid;
  }
  return oid;
}
