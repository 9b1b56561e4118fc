import { BudgetedCache } from './runtime/cacheBudget.js';
import { RevisionNotFoundError } from './errors/index.js';
import { hasObject } from './objects/readObject.js';
import { readBranch, type ReadBranchOptions } from './readBranch.js';
import type { Repository } from './repository.js';

const commitId = /^[0-9a-f]{40}$/;
/** What `git check-ref-format --branch` accepts, less the rare corners: never a path out of `refs/heads/`. */
const branchName = /^(?!\/|.*\/\/|.*\.\.|.*\/\.|\.|.*\.lock$|.*\/$|.*@\{)[A-Za-z0-9._/-]+$/;

/** Commit ids found in a repository: a commit, once written, stays (each request for a revision by id checks it once). */
const knownCommits = new BudgetedCache<string, true>('known commits', (_, key) => key.length * 2 + 60);

/**
 * The commit a revision reference names: a 40-hex commit id of this repository, or a branch
 * (`main`, a change request's branch) at its head. Throws RevisionNotFoundError otherwise.
 */
export async function resolveRevision(repo: Repository, ref: string, options: ReadBranchOptions = {}): Promise<string> {
  if (commitId.test(ref)) {
    const key = `${repo.gitdir}:${ref}`;
    if (knownCommits.get(key) || (await hasObject(repo, ref, 'commit'))) {
      knownCommits.set(key, true);
      return ref;
    }
    throw new RevisionNotFoundError(ref);
  }
  const head = branchName.test(ref) ? await readBranch(repo, ref, options) : null;
  if (head === null) throw new RevisionNotFoundError(ref);
  return head;
}
