import type { Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { parseWithinDepth } from './depth.js';

const parser = unified().use(remarkParse).use(remarkGfm);

/** A run of a page's markdown (GFM) as mdast, with source positions; MarkdownTooDeepError past the nesting limit. */
export function parseMarkdown(markdown: string): Root {
  return parseWithinDepth(markdown, (text) => parser.parse(text) as Root);
}
