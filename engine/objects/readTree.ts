import type { Repository } from '../repository.js';
import { readObject } from './readObject.js';

export interface TreeEntry {
  /** As isomorphic-git spells modes: six digits (`040000` for a folder). */
  mode: string;
  path: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

/** A tree's entries, in the tree's order. */
export async function readTree(repo: Repository, oid: string): Promise<TreeEntry[]> {
  const { type, data } = await readObject(repo, oid);
  if (type !== 'tree') throw new Error(`object ${oid} is a ${type}, not a tree`);
  const entries: TreeEntry[] = [];
  let position = 0;
  while (position < data.length) {
    const space = data.indexOf(0x20, position);
    const nul = data.indexOf(0, space);
    const mode = data.toString('latin1', position, space).padStart(6, '0');
    entries.push({
      mode,
      path: data.toString('utf8', space + 1, nul),
      oid: data.toString('hex', nul + 1, nul + 21),
      type: mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob',
    });
    position = nul + 21;
  }
  return entries;
}
