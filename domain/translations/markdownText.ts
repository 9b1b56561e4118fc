import { parseWithinDepth } from '../../engine/index.js';
import type { ElementContent, Root as HtmlRoot } from 'hast';
import type { Nodes, Parents, PhrasingContent, Root } from 'mdast';
import { parseFragment } from 'parse5';
import rehypeStringify from 'rehype-stringify';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/**
 * A run of prose in a markdown file, translated as one unit so that a sentence reaches the
 * translator whole: its inline markup travels as HTML (emphasis, links as `<a id>`, code and
 * anything else not prose as empty `<x id>` placeholders) and is written back as markdown.
 */
export interface TextSegment {
  start: number;
  end: number;
  /** What the translator gets: the unit as HTML. */
  html: string;
  /** Its prose alone (for counting words). */
  text: string;
  /** By placeholder id: a link's markdown around its text (`[`, `](url "title")`), or a piece kept as written. */
  links: Map<string, { tail: string }>;
  kept: Map<string, string>;
}

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml', 'toml']);
const htmlWriter = unified().use(rehypeStringify);

/** GitBook's block tags (`{% hint style="info" %}`) sit in paragraphs' text: they are markup, not prose, and end a unit. */
const blockTag = /\{%[\s\S]*?%\}/g;
const letters = /\p{L}/u;
/** Link texts that are the link's target, file names and URLs: names, not prose. */
const looksLikeName = /^(?:[a-z][a-z0-9+.-]*:\/\/\S*|\S+\.(?:md|png|jpe?g|gif|svg|pdf|ya?ml|json))$/i;
const phrasingParents = new Set(['paragraph', 'heading', 'tableCell']);

/** A piece of a unit: an inline node, or the part of a text node between block tags. */
type Piece = { node: PhrasingContent; start: number; end: number } | { text: string; start: number; end: number };

/**
 * The prose of a markdown file, as units of its source. What isn't prose never reaches the
 * translator as text, so it passes through byte for byte: frontmatter, code blocks, inline code,
 * HTML, link and image targets, GitBook block tags, and text that is only a URL or a file name.
 */
