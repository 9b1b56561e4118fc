import type { Element, ElementContent } from 'hast';
import { captionOf, type ContentRef, type Document, type DocumentNode, slugify } from '../../engine/index.js';
import { openapiSpecKey } from './openapiSpecKey.js';
import { el, safeHref, type Child } from './hast.js';
import { mathTree } from './math.js';
import { openapiOperationTree, openapiSchemasTree } from './openapiOperation.js';

/** Where a reference of the page leads where it is shown (a site, a PDF, the app): undefined when it leads nowhere the reader may go. */
export interface DocumentLinks {
  /** The reference as written in the page, resolved against its revision. */
  resolve(ref: Record<string, unknown>): ContentRef;
  page(pageId: string): string | undefined;
  /** A file of the revision: its URL where the page is shown, its name, and its size when it is an image. */
  file(fileId: string): { url: string; name: string; width?: number; height?: number } | undefined;
  /** The OpenAPI document an OpenAPI block names (`slug:<slug>` or `url:<source URL>`), when the organization has it processed. */
  spec(key: string): unknown;
  /** False where nothing may be fetched from elsewhere (the PDF): an image from another site is shown as its alt text in brackets. */
  externalImages?: boolean;
}

export interface OutlineEntry {
  id: string;
  title: string;
  level: 1 | 2 | 3;
}

/**
 * Characters of code one page may have highlighted, all its blocks together (about 0.15 s of
 * highlight.js here); the code past them is shown plain. Highlighting costs time in proportion to
 * the code and multiplies the HTML by about six: a page of 200 blocks of 20,000 characters took
 * 11.6 s and made 26 MB.
 */
export const pageHighlightBudget = 100_000;

/** A page's Document as hast: its blocks, and the headings it has (the "On this page" outline). */
export function documentTree(document: Document, links: DocumentLinks): { content: ElementContent[]; outline: OutlineEntry[] } {
  // The page's highest heading level is shown as h2 (its title is the h1), so levels never skip.
  const levels = headingLevelsIn(document.nodes);
  const renderer = new DocumentRenderer(links, levels.length ? Math.min(...levels) - 1 : 0, pageHighlightBudget);
  return { content: renderer.blocks(document.nodes), outline: renderer.outline };
}

const headingLevels: Record<string, 1 | 2 | 3> = { 'heading-1': 1, 'heading-2': 2, 'heading-3': 3 };

/** The levels of the headings anywhere in the nodes (inside steps, tabs and expandables too). */
function headingLevelsIn(nodes: DocumentNode[]): number[] {
  return nodes.flatMap((node) => {
    const level = headingLevels[String(node.type)];
    return level !== undefined ? [level] : headingLevelsIn([...nodesOf(node), ...((node.fragments ?? []) as DocumentNode[])]);
  });
}
const hintLabels: Record<string, string> = { info: 'Note', success: 'Tip', warning: 'Warning', danger: 'Danger' };

/** Each hint style's icon (16 × 16, drawn in the label's colour): a circled i, a circled tick, a triangle with !, a circled ×. */
const hintIconPaths: Record<string, string> = {
  info: 'M8 7.2v4M8 4.6v.1',
  success: 'M5 8.3l2.1 2.1L11 6',
  warning: 'M8 6v3.4M8 11.6v.1',
  danger: 'M5.8 5.8l4.4 4.4M10.2 5.8l-4.4 4.4',
};

function hintIcon(style: string): Element {
  const outline = style === 'warning' ? el('path', { d: 'M8 1.8l6.6 11.7H1.4z', strokeLinejoin: 'round' }) : el('circle', { cx: '8', cy: '8', r: '6.6' });
  return el(
    'svg',
    { viewBox: '0 0 16 16', fill: 'none', stroke: 'currentColor', strokeWidth: '1.5', strokeLinecap: 'round', ariaHidden: 'true', focusable: 'false' },
    outline,
    el('path', { d: hintIconPaths[style]! }),
  );
}

const nodesOf = (node: DocumentNode) => (Array.isArray(node.nodes) ? (node.nodes as DocumentNode[]) : []);
const dataOf = (node: DocumentNode) => (typeof node.data === 'object' && node.data !== null ? (node.data as Record<string, unknown>) : {});
const stringOf = (value: unknown) => (typeof value === 'string' ? value : '');

class DocumentRenderer {
  readonly outline: OutlineEntry[] = [];
  private readonly ids = new Map<string, number>();

