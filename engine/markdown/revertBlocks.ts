import { diffIndices } from 'node-diff3';
import { keyedBlocks, type KeyedBlock } from './toDocument.js';

const range = (start: number, length: number) => Array.from({ length }, (_, i) => start + i);

/** A Document node's key names its block: `<key>.2` is the second node made from block `<key>`. */
const blockKeyOf = (nodeKey: string) => nodeKey.replace(/\.\d+$/, '');

/**
 * Reverts the listed blocks of a page's markdown (`current`) to another revision's (`base`), as
 * upstream's `revert_page` with `block` does: a block added since is removed, one deleted since
 * comes back where it was, one changed since gets its old text. Keys are those of the Document
 * nodes (`keyedBlocks`), read from either revision: a deleted block's key is only in the base's.
 *
 * Blocks are matched on their content's hash by a longest-common-subsequence diff. A block whose
 * content the other side has elsewhere was moved: a deletion and an addition of the same content,
 * and so of the same key, and reverting that key removes it where it is now and puts it back where
 * it was. The other blocks of a changed region pair up in order as "changed"; those left over
 * were added (current side) or deleted (base side).
 * Everything else of the current text, the spacing between blocks included, stays as it is.
 * Returns the keys matching no block of either revision, or the new markdown.
 */
export function revertBlocks(current: string, base: string, keys: readonly string[]): { markdown: string; unknown: string[] } {
  const now = keyedBlocks(current);
  const before = keyedBlocks(base);
  const wanted = new Set(keys.map(blockKeyOf));
  const known = new Set([...now, ...before].map((block) => block.key));
  const unknown = [...new Set(keys)].filter((key) => !known.has(blockKeyOf(key)));
  if (unknown.length > 0) return { markdown: current, unknown };

  /** What goes where each current block was: its own text, the base's text, nothing; and base blocks restored before it. */
  const replaced = new Map<number, string | null>();
  const restoredBefore = new Map<number, KeyedBlock[]>();
  // A block whose content is on the other side too, elsewhere, was moved: it pairs with nothing
  // in its changed region (paired in order, a moved block would take the place of its neighbour).
  const nowHashes = new Set(now.map((block) => block.hash));
  const baseHashes = new Set(before.map((block) => block.hash));
  const restoreAt = (index: number, block: KeyedBlock) => restoredBefore.set(index, [...(restoredBefore.get(index) ?? []), block]);
  for (const hunk of diffIndices(
    before.map((block) => block.hash),
    now.map((block) => block.hash),
  )) {
    const [baseStart, baseLength] = hunk.buffer1;
    const [nowStart, nowLength] = hunk.buffer2;
    const baseIndices = range(baseStart, baseLength);
    const nowIndices = range(nowStart, nowLength);
    const baseChanged = baseIndices.filter((i) => !nowHashes.has(before[i]!.hash));
    const nowChanged = nowIndices.filter((j) => !baseHashes.has(now[j]!.hash));
    const pairOf = new Map<number, number>(); // base index → current index, changed in place
    for (let k = 0; k < Math.min(baseChanged.length, nowChanged.length); k += 1) pairOf.set(baseChanged[k]!, nowChanged[k]!);
    const paired = new Set(pairOf.values());
    for (const [i, j] of pairOf) if (wanted.has(before[i]!.key) || wanted.has(now[j]!.key)) replaced.set(j, base.slice(before[i]!.start, before[i]!.end));
    // Added or moved here since: removed.
    for (const j of nowIndices) if (!paired.has(j) && wanted.has(now[j]!.key)) replaced.set(j, null);
    // Deleted or moved away since: put back before the block that follows it in the base's order.
    for (const [position, i] of baseIndices.entries()) {
      if (pairOf.has(i) || !wanted.has(before[i]!.key)) continue;
      const next = baseIndices.slice(position + 1).find((later) => pairOf.has(later));
      restoreAt(next === undefined ? nowStart + nowLength : pairOf.get(next)!, before[i]!);
    }
  }
  if (replaced.size === 0 && restoredBefore.size === 0) return { markdown: current, unknown: [] };

  // The current text rebuilt block by block: each kept block with the spacing that followed it.
  const pieces: string[] = [];
  const restore = (index: number) => {
    for (const block of restoredBefore.get(index) ?? []) pieces.push(base.slice(block.start, block.end), '\n\n');
  };
  for (const [index, block] of now.entries()) {
    restore(index);
    const text = replaced.has(index) ? replaced.get(index) : current.slice(block.start, block.end);
    if (text === null) continue;
    const next = now[index + 1];
    pieces.push(text!, next ? current.slice(block.end, next.start) : '\n\n');
  }
  restore(now.length);
  const head = now.length > 0 ? current.slice(0, now[0]!.start) : current;
  const tail = now.length > 0 ? current.slice(now[now.length - 1]!.end) : '';
  if (pieces.length > 0) pieces.pop(); // the spacing after the last block: the current text's end follows it
  return { markdown: head + pieces.join('') + (pieces.length > 0 ? tail || '\n' : ''), unknown: [] };
}
