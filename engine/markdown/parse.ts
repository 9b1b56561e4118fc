import type { Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { parseWithinDepth } from './depth.js';

// Math as Git Sync writes it: `$$` around a formula, on lines of their own for a block; a single `$` stays text (prices).
export const mathOptions = { singleDollarTextMath: false };
const parser = unified().use(remarkParse).use(remarkGfm).use(remarkMath, mathOptions);

/** A run of a page's markdown (GFM) as mdast, with source positions; MarkdownTooDeepError past the nesting limit. */
export function parseMarkdown(markdown: string): Root {
  return parseWithinDepth(markdown, (text) => parser.parse(text) as Root);
}
