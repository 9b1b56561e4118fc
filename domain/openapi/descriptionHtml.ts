import type { Root as HastRoot } from 'hast';
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { MarkdownTooDeepError, parseWithinDepth } from '../../engine/index.js';

/** Where an OpenAPI description's markdown is given as HTML: the field GitBook's renderer shows. */
export const descriptionHtmlField = 'x-gitbook-description-html';

const processor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeSanitize).use(rehypeStringify);

/** Keys whose values are data, not documentation: no HTML is added below them (unless they name a schema's property). */
const dataKeys = new Set(['example', 'default', 'enum', 'const', 'value']);

/**
 * Adds to every object of the specification with a markdown `description` its HTML (GFM,
 * sanitized: no script, style, event handler or foreign element), as GitBook stores specs for its
 * renderer; values that are data (examples, defaults, enums) are left as they are. A
 * `x-gitbook-description-html` the spec brought itself is dropped first: only HTML made here is
 * served. A description too deeply nested to parse keeps no HTML (the renderer shows its text).
 * Runs where the spec is bundled: in the worker pool, once per version.
 */
export function addDescriptionHtml(node: unknown, key?: string, parentKey?: string): void {
  if (typeof node !== 'object' || node === null) return;
  const isData = key !== undefined && parentKey !== 'properties' && (dataKeys.has(key) || (key === 'examples' && Array.isArray(node)));
  if (isData) return void dropDescriptionHtml(node);
  if (Array.isArray(node)) {
    for (const item of node) addDescriptionHtml(item, undefined, key);
    return;
  }
  const record = node as Record<string, unknown>;
  delete record[descriptionHtmlField];
  for (const [childKey, child] of Object.entries(record)) addDescriptionHtml(child, childKey, key);
  const description = typeof record.description === 'string' ? record.description.trim() : '';
  if (description) {
    const html = descriptionHtml(description);
    if (html !== undefined) record[descriptionHtmlField] = html;
  }
}

/** Removes the field wherever the spec put it in data: GitBook's renderer might show it anywhere. */
function dropDescriptionHtml(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  if (!Array.isArray(node)) delete (node as Record<string, unknown>)[descriptionHtmlField];
  for (const child of Object.values(node)) dropDescriptionHtml(child);
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
