import { diffIndices } from 'node-diff3';
import { keyedBlocks, type KeyedBlock } from './toDocument.js';

/** A Document node's key names its block: `<key>.2` is the second node made from block `<key>`. */
const blockKeyOf = (nodeKey: string) => nodeKey.replace(/\.\d+$/, '');

/**
 * Reverts the listed blocks of a page's markdown (`current`) to another revision's (`base`), as
 * upstream's `revert_page` with `block` does: a block added since is removed, one deleted since
 * comes back where it was, one changed since gets its old text. Keys are those of the Document
 * nodes (`keyedBlocks`), read from either revision: a deleted block's key is only in the base's.
 *
 * Blocks are matched on their content's hash by a longest-common-subsequence diff. Within a changed
 * region, blocks pair up in order as "changed"; those left over were added (current side) or
 * deleted (base side). A moved block is a deletion and an addition of the same content, and so
 * of the same key: reverting that key removes it where it is now and puts it back where it was.
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
  for (const hunk of diffIndices(
    before.map((block) => block.hash),
    now.map((block) => block.hash),
  )) {
    const [baseStart, baseLength] = hunk.buffer1;
    const [nowStart, nowLength] = hunk.buffer2;
    const paired = Math.min(baseLength, nowLength);
    for (let i = 0; i < paired; i += 1) {
      const old = before[baseStart + i]!;
      const changed = now[nowStart + i]!;
      if (wanted.has(old.key) || wanted.has(changed.key)) replaced.set(nowStart + i, base.slice(old.start, old.end));
    }
    for (let i = paired; i < nowLength; i += 1) if (wanted.has(now[nowStart + i]!.key)) replaced.set(nowStart + i, null);
    const deleted = before.slice(baseStart + paired, baseStart + baseLength).filter((block) => wanted.has(block.key));
    if (deleted.length > 0) restoredBefore.set(nowStart + nowLength, deleted);
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
