import { createHash } from 'node:crypto';
import { BudgetedCache, stringBytes } from '../runtime/cacheBudget.js';
import type { BlockContent, Code, Heading, Image, List, ListItem, PhrasingContent, RootContent, Table } from 'mdast';
import { assertTreeDepth, maxMarkdownDepth, nestingBound } from './depth.js';
import { splitBlocks, type Segment } from './blocks.js';
import { parseMarkdown } from './parse.js';
import { topBlocks, type BlockSegment, type TopBlock } from './topBlocks.js';
import { cardsTable, htmlText } from './cardsTable.js';
import { figureImage } from './figureImage.js';
import { expandableBlock, gridTable } from './documentBlocks.js';

/** JSON shapes of the upstream Document (see `JSONDocument` in the API spec). */
export type DocumentNode = Record<string, unknown> & { object: string };
export interface Document {
  object: 'document';
  data: Record<string, unknown>;
  nodes: DocumentNode[];
}

/** Turns a link or image target into a content reference: pages and files of the revision, or URLs. */
export type ResolveRef = (target: string) => Record<string, unknown>;

const defaultResolve: ResolveRef = (target) => (target.startsWith('#') ? { kind: 'anchor', anchor: target.slice(1) } : { kind: 'url', url: target });

/** A top-level block of a page with its key and its Document nodes (links as written: see `defaultResolve`). */
export interface KeyedBlock extends TopBlock {
  /**
   * The block's key in the page's Document: a hash of its nodes, then `-2`, `-3`… for later blocks
   * of the same content in the page. It stays while the block's content does, whatever changes
   * around it or in its markdown's spelling, so a key read from one revision finds the block in another.
   */
  key: string;
  /** The hash of the block's content alone: what blocks of two revisions are matched on. */
  hash: string;
  nodes: DocumentNode[];
}

/** The page's top-level blocks, keyed; MarkdownTooDeepError past the nesting limit. */
export function keyedBlocks(markdown: string, segments: Segment[] = splitBlocks(markdown)): KeyedBlock[] {
  assertTreeDepth({ children: segments });
  const converter = new Converter(defaultResolve);
  const seen = new Map<string, number>();
  return topBlocks(markdown, segments).map((block) => {
    const { nodes, hash } = convertedBlock(converter, block, markdown);
    const count = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, count);
    return { ...block, nodes, hash, key: count === 1 ? hash : `${hash}-${count}` };
  });
}

// A markdown block's nodes and hash, by its parsed tree (topBlocks keeps the trees of text it read before).
const converted = new WeakMap<object, { nodes: DocumentNode[]; hash: string }>();

/**
 * A GitBook block's nodes and hash, by its text (segments are split anew each time): a page saved
 * from the editor is keyed again whole, and its hints and tabs would be parsed again each time.
 * Weighed as its text and its JSON nodes, a few times the text.
 */
const segmentsConverted = new BudgetedCache<string, { nodes: DocumentNode[]; hash: string }>('converted GitBook blocks', (_result, text) => stringBytes(text) * 4);

function convertedBlock(converter: Converter, block: TopBlock, markdown: string): { nodes: DocumentNode[]; hash: string } {
  const tree = 'node' in block.source ? block.source.node : undefined;
  const text = tree ? undefined : markdown.slice(block.start, block.end);
  const known = tree ? converted.get(tree) : segmentsConverted.get(text!);
  if (known) return known;
  const nodes = converter.top(block);
  // A block that makes no node (a link definition, an empty HTML block) is told apart by its text.
  const content = nodes.length > 0 ? JSON.stringify(nodes) : `\0${markdown.slice(block.start, block.end)}`;
  const result = { nodes, hash: createHash('sha1').update(content).digest('hex').slice(0, 12) };
  // A tree's (or a GitBook block's) text alone makes its nodes, except a block of no node, told apart by its text.
  if (tree && nodes.length > 0) converted.set(tree, result);
  if (text !== undefined && nodes.length > 0) segmentsConverted.set(text, result);
  return result;
}

/**
 * A page's markdown (GitBook flavour: GFM plus `{% … %}` blocks) as a Document; MarkdownTooDeepError
 * past the limit. Each top-level node has the key of the block it comes from (see `keyedBlocks`;
 * `<key>.2`, `<key>.3`… when one block makes several nodes), which `revert_page` takes; every
 * node and fragment inside it has a key made from that one (see keyedTree).
 */
