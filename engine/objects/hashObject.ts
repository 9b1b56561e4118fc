import { createHash } from 'node:crypto';
import type { TreeEntry } from './readTree.js';

/** A git object's id: the SHA-1 of its header and content, as `git hash-object` computes it. */
export function objectId(type: 'blob' | 'tree' | 'commit', content: Uint8Array): string {
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** Git's order of tree entries: by name as bytes, a folder's name read with a trailing `/`. */
const sortKey = (entry: TreeEntry) => Buffer.from(entry.type === 'tree' ? `${entry.path}/` : entry.path, 'utf8');

/** A tree's content as git stores it: `<mode> <name>\0<20-byte id>` per entry, in git's order. */
export function treeContent(entries: readonly TreeEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(sortKey(a), sortKey(b)));
  return Buffer.concat(sorted.map((entry) => Buffer.concat([Buffer.from(`${entry.mode.replace(/^0/, '')} ${entry.path}\0`, 'utf8'), Buffer.from(entry.oid, 'hex')])));
}
