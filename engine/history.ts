import { readCommit } from './objects/readCommit.js';
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