  constructor(
    private readonly links: DocumentLinks,
    private readonly levelOffset: number,
    /** What is left of the page's highlighting budget, in characters. */
    private highlightBudget: number,
  ) {}

  /** Code as highlight.js's tokens, while the page's budget lasts; plain text past it, or in a language it doesn't know. */
  private highlighted(source: string, syntax: string): Child {
    if (source.length > this.highlightBudget) return source;
    const tokens = highlighted(source, syntax);
    if (tokens !== source) this.highlightBudget -= source.length;
    return tokens;
  }

  blocks(nodes: DocumentNode[]): ElementContent[] {
    return nodes.flatMap((node) => this.block(node) ?? []);
  }

  private block(node: DocumentNode): Element | undefined {
    const data = dataOf(node);
    switch (node.type) {
      case 'paragraph':
        return el('p', {}, this.inlines(nodesOf(node)));
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        return this.heading(node, headingLevels[node.type]!);
      case 'list-ordered':
        return el('ol', typeof data.start === 'number' ? { start: data.start } : {}, this.items(node));
      case 'list-unordered':
        return el('ul', {}, this.items(node));
      case 'list-tasks':
        return el('ul', { className: ['tasks'] }, this.items(node));
      case 'blockquote':
        return el('blockquote', {}, this.blocks(nodesOf(node)));
      case 'divider':
        return el('hr');
      case 'code':
        return this.code(node);
      case 'hint': {
        const style = stringOf(data.style) in hintLabels ? stringOf(data.style) : 'info';
        // The label is shown with its icon; read once, as the note's name.
        return el(
          'aside',
          { className: ['hint', `hint-${style}`], role: 'note', ariaLabel: hintLabels[style] },
          el('p', { className: ['hint-label'], ariaHidden: 'true' }, hintIcon(style), hintLabels[style]),
          this.blocks(nodesOf(node)),
        );
      }
      case 'tabs':
        // Tabs without script: each one a disclosure, the first open.
        return el(
          'div',
          { className: ['tabs'] },
          nodesOf(node).map((tab, index) => el('details', { className: ['tab'], open: index === 0 }, el('summary', {}, stringOf(dataOf(tab).title) || `Tab ${index + 1}`), this.blocks(nodesOf(tab)))),
        );
      case 'table':
        return this.table(node);
      case 'images': {
        const captions = nodesOf(node).map(captionOf).filter(Boolean);
        return el(
          'figure',
          { className: ['images'] },
          nodesOf(node).map((image) => this.image(image)),
          captions.length ? el('figcaption', {}, captions.join(' · ')) : null,
        );
      }
      case 'image':
        return el('figure', {}, this.image(node), captionOf(node) ? el('figcaption', {}, captionOf(node)) : null);
      case 'embed':
        return this.card(stringOf(data.url), stringOf(data.url), 'embed');
      case 'content-ref': {
        const target = this.refTarget(data.ref);
        return target ? this.card(target.href, target.label, 'content-ref') : undefined;
      }
      case 'file': {
        const target = this.refTarget(data.ref);
        return target ? el('p', { className: ['file'] }, el('a', { href: target.href, download: '' }, target.label)) : undefined;
      }
      case 'math':
        return el('div', { className: ['math'] }, mathTree(stringOf(data.formula), true));
      case 'stepper':
        return el(
          'ol',
          { className: ['stepper'] },
          nodesOf(node).map((step) => el('li', {}, this.blocks(nodesOf(step)))),
        );
      case 'expandable': {
        const part = (name: string) => ((node.fragments ?? []) as DocumentNode[]).find((fragment) => fragment.fragment === name);
        const title = nodesOf(part('expandable-title') ?? { object: 'fragment' })[0];
        return el(
          'details',
          { className: ['expandable'] },
          el('summary', {}, title ? this.inlines(nodesOf(title)) : 'Details'),
          this.blocks(nodesOf(part('expandable-body') ?? { object: 'fragment' })),
        );
      }
      case 'openapi-operation':
      case 'swagger':
        return this.openapi(node);
      case 'openapi-schemas': {
        const key = openapiSpecKey(node);
        const spec = key ? this.links.spec(key) : undefined;
        const names = Array.isArray(data.schemas) ? data.schemas.filter((name): name is string => typeof name === 'string') : [];
        return spec === undefined ? undefined : openapiSchemasTree(spec, names, (title) => this.anchor(title));
      }
      default:
        // What has children keeps them; anything else Quire can't show is left out.
        return nodesOf(node).length ? el('div', {}, this.blocks(nodesOf(node))) : undefined;
    }
  }

