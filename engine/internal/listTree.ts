import { BudgetedCache, stringBytes } from '../runtime/cacheBudget.js';
import { readTree } from '../objects/readTree.js';
import type { Repository } from '../repository.js';
import { turnPauser } from './turns.js';

export interface TreeItem {
  oid: string;
  type: 'blob' | 'tree' | 'commit';
  /** A symbolic link (mode 120000): a blob holding the path it points to. */
  symlink?: true;
}

// Trees never change: a flattened one is cached by its id (shared by every commit that has it).
const trees = new BudgetedCache<string, Map<string, TreeItem>>('trees', (listing) => {
  let bytes = 200;
  for (const path of listing.keys()) bytes += stringBytes(path) + 140;
  return bytes;
});

/** Every path of a tree with its object, flattened; unchanged subtrees are reused from the cache. */
export function listTree(repo: Repository, treeOid: string): Promise<Map<string, TreeItem>> {
  return trees.through(treeOid, async () => {
    const tree = await readTree(repo, treeOid);
    const subtrees = await Promise.all(tree.map((entry) => (entry.type === 'tree' ? listTree(repo, entry.oid) : undefined)));
    const listing = new Map<string, TreeItem>();
    // A 10,000-file tree is milliseconds of copying: done a few at a time between other requests.
    const pause = turnPauser(1);
    for (const [index, entry] of tree.entries()) {
      const subtree = subtrees[index];
      if (subtree) for (const [path, item] of subtree) listing.set(`${entry.path}/${path}`, item);
      else listing.set(entry.path, entry.mode === '120000' ? { oid: entry.oid, type: entry.type, symlink: true } : { oid: entry.oid, type: entry.type });
      await pause();
    }
    return listing;
  });
}
