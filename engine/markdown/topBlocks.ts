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
    for (const node of parseMarkdown(segment.text).children) {
      const { start, end } = node.position ?? {};
      if (start?.offset === undefined || end?.offset === undefined) continue;
      blocks.push({ start: segment.start + start.offset, end: segment.start + end.offset, source: { node } });
    }
  }
  return blocks;
}