  private heading(node: DocumentNode, level: 1 | 2 | 3): Element {
    const title = documentText(nodesOf(node));
    const id = this.anchor(title);
    const shown = Math.max(1, level - this.levelOffset) as 1 | 2 | 3;
    this.outline.push({ id, title, level: shown });
    return el(`h${shown + 1}`, { id }, el('a', { href: `#${id}`, className: ['anchor'] }, this.inlines(nodesOf(node))));
  }

  private items(list: DocumentNode): Element[] {
    return nodesOf(list).map((item) => {
      const checked = dataOf(item).checked;
      return el('li', {}, typeof checked === 'boolean' ? el('input', { type: 'checkbox', checked, disabled: true, ariaLabel: checked ? 'done' : 'to do' }) : null, this.blocks(nodesOf(item)));
    });
  }

  private code(node: DocumentNode): Element {
    const data = dataOf(node);
    const source = nodesOf(node)
      .map((line) => documentText(nodesOf(line)))
      .join('\n');
    const syntax = stringOf(data.syntax);
    const title = stringOf(data.title);
    // Line numbers, when the block asks for them, in a gutter beside the code: copying the code copies none.
    const gutter =
      data.lineNumbers === true
        ? el(
            'span',
            { className: ['gutter'], ariaHidden: 'true' },
            source
              .split('\n')
              .map((_line, index) => `${index + 1}\n`)
              .join(''),
          )
        : null;
    return el(
      'figure',
      { className: ['code', ...(title ? ['titled'] : [])] },
      title ? el('figcaption', {}, title) : null,
      el(
        'pre',
        { tabIndex: 0, ...(gutter ? { className: ['numbered'] } : {}) },
        gutter,
        el('code', syntax ? { className: [`language-${syntax.replace(/[^\w+-]/g, '')}`] } : {}, this.highlighted(source, syntax)),
      ),
    );
  }

  /** An OpenAPI block: the operation from the organization's processed specification, or a link to where the block points. */
  private openapi(node: DocumentNode): Element | undefined {
    const data = dataOf(node);
    const ref = (data.ref ?? {}) as { kind?: string; url?: string };
    const key = openapiSpecKey(node);
    const spec = key ? this.links.spec(key) : undefined;
    const path = stringOf(data.path);
    const method = stringOf(data.method).toLowerCase();
    const operation = spec === undefined ? undefined : openapiOperationTree(spec, path, method, (title) => this.anchor(title));
    if (operation) return operation;
    const source = ref.kind === 'url' ? safeHref(stringOf(ref.url)) : undefined;
    return el('p', { className: ['card', 'openapi'] }, `${method.toUpperCase()} ${path}`, source ? [' — ', el('a', { href: source }, 'specification')] : null);
  }

  /** A unique id for a heading-like title of the page. */
  private anchor(title: string): string {
    const base = slugify(title) || 'section';
    const seen = (this.ids.get(base) ?? 0) + 1;
    this.ids.set(base, seen);
    return seen === 1 ? base : `${base}-${seen}`;
  }