export function textSegments(markdown: string): TextSegment[] {
  const segments: TextSegment[] = [];
  const visit = (node: Nodes) => {
    if (phrasingParents.has(node.type)) return void unitsOf(markdown, (node as Parents).children as PhrasingContent[], segments);
    if ('children' in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(parseWithinDepth(markdown, (text) => parser.parse(text) as Root));
  return segments;
}

const startOf = (node: Nodes) => node.position?.start.offset;
const endOf = (node: Nodes) => node.position?.end.offset;

/** A phrasing container's children as units: runs between block tags; a run that is one link is its text. */
function unitsOf(markdown: string, children: PhrasingContent[], into: TextSegment[]) {
  let run: Piece[] = [];
  const flush = () => {
    const only = run.length === 1 && 'node' in run[0]! ? run[0].node : undefined;
    if (only?.type === 'link' && !isName(markdown, only)) unitsOf(markdown, only.children, into);
    else pushUnit(markdown, run, into);
    run = [];
  };
  for (const child of children) {
    const start = startOf(child);
    const end = endOf(child);
    if (start === undefined || end === undefined) continue;
    if (child.type !== 'text' || markdown.slice(start, end) !== child.value) {
      run.push({ node: child, start, end });
      continue;
    }
    let at = 0;
    for (const match of child.value.matchAll(blockTag)) {
      run.push({ text: child.value.slice(at, match.index), start: start + at, end: start + match.index });
      flush();
      at = match.index + match[0].length;
    }
    run.push({ text: child.value.slice(at), start: start + at, end });
  }
  flush();
}

const isName = (markdown: string, link: PhrasingContent & { type: 'link' }) => {
  const text = link.children.map((child) => ('value' in child ? child.value : '')).join('');
  return link.url === text || looksLikeName.test(text.trim()) || markdown.slice(startOf(link), endOf(link)).startsWith('<');
};

function pushUnit(markdown: string, pieces: Piece[], into: TextSegment[]) {
  if (!pieces.length) return;
  const links = new Map<string, { tail: string }>();
  const kept = new Map<string, string>();
  let prose = '';
  const keep = (start: number, end: number): ElementContent => {
    const id = `x${kept.size}`;
    kept.set(id, markdown.slice(start, end));
    return { type: 'element', tagName: 'x', properties: { id }, children: [] };
  };
  const html = (node: PhrasingContent): ElementContent => {
    const start = startOf(node)!;
    const end = endOf(node)!;
    const inner = () => ('children' in node ? (node.children as PhrasingContent[]).map(html) : []);
    switch (node.type) {
      case 'text':
        prose += ` ${node.value}`;
        return { type: 'text', value: node.value };
      case 'emphasis':
        return { type: 'element', tagName: 'em', properties: {}, children: inner() };
      case 'strong':
        return { type: 'element', tagName: 'strong', properties: {}, children: inner() };
      case 'delete':
        return { type: 'element', tagName: 'del', properties: {}, children: inner() };
      case 'link': {
        if (isName(markdown, node) || !node.children.length) return keep(start, end);
        const id = `a${links.size}`;
        links.set(id, { tail: markdown.slice(endOf(node.children[node.children.length - 1]!)!, end) });
        return { type: 'element', tagName: 'a', properties: { id }, children: inner() };
      }
      default:
        return keep(start, end);
    }
  };
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  const content: ElementContent[] = [];
  for (const piece of pieces) {
    if (!('text' in piece)) content.push(html(piece.node));
    else if (piece.text) {
      prose += ` ${piece.text}`;
      content.push({ type: 'text', value: piece.text });
    }
  }
  if (!letters.test(prose) || looksLikeName.test(prose.trim())) return;
  const source = markdown.slice(first.start, last.end);
  const leading = source.slice(0, source.length - source.trimStart().length);
  const trailing = source.slice(source.trimEnd().length);
  const tree: HtmlRoot = { type: 'root', children: content };
  const written = String(htmlWriter.stringify(tree));
  into.push({ start: first.start + leading.length, end: last.end - trailing.length, html: written.trim(), text: prose.trim(), links, kept });
}

/** Characters that would turn translated prose into markup. */
const markup = /[\\`*_[\]<>|]/g;

interface HtmlNode {
  nodeName: string;
  tagName?: string;
  value?: string;
  attrs?: Array<{ name: string; value: string }>;
  childNodes?: HtmlNode[];
}

/** A translated unit (HTML) as markdown: text escaped, marks and links restored, placeholders as written; none lost. */
function unitMarkdown(segment: TextSegment, translated: string): string {
  const used = new Set<string>();
  const write = (node: HtmlNode, depth: number): string => {
    if (node.nodeName === '#text') return (node.value ?? '').replace(/\r?\n/g, ' ').replace(markup, '\\$&');
    const children = () => (depth > 50 ? '' : (node.childNodes ?? []).map((child) => write(child, depth + 1)).join(''));
    const id = node.attrs?.find((attribute) => attribute.name === 'id')?.value ?? '';
    switch (node.tagName) {
      case 'em':
        return `*${children()}*`;
      case 'strong':
        return `**${children()}**`;
      case 'del':
        return `~~${children()}~~`;
      case 'a': {
        const link = segment.links.get(id);
        if (!link) return children();
        used.add(id);
        return `[${children()}${link.tail}`;
      }
      case 'x': {
        const piece = segment.kept.get(id);
        if (piece === undefined || used.has(id)) return '';
        used.add(id);
        return piece;
      }
      default:
        return children();
    }
  };
  const fragment = parseFragment(translated) as unknown as HtmlNode;
  const body = write(fragment, 0).trim();
  // What the translator dropped (code, an image) is not lost: it follows the text.
  const dropped = [...segment.kept].filter(([id]) => !used.has(id)).map(([, piece]) => piece);
  return [body, ...dropped].filter(Boolean).join(' ');
}

/**
 * The markdown with each unit replaced by its translation. A translation equal to what was sent
 * leaves the source untouched (an identity translation gives back the same bytes).
 */
export function replaceSegments(markdown: string, segments: TextSegment[], translations: string[]): string {
  if (translations.length !== segments.length) throw new Error(`expected ${segments.length} translations, got ${translations.length}`);
  let out = '';
  let at = 0;
  segments.forEach((segment, index) => {
    const translated = translations[index]!.trim();
    if (translated === segment.html) return;
    out += markdown.slice(at, segment.start) + unitMarkdown(segment, translated);
    at = segment.end;
  });
  return out + markdown.slice(at);
}

export const countWords = (texts: string[]): number => texts.reduce((sum, text) => sum + (text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0), 0);
