import type { Root as HastRoot } from 'hast';
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { parseWithinDepth } from '../../engine/markdown/depth.js';
import { MarkdownTooDeepError } from '../../engine/errors/index.js';

/** Where an OpenAPI description's markdown is given as HTML: the field GitBook's renderer shows. */
export const descriptionHtmlField = 'x-gitbook-description-html';

const processor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeSanitize).use(rehypeStringify);

/**
 * Adds to every object of the specification with a markdown `description` its HTML (GFM,
 * sanitized: no script, style, event handler or foreign element), as GitBook stores specs for its
 * renderer; examples are left as they are, since a `description` there is data. A description too
 * deeply nested to parse keeps no HTML (the renderer shows its text). Runs where the spec is
 * bundled: in the worker pool, once per version.
 */
export function addDescriptionHtml(node: unknown, key?: string): void {
  if (typeof node !== 'object' || node === null || key === 'example' || key === 'examples') return;
  if (Array.isArray(node)) {
    for (const item of node) addDescriptionHtml(item);
    return;
  }
  const record = node as Record<string, unknown>;
  for (const [childKey, child] of Object.entries(record)) addDescriptionHtml(child, childKey);
  const description = typeof record.description === 'string' ? record.description.trim() : '';
  if (description) {
    const html = descriptionHtml(description);
    if (html !== undefined) record[descriptionHtmlField] = html;
  }
}

function descriptionHtml(markdown: string): string | undefined {
  try {
    const tree = parseWithinDepth(markdown, (text) => processor.parse(text));
    return processor.stringify(processor.runSync(tree) as HastRoot);
  } catch (error) {
    if (error instanceof MarkdownTooDeepError) return undefined;
    throw error;
  }
}