export function markdownToDocument(markdown: string, resolve: ResolveRef = defaultResolve): Document {
  const blocks = keyedBlocks(markdown);
  const converter = resolve === defaultResolve ? undefined : new Converter(resolve);
  const nodes = blocks.flatMap((block) => (converter ? converter.top(block) : block.nodes).map((node, index) => keyedTree(node, index === 0 ? block.key : `${block.key}.${index + 1}`)));
  return { object: 'document', data: {}, nodes };
}

/**
 * `node` keyed `key`, and each block, inline, text and fragment inside it keyed by its place from
 * there (`<key>/0`, `<key>/0/1`, `<key>:caption` for a fragment): GitBook's Documents key every
 * node, and its renderer lists them by their keys (a tab without one fails to render). Made from
 * the top-level block's key, a nested key stays while that block does, whatever changes around it.
 * Leaves and marks have none, as upstream. New objects: converted blocks are shared from a cache.
 */
function keyedTree(node: DocumentNode, key: string): DocumentNode {
  const keyed: DocumentNode = { ...node, key };
  if (Array.isArray(node.nodes)) keyed.nodes = (node.nodes as DocumentNode[]).map((child, index) => (child.object === 'leaf' ? child : keyedTree(child, `${key}/${index}`)));
  if (Array.isArray(node.fragments))
    keyed.fragments = (node.fragments as DocumentNode[]).map((fragment, index) => keyedTree(fragment, `${key}:${typeof fragment.fragment === 'string' ? fragment.fragment : index}`));
  return keyed;
}

/** Throws MarkdownTooDeepError when the markdown nests deeper than the limit; measured without recursion. */
export function assertMarkdownDepth(markdown: string): void {
  const segments = splitBlocks(markdown);
  assertTreeDepth({ children: segments });
  // Every markdown run parsed within the limit, those inside `{% … %}` blocks too: what converting
  // would parse. A run whose openers can't reach the limit (most prose) needs no parse.
  const pending = [...segments];
  for (let segment = pending.pop(); segment; segment = pending.pop()) {
    if (segment.kind === 'block') pending.push(...segment.children);
    else if (segment.text.trim() && nestingBound(segment.text) > maxMarkdownDepth) parseMarkdown(segment.text);
  }
}

const block = (type: string, nodes: DocumentNode[], data: Record<string, unknown> = {}): DocumentNode => ({ object: 'block', type, data, nodes });
const voidBlock = (type: string, data: Record<string, unknown>): DocumentNode => ({ object: 'block', type, data, isVoid: true });
const text = (value: string, marks: string[] = []): DocumentNode => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }],
});
const hintStyles = new Set(['info', 'warning', 'danger', 'success']);
const essentials = new Set(['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider']);
/** What a tab and a stepper's step may hold (the spec's lists); an expandable's body holds tables and quotes too, not embeds or files. */
const stepContent = new Set([...essentials, 'content-ref', 'code', 'embed', 'file', 'images', 'drawing', 'hint', 'blockquote', 'math', 'integration']);
const expandableContent = new Set([...essentials, 'images', 'code', 'table', 'hint', 'blockquote', 'reusable-content']);
const only = (allowed: Set<string>, nodes: DocumentNode[]) => nodes.filter((node) => allowed.has(node.type as string));
const openapiMethods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

class Converter {
  constructor(private readonly resolve: ResolveRef) {}

  /** A top-level block's nodes. */
  top(block: TopBlock): DocumentNode[] {
    return 'node' in block.source ? this.block(block.source.node) : this.gitbookBlock(block.source.segment);
  }

  segments(segments: Segment[]): DocumentNode[] {
    return segments.flatMap((segment) => (segment.kind === 'markdown' ? this.markdown(segment.text) : this.gitbookBlock(segment)));
  }

  private markdown(source: string): DocumentNode[] {
    if (!source.trim()) return [];
    return parseMarkdown(source).children.flatMap((node) => this.block(node));
  }

