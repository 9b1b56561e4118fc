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

/**
 * A bound on how deep a markdown run can parse, found in one pass without parsing: every level
 * of an mdast tree but a few needs a character of its own to open it. A blockquote needs a `>`,
 * emphasis and strong a `*` or `_`, a strike a `~`, a link a `[` or `<`, and a list with its
 * item (two levels) a marker, which only ever stands in a line's leading run of spaces, quote
 * and list markers (`-`, `+`, `*`, or digits and `.` or `)`), as block starts can follow nothing
 * else on their line. What opens without such a character is at most six levels on any path:
 * a paragraph or heading, one table with its row and cell (tables don't nest, and one needs no
 * `|`), a literal autolink (links don't nest) and its text. So a run nests at most 6 + 3 × its
 * openers. Footnote definitions (`[^…]:`) can start blocks mid-line: a run holding `[^` gets no bound.
 */
export function nestingBound(text: string): number {
  if (text.includes('[^')) return Infinity;
  let openers = 0;
  let inLeadingRun = true;
  let afterDigit = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    switch (char) {
      case '\n':
        inLeadingRun = true;
        afterDigit = false;
        continue;
      case '*':
      case '>':
        openers += 1;
        break;
      case '_':
      case '~':
      case '[':
      case '<':
        openers += 1;
        inLeadingRun = false;
        break;
      case '-':
      case '+':
        if (inLeadingRun) openers += 1;
        break;
      case '.':
      case ')':
        if (inLeadingRun && afterDigit) openers += 1;
        break;
      case ' ':
      case '\t':
        break;
      default:
        if (char! < '0' || char! > '9') inLeadingRun = false;
    }
    afterDigit = char! >= '0' && char! <= '9';
  }
  return 6 + 3 * openers;
}

/**
 * How deep square brackets nest in a paragraph (an escaped one doesn't count). The parser's cost
 * for a `]` grows with the text back to its `[`, so `[[[…x…]]]` costs depth × length: bounding the
 * depth keeps it linear (links and images nest two or three deep in real pages).
 */
function bracketDepth(paragraph: string): number {
  let depth = 0;
  let deepest = 0;
  for (let index = 0; index < paragraph.length; index += 1) {
    const char = paragraph[index];
    if (char === '\\') index += 1;
    else if (char === '[') deepest = Math.max(deepest, (depth += 1));
    else if (char === ']' && depth > 0) depth -= 1;
  }
  return deepest;
}

/**
 * Emphasis and strike markers (`*`, `_`, `~`) one run of inline text may hold: the parser pairs
 * them in quadratic time (60,000 take over a minute).
 */
const maxMarkersPerRun = 2000;

/**
 * Square brackets one run of inline text may hold. Each `[…]` that opens no link leaves text the
 * parser merges back by splicing its event list, so the time grows with their square: 16,000
 * `[a] ` take seconds, 2,000 brackets a few ms.
 */
export const maxBracketsPerRun = 2000;

/**
 * Where a new run of inline text starts: a blank line, or a line opening a block (list item,
 * heading, quote, table row, fence). A paragraph's lines are one run; each list item, heading and
 * table row is its own, as the parser sees them.
 */
const opensBlock = /^\s*(?:$|[-*+]\s|\d{1,9}[.)]\s|#|>|\||```|~~~)/;

function assertMarkersPerRun(text: string): void {
  let brackets = 0;
  let markers = 0;
  for (const line of text.split('\n')) {
    if (opensBlock.test(line)) brackets = markers = 0;
    for (let index = 0; index < line.length; index += 1) {
      const char = line[index];
      if (char === '\\') index += 1;
      else if (char === '[' || char === ']') brackets += 1;
      else if (char === '*' || char === '_' || char === '~') markers += 1;
    }
    if (brackets > maxBracketsPerRun) {
      throw new MarkdownTooDeepError(maxMarkdownDepth, `The markdown holds more than ${maxBracketsPerRun} square brackets in one paragraph, list item, heading or table row: split it`);
    }
    if (markers > maxMarkersPerRun) throw new MarkdownTooDeepError(maxMarkdownDepth);
  }
}

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
    if (bracketDepth(paragraph) > maxMarkdownDepth) throw new MarkdownTooDeepError(maxMarkdownDepth);
  }
  assertMarkersPerRun(text);
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
