import { gitFs as fs } from './internal/gitFs.js';
import git from 'isomorphic-git';
import { Lru } from './runtime/lru.js';
import { closePacks } from './objects/packs.js';

/** A space's bare repository, with the object cache isomorphic-git reuses when it reads for the engine. */
export interface Repository {
  gitdir: string;
  cache: object;
  /**
   * An object folder read before the repository's own: where `git receive-pack` keeps a push's
   * objects until its hooks accept it (see engine/git/quarantine.ts).
   */
  quarantine?: string;
}

export const primaryBranch = 'main';

/**
 * isomorphic-git's caches, one per repository, for the reads the engine leaves to it (objects its
 * own reader doesn't find). Bounded: a process serving thousands of spaces keeps the recent ones.
 */
// Reads of an evicted repository may still be under way: its pack files close a little later.
const caches = new Lru<string, object>(64, (gitdir) => closePacks(gitdir, 30_000));

/** Opens a repository by path; reads through one shared cache per repository. */
export function openRepository(gitdir: string): Repository {
  let cache = caches.get(gitdir);
  if (!cache) {
    cache = {};
    caches.set(gitdir, cache);
  }
  return { gitdir, cache };
}

/** Creates an empty bare repository whose HEAD names the primary branch. */
export async function createRepository(gitdir: string): Promise<Repository> {
  await git.init({ fs, gitdir, bare: true, defaultBranch: primaryBranch });
  return openRepository(gitdir);
}

/** Forgets the cached objects (and closes the pack files) of a repository that is being deleted. */
export function closeRepository(gitdir: string): void {
  caches.delete(gitdir);
  closePacks(gitdir);
}

export const branchRef = (branch: string) => `refs/heads/${branch}`;
