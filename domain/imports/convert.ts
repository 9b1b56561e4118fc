import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toMdast } from 'hast-util-to-mdast';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';

/** mdast to markdown, GFM's tables and strikethrough included: remark's own stringifier. */
const stringifier = unified().use(remarkGfm).use(remarkStringify);

/** A page found by an import: its title, its markdown, and where it came from. */
export interface ImportedDocument {
  title: string;
  markdown: string;
  sourceURL?: string;
}

const elementsOf = (node: Root | Element): Element[] => node.children.flatMap((child) => (child.type === 'element' ? [child, ...elementsOf(child)] : []));
const textOf = (node: Element | Root): string => node.children.map((child) => (child.type === 'text' ? child.value : child.type === 'element' ? textOf(child) : '')).join('');

/**
 * An HTML page as markdown (hast → mdast → markdown, tables and strikethrough as GFM): its
 * `<main>` (or `<article>`, or `<body>`) without navigation, headers, footers and scripts; its
 * title from its first `<h1>` (else `<title>`), that heading left out of the body.
 */
export function htmlToDocument(html: string, sourceURL?: string): ImportedDocument {
  const tree = fromHtml(html);
  const all = elementsOf(tree);
  const content = all.find((element) => element.tagName === 'main') ?? all.find((element) => element.tagName === 'article') ?? all.find((element) => element.tagName === 'body') ?? tree;
  const dropped = new Set(['nav', 'header', 'footer', 'script', 'style', 'noscript', 'aside', 'form']);
  const prune = (node: Element | Root) => {
    node.children = node.children.filter((child) => !(child.type === 'element' && dropped.has(child.tagName)));
    for (const child of node.children) if (child.type === 'element') prune(child);
  };
  prune(content);
  const heading = elementsOf(content).find((element) => element.tagName === 'h1');
  const titleElement = all.find((element) => element.tagName === 'title');
  const title = (heading ? textOf(heading) : titleElement ? textOf(titleElement) : '').replace(/\s+/g, ' ').trim() || 'Untitled';
  if (heading) removeNode(content, heading);
  const root: Root = { type: 'root', children: content.type === 'root' ? content.children : content.children };
  const markdown = String(stringifier.stringify(toMdast(root) as Parameters<typeof stringifier.stringify>[0])).trim();
  return { title: title.slice(0, 200), markdown: `${markdown}\n`, ...(sourceURL ? { sourceURL } : {}) };
}

function removeNode(parent: Element | Root, target: Element): boolean {
  const index = parent.children.indexOf(target);
  if (index !== -1) {
    parent.children.splice(index, 1);
    return true;
  }
  return parent.children.some((child) => child.type === 'element' && removeNode(child, target));
}

/** A markdown file as a page: its title from its first `# ` heading (left out of the body), else its file name. */
export function markdownToDocument(markdown: string, fileName: string): ImportedDocument {
  const text = markdown.replace(/^\uFEFF/, '');
  const heading = /^# +(.+)$/m.exec(text);
  const fallback =
    fileName
      .replace(/\.(md|markdown)$/i, '')
      .replace(/[-_]+/g, ' ')
      .trim() || 'Untitled';
  return { title: (heading ? heading[1]!.trim() : fallback).slice(0, 200), markdown: heading ? text.replace(heading[0], '').replace(/^\s+/, '') : text };
}