  private gitbookBlock(segment: BlockSegment): DocumentNode[] {
    const { name, attributes } = segment;
    switch (name) {
      case 'hint': {
        const style = hintStyles.has(attributes.style ?? '') ? attributes.style : 'info';
        // A hint holds the essential blocks only; anything richer is kept as its paragraphs' text.
        return [
          block(
            'hint',
            this.segments(segment.children).filter((node) => essentials.has(node.type as string)),
            { style },
          ),
        ];
      }
      case 'tabs':
        return [
          block(
            'tabs',
            segment.children
              .filter((child): child is Extract<Segment, { kind: 'block' }> => child.kind === 'block' && child.name === 'tab')
              .map((tab) => block('tabs-item', only(stepContent, this.segments(tab.children)), { title: tab.attributes.title ?? '' })),
          ),
        ];
      case 'stepper':
        return [
          block(
            'stepper',
            segment.children
              .filter((child): child is BlockSegment => child.kind === 'block' && child.name === 'step')
              .map((step) => block('stepper-step', only(stepContent, this.segments(step.children)))),
          ),
        ];
      case 'details':
        return [this.expandable(segment)];
      case 'openapi-operation': {
        const method = attributes.method?.toLowerCase() ?? '';
        if (!attributes.spec || !attributes.path || !openapiMethods.has(method)) return [];
        return [voidBlock('openapi-operation', { ref: { kind: 'openapi', spec: attributes.spec }, path: attributes.path, method })];
      }
      case 'openapi':
      case 'swagger': {
        const method = attributes.method?.toLowerCase() ?? '';
        if (!attributes.src || !attributes.path || !openapiMethods.has(method)) return [];
        return [voidBlock('swagger', { ref: this.resolve(attributes.src), path: attributes.path, method })];
      }
      case 'code': {
        const code = this.segments(segment.children).find((node) => node.type === 'code');
        if (!code) return this.segments(segment.children);
        const data = { ...(code.data as Record<string, unknown>) };
        if (attributes.title) data.title = attributes.title;
        if (attributes.overflow === 'wrap' || attributes.overflow === 'scroll') data.overflow = attributes.overflow;
        if (attributes.lineNumbers) data.lineNumbers = attributes.lineNumbers === 'true';
        return [{ ...code, data }];
      }
      case 'embed':
        return attributes.url ? [voidBlock('embed', { url: attributes.url })] : [];
      case 'content-ref':
        return attributes.url ? [voidBlock('content-ref', { ref: this.resolve(attributes.url) })] : [];
      case 'file':
        return attributes.src ? [voidBlock('file', { ref: this.resolve(attributes.src) })] : [];
      case 'include':
        // The included file's path as written: the presenter resolves it to the reusable content's id.
        return attributes.argument ? [voidBlock('reusable-content', { ref: this.resolve(attributes.argument) })] : [];
      default:
        // Blocks Quire doesn't model yet keep their content rather than losing it.
        return this.segments(segment.children);
    }
  }

  private block(node: RootContent | BlockContent): DocumentNode[] {
    switch (node.type) {
      case 'paragraph': {
        const images = node.children.filter((child): child is Image => child.type === 'image');
        if (images.length > 0 && images.length === node.children.filter((c) => !(c.type === 'text' && !c.value.trim())).length) {
          return [{ object: 'block', type: 'images', data: {}, isVoid: false, nodes: images.map((image) => this.image(image)) }];
        }
        return [block('paragraph', this.inlines(node.children))];
      }
      case 'heading':
        return [block(`heading-${Math.min((node as Heading).depth, 3)}`, this.inlines(node.children))];
      case 'list':
        return [this.list(node as List)];
      case 'blockquote':
        return [
          block(
            'blockquote',
            node.children.flatMap((child) => this.block(child)).filter((n) => essentials.has(n.type as string) || n.type === 'blockquote'),
          ),
        ];
      case 'code':
        return [this.code(node as Code)];
      case 'thematicBreak':
        return [voidBlock('divider', {})];
      case 'html':
        return (cardsTable(node.value, this.resolve) ?? figureImage(node.value, this.resolve) ?? (node.value.trim() ? [block('paragraph', [text(node.value)])] : [])) as DocumentNode[];
      case 'table':
        return [this.table(node as Table)];
      case 'math':
        return [voidBlock('math', { formula: node.value })];
      default:
        return [];
    }
  }

