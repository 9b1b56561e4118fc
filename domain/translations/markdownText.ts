import { parseWithinDepth } from '../../engine/markdown/depth.js';
import type { Nodes, Parents, Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/** A run of prose in a markdown file: where it is in the source, and its text. */
export interface TextSegment {
  start: number;
  end: number;
  /** The text as read (escapes and entities resolved), without its surrounding whitespace. */
  text: string;
  leading: string;
  trailing: string;
}

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml', 'toml']);

/** GitBook's block tags (`{% hint style="info" %}`) sit in paragraphs' text: they are markup, not prose. */
const blockTag = /\{%[\s\S]*?%\}/g;
const letters = /\p{L}/u;
/** Link texts that are the link's target, file names and URLs: names, not prose. */
const looksLikeName = /^(?:[a-z][a-z0-9+.-]*:\/\/\S*|\S+\.(?:md|png|jpe?g|gif|svg|pdf|ya?ml|json))$/i;

/**
 * The prose of a markdown file, as segments of its source. What isn't prose is never a segment, so
 * it passes through byte for byte: frontmatter, code blocks and inline code, HTML, link and image
 * targets, GitBook block tags, and text that is only a URL or a file name.
 */
export function textSegments(markdown: string): TextSegment[] {
  const segments: TextSegment[] = [];
  const visit = (node: Nodes, parent: Parents | undefined) => {
    if (node.type === 'text') {
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      if (start === undefined || end === undefined) return;
      if (parent?.type === 'link' && (parent.url === node.value || looksLikeName.test(node.value.trim()))) return;
      splitOnTags(markdown, start, end, node.value, segments);
      return;
    }
    if ('children' in node) for (const child of node.children) visit(child as Nodes, node);
  };
  visit(parseWithinDepth(markdown, (text) => parser.parse(text) as Root), undefined);
  return segments;
}

/**
 * A text node's source range, less any block tags in it. Where the source holds escapes or
 * entities, its text differs from the node's value: then the whole node is one segment (tags in
 * such a node are rare, and a tag's own text is never changed since only differing translations
 * are written back).
 */
function splitOnTags(markdown: string, start: number, end: number, value: string, into: TextSegment[]) {
  const source = markdown.slice(start, end);
  if (source !== value) return push(into, start, end, value);
  let at = 0;
  for (const match of source.matchAll(blockTag)) {
    push(into, start + at, start + match.index, source.slice(at, match.index));
    at = match.index + match[0].length;
  }
  push(into, start + at, end, source.slice(at));
}

function push(into: TextSegment[], start: number, end: number, value: string) {
  const text = value.trim();
  if (!letters.test(text) || looksLikeName.test(text)) return;
  const leading = value.slice(0, value.length - value.trimStart().length);
  const trailing = value.slice(value.trimEnd().length);
  into.push({ start, end, text, leading, trailing });
}

/** Characters that would turn translated prose into markup. */
const markup = /[\\`*_[\]<>|]/g;

/**
 * The markdown with each segment's text replaced by its translation. A translation equal to the
 * text leaves the source untouched (an identity translation gives back the same bytes).
 */
export function replaceSegments(markdown: string, segments: TextSegment[], translations: string[]): string {
  if (translations.length !== segments.length) throw new Error(`expected ${segments.length} translations, got ${translations.length}`);
  let out = '';
  let at = 0;
  segments.forEach((segment, index) => {
    const translated = translations[index]!.trim();
    if (translated === segment.text) return;
    out += markdown.slice(at, segment.start) + segment.leading + translated.replace(/\r?\n/g, ' ').replace(markup, '\\$&') + segment.trailing;
    at = segment.end;
  });
  return out + markdown.slice(at);
}

export const countWords = (texts: string[]): number => texts.reduce((sum, text) => sum + (text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0), 0);
