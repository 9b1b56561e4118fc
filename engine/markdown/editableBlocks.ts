import { documentToMarkdown } from './fromDocument.js';
import { canonical, sameDocumentNode } from './sameDocument.js';
import { keyedBlocks, type DocumentNode, type KeyedBlock } from './toDocument.js';

/**
 * A page's top-level block as the block editor gets it: its Document node when the node says all
 * its markdown does, or else its markdown (`source`), which the editor keeps whole as an opaque
 * block. `key` names the block in this markdown (`keyedBlocks`), so a save can say "unchanged".
 */
export type EditableBlock = { key: string; node: DocumentNode } | { key: string; source: string };

/**
 * A top-level block as the editor saves it: unchanged (its key), markdown as written, or a Document
 * node, with the key of the block it was when it was one (`was`): its text is then changed in
 * that block's markdown where it can be, so typing a sentence changes that sentence's line only.
 */
export type WrittenBlock = { keep: string } | { node: DocumentNode; was?: string } | { source: string };

export class UnknownBlockError extends Error {
  constructor(readonly key: string) {
    super(`No block "${key}" in the page as it was opened: reload the editor`);
  }
}

/** The page's blocks for the editor; `editable` says which Document nodes the editor itself can hold whole. */
export function editableBlocks(markdown: string, editable: (node: DocumentNode) => boolean = () => true): EditableBlock[] {
  return keyedBlocks(markdown).map((block) => {
    const source = markdown.slice(block.start, block.end);
    const node = block.nodes.length === 1 ? block.nodes[0]! : undefined;
    return node && heldWhole(source, block, node, editable) ? { key: block.key, node } : { key: block.key, source };
  });
}

// Whether a block's text is held whole by its node, by its text and for each `editable` (a page
// reopened after a save is mostly the same blocks).
const verdicts = new WeakMap<(node: DocumentNode) => boolean, Map<string, boolean>>();

function heldWhole(source: string, block: KeyedBlock, node: DocumentNode, editable: (node: DocumentNode) => boolean): boolean {
  let known = verdicts.get(editable);
  if (!known) verdicts.set(editable, (known = new Map()));
  const verdict = known.get(source) ?? (heldAsWritten(source, block, node) && editable(node));
  if (known.size >= 20_000) known.clear();
  known.set(source, verdict);
  return verdict;
}

/**
 * Markdown's own blocks by their letters; GitBook's blocks by writing them back; of HTML, only a
 * figure (an image with its caption or size) is a block, any other HTML is kept as written.
 */
function heldAsWritten(source: string, block: KeyedBlock, node: DocumentNode): boolean {
  if (!('node' in block.source)) return writtenWhole(source, node);
  if (block.source.node.type === 'html') return node.type === 'images' && writtenWhole(source, node);
  return within(source.replace(listMarkers, ''), stringsOf(node).join(' '));
}

/**
 * Whether a GitBook block's Document node, written back as markdown, holds what its markdown holds: the
 * same Document again, and the same letters and digits (in any order: GitBook tags may list their
 * attributes in another order). A block losing anything on the way (an unknown `{% tag %}`, a
 * code block inside a hint, raw HTML) is edited as its markdown instead.
 */
function writtenWhole(source: string, node: DocumentNode): boolean {
  const written = documentToMarkdown({ object: 'document', nodes: [node] });
  const again = keyedBlocks(written);
  if (again.length !== 1 || again[0]!.nodes.length !== 1 || JSON.stringify(again[0]!.nodes[0]) !== JSON.stringify(node)) return false;
  return letters(source) === letters(written);
}

/**
 * Every string a node holds: its texts, its links' targets, its code's language. A markdown block
 * whose letters and digits (list markers aside) are all among them lost nothing but its syntax on
 * the way to its node (a footnote, a reference link's label, an HTML entity would be missing).
 * Cheaper than writing each block back, which GitBook blocks need: their tags' names are letters too.
 */
function stringsOf(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, into);
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) if (key !== 'object' && key !== 'type' && key !== 'kind') stringsOf(item, into);
  return into;
}

const listMarkers = /^[\t >]*(?:\d{1,9}[.)]|[-*+])[\t ]+(?:\[[ xX]\][\t ]+)?/gm;

/** Whether every letter and digit of `text`, as many times, is in `among`. */
function within(text: string, among: string): boolean {
  const counts = new Map<string, number>();
  for (const char of among.replace(/[^\p{L}\p{N}]+/gu, '')) counts.set(char, (counts.get(char) ?? 0) + 1);
  for (const char of text.replace(/[^\p{L}\p{N}]+/gu, '')) {
    const left = counts.get(char) ?? 0;
    if (left === 0) return false;
    counts.set(char, left - 1);
  }
  return true;
}

const letters = (text: string) => [...text.replace(/[^\p{L}\p{N}]+/gu, '')].sort().join('');

/**
 * The markdown of a page saved from the editor, over the markdown it was opened from (`base`):
 * an unchanged block is its text from `base`, with the spacing that followed it there when the
 * next block is its neighbour there too; a changed one is its node written as markdown. A page
 * saved unchanged is `base`, byte for byte; typing in one block rewrites that block only.
 */
export function writeBlocks(base: string, blocks: readonly WrittenBlock[]): string {
  return writeKeyedBlocks(base, blocks).markdown;
}

/**
 * writeBlocks, and the key each written block has in the markdown written: null for a block that
 * wrote nothing, or reads as other than one block there (a paragraph written as two).
 */
