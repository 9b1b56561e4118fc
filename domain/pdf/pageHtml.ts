import { parseWithinDepth, type Segment, splitBlocks } from '../../engine/index.js';
import type { Element, Root as HastRoot, RootContent as HastContent } from 'hast';
import type { Heading, Root } from 'mdast';
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

/** An image's `src` as the renderer may load it (a data: URL of the space's own file), or undefined to drop it. */
export type ResolveImage = (src: string) => string | undefined;

/**
 * A page's markdown as HTML for the PDF: GFM through remark/rehype, sanitized (no script, no
 * style, no event handler, no foreign element survives), headings one level down so the chapter's
 * title leads, images replaced by the space's own files as data: URLs or by their alt text (an
 * external image is never fetched). GitBook blocks become styled containers the server writes.
 */
export function pageHtml(markdown: string, options: { title: string; resolveImage: ResolveImage }): string {
  return segmentsHtml(splitBlocks(dropLeadingTitle(markdown, options.title)), options.resolveImage);
}

function segmentsHtml(segments: Segment[], resolveImage: ResolveImage): string {
  return segments.map((segment) => (segment.kind === 'markdown' ? markdownHtml(segment.text, resolveImage) : blockHtml(segment, resolveImage))).join('\n');
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const styleName = (value: string | undefined) => (value && /^[a-z]+$/.test(value) ? value : 'info');

function blockHtml(block: Extract<Segment, { kind: 'block' }>, resolveImage: ResolveImage): string {
  const inner = segmentsHtml(block.children, resolveImage);
  switch (block.name) {
    case 'hint':
      return `<div class="hint hint-${styleName(block.attributes.style)}">${inner}</div>`;
    case 'tab':
    case 'step':
    case 'expandable':
      return `<div class="panel">${block.attributes.title ? `<p class="panel-title">${escapeHtml(block.attributes.title)}</p>` : ''}${inner}</div>`;
    case 'code':
      return `<div class="code">${block.attributes.title ? `<p class="code-title">${escapeHtml(block.attributes.title)}</p>` : ''}${inner}</div>`;
    case 'embed':
    case 'content-ref':
      return block.attributes.url ? `<p class="embed">${escapeHtml(block.attributes.url)}</p>${inner}` : inner;
    default:
      return inner;
  }
}

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(() => (tree: Root) => demoteHeadings(tree))
  .use(remarkRehype)
  .use(rehypeSanitize)
  .use(rehypeStringify);

function markdownHtml(markdown: string, resolveImage: ResolveImage): string {
  const parsed = parseWithinDepth(markdown, (text) => processor.parse(text));
  const tree = processor.runSync(parsed) as HastRoot;
  replaceImages(tree, resolveImage);
  return processor.stringify(tree);
}

function demoteHeadings(tree: Root) {
  const visit = (node: { type: string; children?: unknown[] }) => {
    if (node.type === 'heading') (node as Heading).depth = Math.min(6, (node as Heading).depth + 1) as Heading['depth'];
    for (const child of (node.children ?? []) as Array<{ type: string; children?: unknown[] }>) visit(child);
  };
  visit(tree);
}

/** After sanitizing: each image becomes the space's file inlined, or its alt text. */
function replaceImages(node: HastRoot | Element, resolveImage: ResolveImage) {
  node.children = node.children.map((child): HastContent => {
    if (child.type !== 'element') return child;
    if (child.tagName === 'img') {
      const src = typeof child.properties.src === 'string' ? child.properties.src : '';
      const inlined = resolveImage(src);
      if (inlined) return { ...child, properties: { ...child.properties, src: inlined } };
      return { type: 'element', tagName: 'span', properties: { className: ['missing-image'] }, children: [{ type: 'text', value: `[${String(child.properties.alt ?? 'image')}]` }] };
    }
    replaceImages(child, resolveImage);
    return child;
  }) as typeof node.children;
}

/** The page's own leading `# Title` repeats the chapter heading: left out. */
function dropLeadingTitle(markdown: string, title: string): string {
  const match = /^\s*#\s+(.+?)\s*#*\s*(?:\n|$)/.exec(markdown);
  return match && match[1] === title ? markdown.slice(match[0].length) : markdown;
}
