import { listTree } from './internal/listTree.js';
import { readCommit } from './objects/readCommit.js';
import type { Repository } from './repository.js';

/** Every file of a commit's tree with its blob id (path → blob). */
export async function listFiles(repo: Repository, commit: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const [path, item] of await listTree(repo, (await readCommit(repo, commit)).tree)) if (item.type === 'blob') files.set(path, item.oid);
  return files;
}