export function writeKeyedBlocks(base: string, blocks: readonly WrittenBlock[]): { markdown: string; keys: Array<string | null> } {
  const before = keyedBlocks(base);
  const byKey = new Map(before.map((block, index) => [block.key, { block, index }]));
  const pieces: string[] = [];
  const spans: Array<[number, number] | undefined> = [];
  let length = 0;
  let previous: number | undefined; // index in `before` of the last piece, when it was kept
  const add = (text: string) => {
    pieces.push(text);
    length += text.length;
  };
  for (const written of blocks) {
    const kept = 'keep' in written ? (byKey.get(written.keep) ?? unknownBlock(written.keep)) : undefined;
    const text = kept ? slice(base, kept.block) : 'node' in written ? nodeText(base, written, byKey) : 'source' in written ? written.source.replace(/\n+$/, '') : '';
    if (!text.trim()) {
      spans.push(undefined);
      continue;
    }
    if (pieces.length === 0) add(kept && kept.index === 0 ? base.slice(0, kept.block.start) : '');
    else add(kept && previous !== undefined && kept.index === previous + 1 ? base.slice(before[previous]!.end, kept.block.start) : '\n\n');
    spans.push([length, length + text.length]);
    add(text);
    previous = kept?.index;
  }
  if (pieces.length === 0) return { markdown: '', keys: spans.map(() => null) };
  const markdown = pieces.join('') + (previous !== undefined && previous === before.length - 1 ? base.slice(before[previous]!.end) : '\n');
  const after = keyedBlocks(markdown);
  // Spans and blocks are both in the markdown's order: one pass over the blocks.
  let next = 0;
  const keys = spans.map((span) => {
    if (!span) return null;
    while (next < after.length && after[next]!.start < span[0]) next += 1;
    let inside = 0;
    let key: string | null = null;
    for (let at = next; at < after.length && after[at]!.start < span[1]; at += 1) {
      if (after[at]!.end > span[1]) continue;
      inside += 1;
      key = after[at]!.key;
    }
    return inside === 1 ? key : null;
  });
  return { markdown, keys };
}

/** A changed block's markdown: its old markdown with its texts changed, when that reads as the node; or the node written anew. */
function nodeText(base: string, written: { node: DocumentNode; was?: string }, byKey: ReadonlyMap<string, { block: KeyedBlock }>): string {
  const was = written.was === undefined ? undefined : byKey.get(written.was)?.block;
  const patched = was && was.nodes.length === 1 ? patchedTexts(slice(base, was), was.nodes[0]!, written.node) : undefined;
  return patched ?? documentToMarkdown({ object: 'document', nodes: [written.node] }).replace(/\n+$/, '');
}

/**
 * A block's markdown with the texts that changed between its node `before` and `after` replaced
 * where they are written, when nothing else changed (no mark, no block, no attribute) and each
 * old text is written once, as is; undefined otherwise, or when the result doesn't read as
 * `after` (a character markdown would need escaped).
 */
function patchedTexts(source: string, before: DocumentNode, after: DocumentNode): string | undefined {
  const [old, now] = [canonical(before), canonical(after)];
  if (old.shape !== now.shape || old.texts.length !== now.texts.length) return undefined;
  let patched = source;
  for (const [index, text] of old.texts.entries()) {
    const replacement = now.texts[index]!;
    if (text === replacement) continue;
    const start = writtenOnce(patched, text);
    if (start === undefined) return undefined;
    // Only what changed between the two texts is replaced: a paragraph wrapped over lines keeps its lines.
    let prefix = 0;
    while (prefix < text.length && prefix < replacement.length && text[prefix] === replacement[prefix]) prefix += 1;
    let suffix = 0;
    while (suffix < text.length - prefix && suffix < replacement.length - prefix && text[text.length - 1 - suffix] === replacement[replacement.length - 1 - suffix]) suffix += 1;
    const from = advance(patched, start, text.slice(0, prefix));
    const to = advance(patched, from, text.slice(prefix, text.length - suffix));
    patched = patched.slice(0, from) + replacement.slice(prefix, replacement.length - suffix) + patched.slice(to);
  }
  const reread = keyedBlocks(patched);
  return reread.length === 1 && reread[0]!.nodes.length === 1 && sameDocumentNode(reread[0]!.nodes[0]!, after) ? patched : undefined;
}

/** Where a node's text is written in markdown: a space of the text may be a line's end there (a paragraph wrapped over lines). Undefined unless once, as is. */
function writtenOnce(source: string, text: string): number | undefined {
  if (!text.trim()) return undefined;
  const pattern = new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '(?:[ \\t]*\\n[ \\t]*| )'), 'g');
  const matches = [...source.matchAll(pattern)];
  return matches.length === 1 ? matches[0]!.index : undefined;
}

/** Where `text`, written from `at` on in `source` (see writtenOnce), ends. */
function advance(source: string, at: number, text: string): number {
  let position = at;
  for (const char of text) {
    const lineEnd = char === ' ' ? /^[ \t]*\n[ \t]*/.exec(source.slice(position, position + 200)) : null;
    position += lineEnd ? lineEnd[0].length : char.length;
  }
  return position;
}

const unknownBlock = (key: string): never => {
  throw new UnknownBlockError(key);
};
const slice = (markdown: string, block: KeyedBlock) => markdown.slice(block.start, block.end);
