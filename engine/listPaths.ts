import { listTree } from './internal/listTree.js';
import { readCommit } from './objects/readCommit.js';
import type { Repository } from './repository.js';

/** Every file path of a commit's tree. */
export async function listPaths(repo: Repository, commit: string): Promise<string[]> {
  return [...(await listTree(repo, (await readCommit(repo, commit)).tree)).keys()];
}