  /**
   * A GFM table as the upstream table block: the header row names text columns (`c0`, `c1`, …,
   * aligned as the table says), each further row is a record (`r0`, …, in order), and each cell's
   * rich text is a fragment of the block that the record's value names.
   */
  private table(table: Table): DocumentNode {
    const [header, ...rows] = table.children;
    const columns = (header?.children ?? []).map((cell, index) => ({ title: this.plain(cell.children), align: table.align?.[index] ?? 'left' }));
    return gridTable(
      columns,
      rows.map((row) => columns.map((_, cell) => this.inlines(row.children[cell]?.children ?? []))),
    );
  }

  /**
   * `<details>`: its `<summary>` line is the title (text only), the rest the body; an expandable
   * holds both as fragments, the body never empty.
   */
  private expandable(segment: BlockSegment): DocumentNode {
    let title = '';
    const children = segment.children.map((child): Segment => {
      if (title || child.kind !== 'markdown') return child;
      const summary = /^\s*<summary>([\s\S]*?)<\/summary>[ \t]*$/im.exec(child.text);
      if (!summary) return child;
      title = htmlText(summary[1]!).trim();
      return { ...child, text: child.text.slice(0, summary.index) + child.text.slice(summary.index + summary[0].length) };
    });
    return expandableBlock(title, only(expandableContent, this.segments(children)));
  }

  private list(list: List): DocumentNode {
    const tasks = list.children.some((item) => typeof item.checked === 'boolean');
    const type = tasks ? 'list-tasks' : list.ordered ? 'list-ordered' : 'list-unordered';
    const data = list.ordered && list.start && list.start !== 1 ? { start: list.start } : {};
    return block(
      type,
      list.children.map((item: ListItem) =>
        block(
          'list-item',
          item.children.flatMap((child) => this.block(child)),
          typeof item.checked === 'boolean' ? { checked: item.checked } : {},
        ),
      ),
      data,
    );
  }

  private code(node: Code): DocumentNode {
    return block(
      'code',
      node.value.split('\n').map((line) => block('code-line', [text(line)])),
      node.lang ? { syntax: node.lang } : {},
    );
  }

  private image(image: Image): DocumentNode {
    return { object: 'block', type: 'image', data: { ref: this.resolve(image.url), ...(image.alt ? { alt: image.alt } : {}) }, fragments: [], isVoid: true };
  }

  private inlines(nodes: PhrasingContent[], marks: string[] = []): DocumentNode[] {
    return nodes.flatMap((node): DocumentNode[] => {
      switch (node.type) {
        case 'text':
          return [text(softBreaks(node.value), marks)];
        case 'strong':
          return this.inlines(node.children, [...marks, 'bold']);
        case 'emphasis':
          return this.inlines(node.children, [...marks, 'italic']);
        case 'delete':
          return this.inlines(node.children, [...marks, 'strikethrough']);
        case 'inlineCode':
          return [text(softBreaks(node.value), [...marks, 'code'])];
        case 'break':
          return [text('\n', marks)];
        case 'link': {
          const children = this.inlines(node.children, marks).filter((child) => child.object === 'text');
          return [{ object: 'inline', type: 'link', data: { ref: this.resolve(node.url) }, nodes: children.length ? children : [text(node.url)] }];
        }
        case 'image':
          return [{ object: 'inline', type: 'inline-image', data: { ref: this.resolve(node.url), ...(node.alt ? { alt: node.alt } : {}) }, isVoid: true }];
        case 'html':
          return [text(node.value, marks)];
        case 'inlineMath':
          return [{ object: 'inline', type: 'inline-math', data: { formula: node.value }, isVoid: true }];
        default:
          return 'children' in node ? this.inlines(node.children as PhrasingContent[], marks) : 'value' in node ? [text(String(node.value), marks)] : [];
      }
    });
  }

  private plain(nodes: PhrasingContent[]): string {
    return nodes.map((node) => ('value' in node ? node.value : 'children' in node ? this.plain(node.children as PhrasingContent[]) : '')).join('');
  }
}

/**
 * A paragraph wrapped over several lines is one line of text: in a Document a "\n" is a line
 * break (what a `break`, two spaces or a backslash at a line's end, becomes), so the line endings
 * markdown reads as soft breaks become spaces, as CommonMark renders them.
 */
const softBreaks = (value: string) => value.replace(/[ \t]*\r?\n[ \t]*/g, ' ');