  private table(node: DocumentNode): Element {
    const data = dataOf(node);
    if (dataOf({ object: 'view', data: data.view }).type === 'cards') return this.cards(node);
    const view = (data.view ?? {}) as { columns?: string[] };
    const definition = (data.definition ?? {}) as Record<string, { title?: string; textAlignment?: string }>;
    const { records, fragments } = tableParts(node);
    const columns = view.columns ?? [];
    const align = (column: string) => (['center', 'right'].includes(stringOf(definition[column]?.textAlignment)) ? { style: `text-align:${definition[column]!.textAlignment}` } : {});
    // A table wider than the screen scrolls in this box, which a keyboard can reach and scroll.
    const named = columns.map((column) => stringOf(definition[column]?.title)).filter(Boolean);
    return el(
      'div',
      { className: ['table'], tabIndex: 0, role: 'region', ariaLabel: named.length ? `Table: ${named.slice(0, 3).join(', ')}` : 'Table' },
      el(
        'table',
        {},
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            columns.map((column) => el('th', { scope: 'col', ...align(column) }, stringOf(definition[column]?.title))),
          ),
        ),
        el(
          'tbody',
          {},
          records.map((record) =>
            el(
              'tr',
              {},
              columns.map((column) => {
                const fragment = fragments.get(stringOf(record.values?.[column]));
                const inner = fragment ? nodesOf(fragment) : [];
                // A cell of one paragraph shows its text without the paragraph's margins.
                const cell = inner.length === 1 && inner[0]!.type === 'paragraph' ? this.inlines(nodesOf(inner[0]!)) : this.blocks(inner);
                return el('td', align(column), cell);
              }),
            ),
          ),
        ),
      ),
    );
  }

  /**
   * A cards table: each record a card showing the view's columns, its cover image on top, the
   * whole card a link when the view names a target column the visitor can follow.
   */
  private cards(node: DocumentNode): Element {
    const data = dataOf(node);
    const view = (data.view ?? {}) as { columns?: string[]; targetDefinition?: string; coverDefinition?: string; cardSize?: string };
    const { records, fragments } = tableParts(node);
    return el(
      'div',
      { className: ['cards', view.cardSize === 'large' ? 'cards-large' : 'cards-medium'] },
      records.map((record) => {
        const values = record.values ?? {};
        const target = view.targetDefinition ? this.refTarget(values[view.targetDefinition]) : undefined;
        const coverValue = view.coverDefinition ? values[view.coverDefinition] : undefined;
        const coverFile = Array.isArray(coverValue) && typeof coverValue[0] === 'string' ? this.links.file(coverValue[0]) : undefined;
        const body = (view.columns ?? []).map((column) => {
          const fragment = fragments.get(stringOf(values[column]));
          const inner = fragment ? nodesOf(fragment) : [];
          // Links inside a card that is itself a link would nest anchors: their text is kept.
          return el(
            'div',
            {},
            inner.map((block) => (target ? documentText(nodesOf(block)) : this.inlines(nodesOf(block)))),
          );
        });
        const content = [coverFile ? el('img', { src: coverFile.url, alt: '', ...sizeOf(coverFile), loading: 'lazy', decoding: 'async' }) : null, el('div', { className: ['card-body'] }, body)];
        return target ? el('a', { className: ['cards-card'], href: target.href }, content) : el('div', { className: ['cards-card'] }, content);
      }),
    );
  }

  private image(node: DocumentNode): Element | undefined {
    const data = dataOf(node);
    const target = this.refTarget(data.ref, { image: true });
    if (target) return el('img', { src: target.href, alt: stringOf(data.alt), ...sizeOf(target, data.width), loading: 'lazy', decoding: 'async' });
    return this.links.externalImages === false ? el('span', { className: ['missing-image'] }, `[${stringOf(data.alt) || 'image'}]`) : undefined;
  }

  private card(href: string, label: string, kind: string): Element | undefined {
    const safe = safeHref(href);
    return safe ? el('p', { className: ['card', kind] }, el('a', { href: safe }, label)) : undefined;
  }

  /** A ref's URL on the site and a label for it; undefined for what the visitor can't follow. */
  private refTarget(raw: unknown, options: { image?: boolean } = {}): { href: string; label: string; width?: number; height?: number } | undefined {
    if (typeof raw !== 'object' || raw === null) return undefined;
    const ref = this.links.resolve(raw as Record<string, unknown>);
    switch (ref.kind) {
      case 'page': {
        const href = this.links.page(ref.page);
        return href ? { href, label: href } : undefined;
      }
      case 'anchor': {
        const page = ref.page ? this.links.page(ref.page) : '';
        return page === undefined ? undefined : { href: `${page}#${ref.anchor}`, label: ref.anchor };
      }
      case 'file': {
        const file = this.links.file(ref.file);
        return file && { href: file.url, label: file.name, ...sizeOf(file) };
      }
      case 'url': {
        // A relative target the revision doesn't hold is a broken link: shown as its text, leading nowhere.
        const href = options.image
          ? /^https?:/i.test(ref.url) && this.links.externalImages !== false
            ? ref.url
            : undefined
          : /^(https?:|mailto:)/i.test(ref.url.trim())
            ? safeHref(ref.url)
            : undefined;
        return href ? { href, label: ref.url } : undefined;
      }
      default:
        return undefined;
    }
  }

  private inlines(nodes: DocumentNode[]): Child[] {
    return nodes.map((node): Child => {
      if (node.object === 'text') return leaves(node);
      if (node.type === 'link') {
        const target = this.refTarget(dataOf(node).ref);
        const inner = nodesOf(node).map(leaves);
        return target ? el('a', { href: target.href }, inner) : inner;
      }
      if (node.type === 'inline-image') return this.image(node);
      if (node.type === 'inline-math') return mathTree(stringOf(dataOf(node).formula), false);
      return this.inlines(nodesOf(node));
    });
  }
}

