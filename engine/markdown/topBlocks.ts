import { createHash } from 'node:crypto';
import type { RootContent } from 'mdast';
import { splitBlocks, type Segment } from './blocks.js';
import { parseMarkdown } from './parse.js';

export type BlockSegment = Extract<Segment, { kind: 'block' }>;

/** One top-level block of a page's markdown: a markdown block (a paragraph, list, table…) or a GitBook `{% … %}` block. */
export interface TopBlock {
  /**
   * The block's key in the page's Document: the hash of its text, then `-2`, `-3`… for later
   * blocks of the same text in the page. It stays the same as long as the block's text does,
   * whatever changes around it, so a key read from one revision finds the block in another.
   */
  key: string;
  /** The hash of the block's text alone: what blocks of two revisions are matched on. */
  hash: string;
  /** Where the block's text is in the page's markdown. */
  start: number;
  end: number;
  /** The parsed block: a markdown block's mdast node, or a GitBook block's segment. */
  source: { node: RootContent } | { segment: BlockSegment };
}

/** The page's top-level blocks, in order: what its Document's top-level nodes are made from. */
export function topBlocks(markdown: string, segments: Segment[] = splitBlocks(markdown)): TopBlock[] {
  const blocks: Omit<TopBlock, 'key'>[] = [];
  const add = (start: number, end: number, source: TopBlock['source']) =>
    blocks.push({ hash: createHash('sha1').update(markdown.slice(start, end)).digest('hex').slice(0, 12), start, end, source });
  for (const segment of segments) {
    if (segment.kind === 'block') {
      add(segment.start, segment.end, { segment });
      continue;
    }
    if (!segment.text.trim()) continue;
    for (const node of parseMarkdown(segment.text).children) {
      const { start, end } = node.position ?? {};
      if (start?.offset === undefined || end?.offset === undefined) continue;
      add(segment.start + start.offset, segment.start + end.offset, { node });
    }
  }
  const seen = new Map<string, number>();
  return blocks.map((block) => {
    const count = (seen.get(block.hash) ?? 0) + 1;
    seen.set(block.hash, count);
    return { ...block, key: count === 1 ? block.hash : `${block.hash}-${count}` };
  });
}
