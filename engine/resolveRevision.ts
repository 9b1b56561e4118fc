import { RevisionNotFoundError } from './errors/index.js';
import { hasObject } from './objects/readObject.js';
import { readBranch } from './readBranch.js';
import type { Repository } from './repository.js';

const commitId = /^[0-9a-f]{40}$/;
/** What `git check-ref-format --branch` accepts, less the rare corners: never a path out of `refs/heads/`. */
const branchName = /^(?!\/|.*\/\/|.*\.\.|.*\/\.|\.|.*\.lock$|.*\/$|.*@\{)[A-Za-z0-9._\/-]+$/;

/**
 * The commit a revision reference names: a 40-hex commit id of this repository, or a branch
 * (`main`, a change request's branch) at its head. Throws RevisionNotFoundError otherwise.
 */
export async function resolveRevision(repo: Repository, ref: string): Promise<string> {
  if (commitId.test(ref)) {
    if (await hasObject(repo, ref, 'commit')) return ref;
    throw new RevisionNotFoundError(ref);
  }
  const head = branchName.test(ref) ? await readBranch(repo, ref) : null;
  if (head === null) throw new RevisionNotFoundError(ref);
  return head;
}