// highlight.js and its common languages take about 0.1 s to load: loaded by the first page rendered, not at every start.
let highlighter: ReturnType<(typeof import('lowlight'))['createLowlight']> | undefined;
let loading: Promise<void> | undefined;
/** Settles once code can be highlighted; `documentTree` needs it first. */
export const codeHighlighting = (): Promise<void> =>
  (loading ??= import('lowlight').then(({ common, createLowlight }) => {
    highlighter = createLowlight(common);
  }));
/** Code as highlight.js's tokens (spans with `hljs-*` classes, as hast), for the languages it knows; plain text otherwise. */
function highlighted(source: string, syntax: string): Child {
  if (!highlighter) throw new Error('documentTree ran before codeHighlighting() settled');
  if (!syntax || !highlighter.registered(syntax)) return source;
  const tokens = highlighter.highlight(syntax, source).children as ElementContent[];
  return shells.has(syntax.toLowerCase()) ? withCommands(tokens) : tokens;
}

/** Shell languages, whose lines' first words are commands. */
const shells = new Set(['bash', 'sh', 'zsh', 'shell', 'console', 'shellsession']);

/**
 * highlight.js marks a shell's keywords, strings and variables, but not the command a line runs
 * (`npm`, `docker`): the first word of each line that isn't a comment is marked as one, after a
 * `$ ` or `# ` prompt when there is one.
 */
function withCommands(tokens: ElementContent[]): ElementContent[] {
  const out: ElementContent[] = [];
  let lineStart = true;
  for (const token of tokens) {
    if (token.type !== 'text') {
      out.push(token);
      lineStart = false;
      continue;
    }
    const parts = token.value.split('\n');
    parts.forEach((part, index) => {
      if (index > 0) {
        out.push({ type: 'text', value: '\n' });
        lineStart = true;
      }
      const command = lineStart ? /^(\s*(?:[$>] )?)([\w./~-][\w./~:+@=-]*)(.*)$/s.exec(part) : null;
      if (command && command[2]) {
        if (command[1]) out.push({ type: 'text', value: command[1] });
        out.push(el('span', { className: ['hljs-built_in'] }, command[2]));
        if (command[3]) out.push({ type: 'text', value: command[3] });
      } else if (part) out.push({ type: 'text', value: part });
      if (part) lineStart = false;
    });
  }
  return out;
}

/** A table block's records in their order, and its fragments (the cells' rich text) by name. */
function tableParts(node: DocumentNode) {
  const records = Object.values((dataOf(node).records ?? {}) as Record<string, { orderIndex?: string; values?: Record<string, unknown> }>).sort((a, b) =>
    stringOf(a.orderIndex).localeCompare(stringOf(b.orderIndex)),
  );
  const fragments = new Map(((node.fragments ?? []) as DocumentNode[]).map((fragment) => [stringOf(fragment.fragment), fragment]));
  return { records, fragments };
}

/**
 * An image's width and height attributes, when its size is known (the page keeps its layout as
 * images load): the width its writer gave (in pixels), its height in proportion; else the file's own.
 */
function sizeOf(image: { width?: number; height?: number }, given?: unknown): { width?: number; height?: number } {
  if (typeof given === 'number' && given > 0) return image.width && image.height ? { width: given, height: Math.round((image.height * given) / image.width) } : { width: given };
  return image.width && image.height ? { width: image.width, height: image.height } : {};
}

const markTags: Record<string, string> = { bold: 'strong', italic: 'em', strikethrough: 'del', code: 'code' };

function leaves(node: DocumentNode): Child[] {
  const list = Array.isArray(node.leaves) ? (node.leaves as Array<{ text?: string; marks?: Array<{ type?: string }> }>) : [];
  return list.map((leaf) => {
    const lines = stringOf(leaf.text).split('\n');
    let content: Child = lines.flatMap((line, index) => (index === 0 ? [line] : [el('br'), line]));
    for (const mark of leaf.marks ?? []) {
      const tag = markTags[stringOf(mark.type)];
      if (tag) content = el(tag, {}, content);
    }
    return content;
  });
}

/** The text of Document nodes, marks dropped. */
export function documentText(nodes: DocumentNode[]): string {
  return nodes
    .map((node) => (node.object === 'text' ? (Array.isArray(node.leaves) ? (node.leaves as Array<{ text?: string }>).map((leaf) => stringOf(leaf.text)).join('') : '') : documentText(nodesOf(node))))
    .join('');
}
