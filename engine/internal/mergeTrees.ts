import git from 'isomorphic-git';
import { gitFs as fs } from './gitFs.js';
import { mergeText } from './mergeText.js';
import { readBlob } from '../objects/readBlob.js';
import { readTree, type TreeEntry } from '../objects/readTree.js';
import type { Repository } from '../repository.js';

export type PathConflictReason = 'content' | 'modify/delete' | 'add/add' | 'file/folder';

export interface TreeMerge {
  /** The merged tree; at a conflicting path, our side's entry (or theirs where we have none). */
  tree: string;
  /** Paths both sides changed in ways a line merge can't join. */
  conflicts: Array<{ path: string; reason: PathConflictReason }>;
  /** Paths whose merge is the page tree's business (SUMMARY.md, pages added, moved or deleted on one side). */
  structural: string[];
}

export interface TreeMergeOptions {
  /** Paths whose three-way merge belongs to the page structure, not to the text of the file. */
  isStructural?: (path: string, reason: 'both-changed' | PathConflictReason) => boolean;
  /** For a conflicting path: the side to take (a resolved conflict), or undefined to report it. */
  resolve?: (path: string) => 'ours' | 'theirs' | undefined;
}

const same = (a: TreeEntry | undefined, b: TreeEntry | undefined) => a?.oid === b?.oid && a?.mode === b?.mode;
const isText = (bytes: Buffer) => !bytes.subarray(0, 8000).includes(0);

/**
 * Three-way merge of git trees, as `git merge-tree` does it without renames: an entry one side
 * left as it was in the base takes the other side's; entries both changed are merged (folders
 * entry by entry, text files line by line with diff3). It descends only into folders whose ids
 * differ on both sides, so the work follows the size of the changes, not of the repository;
 * only the new trees and blobs are written.
 */
export async function mergeTrees(repo: Repository, base: string | null, ours: string, theirs: string, options: TreeMergeOptions = {}): Promise<TreeMerge> {
  const result: TreeMerge = { tree: ours, conflicts: [], structural: [] };
  result.tree = (await mergeFolder(repo, base, ours, theirs, '', options, result)) ?? (await git.writeTree({ fs, gitdir: repo.gitdir, tree: [] }));
  return result;
}

async function entriesOf(repo: Repository, tree: string | null): Promise<Map<string, TreeEntry>> {
  return new Map(tree ? (await readTree(repo, tree)).map((entry) => [entry.path, entry]) : []);
}

async function mergeFolder(repo: Repository, base: string | null, ours: string | null, theirs: string | null, folder: string, options: TreeMergeOptions, result: TreeMerge): Promise<string | null> {
  if (ours === theirs || base === theirs) return ours;
  if (base === ours) return theirs;
  const [b, o, t] = await Promise.all([entriesOf(repo, base), entriesOf(repo, ours), entriesOf(repo, theirs)]);
  const merged: TreeEntry[] = [];
  for (const name of new Set([...o.keys(), ...t.keys(), ...b.keys()])) {
    const entry = await mergeEntry(repo, b.get(name), o.get(name), t.get(name), `${folder}${name}`, options, result);
    if (entry) merged.push({ ...entry, path: name });
  }
  if (merged.length === 0) return null;
  return git.writeTree({ fs, gitdir: repo.gitdir, tree: merged });
}

async function mergeEntry(
  repo: Repository,
  b: TreeEntry | undefined,
  o: TreeEntry | undefined,
  t: TreeEntry | undefined,
  path: string,
  options: TreeMergeOptions,
  result: TreeMerge,
): Promise<TreeEntry | undefined> {
  if (same(o, t) || same(b, t)) return o;
  if (same(b, o)) return t;
  const conflict = (reason: PathConflictReason): TreeEntry | undefined => {
    if (options.isStructural?.(path, reason)) {
      result.structural.push(path);
      return o ?? t;
    }
    const side = options.resolve?.(path);
    if (side) return side === 'ours' ? o : t;
    result.conflicts.push({ path, reason });
    return o ?? t;
  };
  const folder = (entry: TreeEntry | undefined) => (entry?.type === 'tree' ? entry.oid : null);
  // A folder one side removed and the other changed: merged file by file, as if it were empty.
  const folders = [b, o, t].filter((entry) => entry !== undefined);
  if (folders.every((entry) => entry.type === 'tree')) {
    const tree = await mergeFolder(repo, folder(b), folder(o), folder(t), `${path}/`, options, result);
    return tree ? { mode: '040000', path, oid: tree, type: 'tree' } : undefined;
  }
  if (!o || !t) return conflict('modify/delete');
  if (o.type !== 'blob' || t.type !== 'blob') return conflict('file/folder');
  if (options.isStructural?.(path, 'both-changed')) {
    result.structural.push(path);
    return o;
  }
  const [baseBytes, ourBytes, theirBytes] = await Promise.all([b?.type === 'blob' ? readBlob(repo, b.oid) : Buffer.alloc(0), readBlob(repo, o.oid), readBlob(repo, t.oid)]);
  if (!isText(baseBytes) || !isText(ourBytes) || !isText(theirBytes)) return conflict(b ? 'content' : 'add/add');
  const text = mergeText(baseBytes.toString('utf8'), ourBytes.toString('utf8'), theirBytes.toString('utf8'));
  if (text === null) return conflict(b ? 'content' : 'add/add');
  return { ...o, oid: await git.writeBlob({ fs, gitdir: repo.gitdir, blob: Buffer.from(text, 'utf8') }) };
}
