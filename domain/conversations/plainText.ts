import type { Root } from 'mdast';
import { toString } from 'mdast-util-to-string';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

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
  const tree = unified().use(remarkParse).parse(withoutTags) as Root;
  return tree.children
    .map((block) => toString(block, { includeHtml: false }))
    .join('\n')
    .replace(/[ \t]+/g, ' ')
    .trim();
}
