import type { Root } from 'mdast';
import { toString } from 'mdast-util-to-string';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { MarkdownTooDeepError } from '../../engine/errors/index.js';
import { parseWithinDepth } from '../../engine/markdown/depth.js';

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/**
 * The words of a message body ("Markdown or HTML"), for reading, not for showing: tags become
 * spaces, markdown syntax goes (a link keeps its text, code keeps its content).
 */
export function plainText(body: string): string {
  const withoutTags = body
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|li|h\d)>/gi, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => entities[name]!);
  const tree = parsedWithinDepth(withoutTags);
  // Nesting no help desk writes (quotes in quotes, a hundred deep): read as it was sent.
  if (!tree) return withoutTags.replace(/[ \t]+/g, ' ').trim();
  return tree.children
    .map((block) => toString(block, { includeHtml: false }))
    .join('\n')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

function parsedWithinDepth(text: string): Root | undefined {
  try {
    return parseWithinDepth(text, (markdown) => unified().use(remarkParse).parse(markdown) as Root);
  } catch (error) {
    if (error instanceof MarkdownTooDeepError) return undefined;
    throw error;
  }
}
