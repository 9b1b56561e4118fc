import type { Root } from 'mdast';
import { toString } from 'mdast-util-to-string';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { MarkdownTooDeepError, parseWithinDepth } from '../../engine/index.js';

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

/** How much of what users wrote the local method reads: their issue is stated well before this. */
export const maxReadChars = 64 * 1024;

/**
 * The bodies as plain text, the first 64 KB of them in all, runs without spaces cut at 100
 * characters: sentence splitting and the terms the clusters compare grew faster than the text (ten
 * 100 KB parts of `a.a.a…` took 7 s), and they run in the job, beside the API with `npm start`.
 */
export function plainTexts(bodies: string[]): string[] {
  const texts: string[] = [];
  let left = maxReadChars;
  for (const body of bodies) {
    if (left <= 0) break;
    const read = body.slice(0, left);
    left -= read.length;
    // No word is a hundred characters long: longer runs (`a.a.a…`, encoded blobs) are cut, as the
    // tokenizer's time grows with their square.
    texts.push(plainText(read).replace(/\S{101,}/g, (run) => run.slice(0, 100)));
  }
  return texts;
}
