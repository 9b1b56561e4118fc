import { MarkdownTooDeepError } from '../errors/MarkdownTooDeepError.js';

/** How deep a page's markdown may nest (blocks and marks together): far below where any converter overflows. */
export const maxMarkdownDepth = 64;

/**
 * Throws MarkdownTooDeepError when a parsed tree (mdast, or `{% %}` segments) nests deeper than
 * the limit. Measured with a stack, not recursion: the trees it guards are the ones that would
 * overflow a recursive walk.
 */
export function assertTreeDepth(root: { children?: unknown[] }, limit = maxMarkdownDepth): void {
  const stack: Array<[{ children?: unknown[] }, number]> = [[root, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) throw new MarkdownTooDeepError(limit);
    for (const child of node.children ?? []) stack.push([child as { children?: unknown[] }, depth + 1]);
  }
}

/** Emphasis and strike markers one paragraph may hold: the parser pairs them in quadratic time. */
const maxMarkersPerParagraph = 2000;

/**
 * Parses with the depth guard. Before parsing, what would make the parser itself slow or overflow
 * (quote markers past the limit on one line; thousands of emphasis markers in one paragraph, which
 * micromark pairs in quadratic time: 60,000 take over a minute) is refused; a parser that still
 * overflows the stack, and a tree past the limit, are the same MarkdownTooDeepError.
 */
export function parseWithinDepth<T extends { children?: unknown[] }>(text: string, parse: (text: string) => T): T {
  for (const line of text.split('\n')) {
    if ((/^[\s>]*/.exec(line)?.[0].match(/>/g)?.length ?? 0) > maxMarkdownDepth) throw new MarkdownTooDeepError(maxMarkdownDepth);
  }
  for (const paragraph of text.split(/\n[ \t]*\n/)) {
    if ((paragraph.match(/[*_~]/g)?.length ?? 0) > maxMarkersPerParagraph) throw new MarkdownTooDeepError(maxMarkdownDepth);
  }
  let tree: T;
  try {
    tree = parse(text);
  } catch (error) {
    if (error instanceof RangeError && /call stack/i.test(error.message)) throw new MarkdownTooDeepError(maxMarkdownDepth);
    throw error;
  }
  assertTreeDepth(tree);
  return tree;
}
