import type { RootContent } from 'mdast';
import { splitBlocks, type Segment } from './blocks.js';
import { parseMarkdown } from './parse.js';

export type BlockSegment = Extract<Segment, { kind: 'block' }>;

/** One top-level block of a page's markdown: a markdown block (a paragraph, list, table…) or a GitBook `{% … %}` block. */
export interface TopBlock {
  /** Where the block's text is in the page's markdown. */
  start: number;
  end: number;
  /** The parsed block: a markdown block's mdast node, or a GitBook block's segment. */
  source: { node: RootContent } | { segment: BlockSegment };
}

/** The page's top-level blocks, in order: what its Document's top-level nodes are made from. */
export function topBlocks(markdown: string, segments: Segment[] = splitBlocks(markdown)): TopBlock[] {
  const blocks: TopBlock[] = [];
  for (const segment of segments) {
    if (segment.kind === 'block') {
      blocks.push({ start: segment.start, end: segment.end, source: { segment } });
      continue;
    }
    if (!segment.text.trim()) continue;
    for (const piece of pieces(segment.text)) {
      for (const node of parsedBlocks(piece.text)) {
        const { start, end } = node.position ?? {};
        if (start?.offset === undefined || end?.offset === undefined) continue;
        blocks.push({ start: segment.start + piece.offset + start.offset, end: segment.start + piece.offset + end.offset, source: { node } });
      }
    }
  }
  return blocks;
}

// Parsing is most of what reading a page costs (micromark: 150 ms for a page of 1,000 blocks). A
// page saved from the editor is mostly the text it was opened from: its pieces, parsed before,
// come from here. Trees are only read, never changed, by what uses them.
const parsed = new Map<string, RootContent[]>();
const parsedBudgetChars = 8_000_000;
let parsedChars = 0;

function parsedBlocks(text: string): RootContent[] {
  const known = parsed.get(text);
  if (known) {
    parsed.delete(text);
    parsed.set(text, known); // most recently used last
    return known;
  }
  const nodes = parseMarkdown(text).children;
  parsed.set(text, nodes);
  parsedChars += text.length;
  for (const [oldest] of parsed) {
    if (parsedChars <= parsedBudgetChars) break;
    parsed.delete(oldest);
    parsedChars -= oldest.length;
  }
  return nodes;
}

const heading = /^#{1,6}(?:[ \t]|$)/;
const fence = /^ {0,3}(`{3,}|~{3,}|\${2,})/;
// Link and footnote definitions reach the whole page; these HTML blocks may hold blank lines.
const wholeRun = /^ {0,3}\[[^\]]+\]:|^ {0,3}<(?:!--|pre|script|style|textarea|\?|!\[CDATA\[)/im;

/**
 * A markdown run in pieces that read as the whole does: cut before each heading that starts a
 * line after a blank one, outside fenced code and math (a heading there ends any list, quote or
 * paragraph before it, and nothing before it reaches past it). Whole when it holds a definition
 * or an HTML block that may span blank lines.
 */
function pieces(text: string): Array<{ text: string; offset: number }> {
  if (wholeRun.test(text)) return [{ text, offset: 0 }];
  const result: Array<{ text: string; offset: number }> = [];
  let pieceStart = 0;
  let open: string | undefined; // the fence a code or math block was opened with
  let previousBlank = false;
  let offset = 0;
  for (const line of text.split('\n')) {
    const marker = fence.exec(line)?.[1];
    if (open) {
      if (marker && marker[0] === open[0] && marker.length >= open.length && line.trim() === marker) open = undefined;
    } else if (marker) {
      open = marker;
    } else if (previousBlank && offset > pieceStart && heading.test(line)) {
      result.push({ text: text.slice(pieceStart, offset), offset: pieceStart });
      pieceStart = offset;
    }
    previousBlank = !line.trim();
    offset += line.length + 1;
  }
  result.push({ text: text.slice(pieceStart), offset: pieceStart });
  return result;
}
