import { readCommit } from './objects/readCommit.js';
import { readTree } from './objects/readTree.js';
import type { Repository } from './repository.js';

export interface HistoryEntry {
  commit: string;
  parents: string[];
  message: string;
  author: { name: string; email: string };
  /** The committer's time, in seconds since the epoch. */
  committedAt: number;
}

/**
 * The commits of a branch's first-parent line, newest first, from `head`: what `git log
 * --first-parent` lists (a merge shows as one entry, not the change request's own commits).
 * Stops after `limit` entries; `before` continues from where a previous page stopped.
 */
export async function firstParentHistory(repo: Repository, head: string, limit: number): Promise<{ entries: HistoryEntry[]; next?: string }> {
  const entries: HistoryEntry[] = [];
  let at: string | undefined = head;
  while (at && entries.length < limit) {
    const commit = await readCommit(repo, at);
    entries.push({ commit: at, parents: commit.parents, message: commit.message, author: commit.author, committedAt: commit.committedAt });
    at = commit.parents[0];
  }
  return at ? { entries, next: at } : { entries };
}

/** The blob or tree at `path` (slash-separated) in a commit's tree, or undefined. */
async function oidAtPath(repo: Repository, commit: string, path: string): Promise<string | undefined> {
  let oid: string | undefined = (await readCommit(repo, commit)).tree;
  for (const segment of path.split('/')) {
    if (!oid) return undefined;
    oid = (await readTree(repo, oid)).find((entry) => entry.path === segment)?.oid;
  }
  return oid;
}

/**
 * The commits of the first-parent line from `head` that changed the file at `path` (what `git log
 * --first-parent -- <path>` lists; a move of the file ends its history, as without `--follow`).
 * Looks at no more than `scan` commits, so a page untouched for long answers in bounded time;
 * `next` continues from where the scan stopped.
 */
export async function pathHistory(repo: Repository, head: string, path: string, options: { limit: number; scan: number }): Promise<{ entries: HistoryEntry[]; next?: string }> {
  const entries: HistoryEntry[] = [];
  let at: string | undefined = head;
  let oid = await oidAtPath(repo, head, path);
  for (let scanned = 0; at && entries.length < options.limit && scanned < options.scan; scanned += 1) {
    const commit = await readCommit(repo, at);
    const parent = commit.parents[0];
    const before = parent ? await oidAtPath(repo, parent, path) : undefined;
    if (before !== oid) entries.push({ commit: at, parents: commit.parents, message: commit.message, author: commit.author, committedAt: commit.committedAt });
    if (before === undefined) return { entries };
    oid = before;
    at = parent;
  }
  return at ? { entries, next: at } : { entries };
}
