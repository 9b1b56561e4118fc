import type { AlignType, BlockContent, ListItem, PhrasingContent, Root, RootContent, Table, TableRow } from 'mdast';
import { toHtml } from 'hast-util-to-html';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { cardsTableHtml } from './cardsTable.js';
import { figureHtml, needsFigure } from './figureImage.js';
import { mathOptions } from './parse.js';

/** The upstream JSON Document, as the API receives it (see `JSONDocument`). */
export interface JsonDocument {
  object: 'document';
  data?: Record<string, unknown>;
  nodes: ReadonlyArray<Record<string, unknown>>;
}

type Node = Record<string, unknown>;

const stringifier = unified()
  .use(remarkGfm)
  .use(remarkMath, mathOptions)
  .use(remarkStringify, { bullet: '-', emphasis: '_', strong: '*', fence: '`', fences: true, listItemIndent: 'one', rule: '-', resourceLink: true });

const nodesOf = (node: Node): Node[] => (Array.isArray(node.nodes) ? (node.nodes as Node[]) : []);
const dataOf = (node: Node): Record<string, unknown> => (node.data && typeof node.data === 'object' ? (node.data as Record<string, unknown>) : {});
const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** A content reference as a link target: `/pages/<id>`, `/files/<id>` and `/reusable-contents/<id>` for the revision's own content. */
export function refTarget(ref: unknown): string {
  if (!ref || typeof ref !== 'object') return '';
  const value = ref as Record<string, unknown>;
  switch (value.kind) {
    case 'url':
      return str(value.url);
    case 'page':
      return `/pages/${str(value.page)}`;
    case 'file':
      return `/files/${str(value.file)}`;
    case 'anchor':
      return `${typeof value.page === 'string' ? `/pages/${value.page}` : ''}#${str(value.anchor)}`;
    case 'reusable-content':
      return `/reusable-contents/${str(value.reusableContent)}`;
    default:
      return '';
  }
}

/** `name="value"` of a GitBook tag, single-quoted when the value holds a double quote. */
const attribute = (name: string, value: string) => (value.includes('"') ? `${name}='${value.replace(/'/g, '')}'` : `${name}="${value}"`);

/**
 * A Document as GitBook-flavoured markdown (GFM plus `{% … %}` blocks), the reverse of
 * markdownToDocument: markdown → Document → markdown comes back to the same Document, and a
 * second pass changes nothing. Blocks Quire doesn't model keep their text as paragraphs.
 */
export function documentToMarkdown(document: JsonDocument): string {
  if (document.object !== 'document' || !Array.isArray(document.nodes)) throw new Error('not a Document: it needs "object": "document" and "nodes"');
  const text = blocksToMarkdown(document.nodes as Node[]);
  return text ? `${text}\n` : '';
}

function blocksToMarkdown(nodes: Node[]): string {
  const chunks: string[] = [];
  let run: RootContent[] = [];
  const flush = () => {
    if (run.length) chunks.push(stringify(run));
    run = [];
  };
  for (const node of nodes) {
    const tagged = gitbookBlock(node);
    if (tagged !== undefined) {
      flush();
      chunks.push(tagged);
    } else {
      run.push(...block(node));
    }
  }
  flush();
  return chunks.filter((chunk) => chunk !== '').join('\n\n');
}

function stringify(nodes: RootContent[]): string {
  return String(stringifier.stringify({ type: 'root', children: nodes } as Root)).replace(/\n+$/, '');
}

/** The blocks written as `{% … %}` tags, or undefined for the plain markdown ones. */
function gitbookBlock(node: Node): string | undefined {
  const data = dataOf(node);
  switch (node.type) {
    case 'hint':
      return `{% hint ${attribute('style', str(data.style) || 'info')} %}\n${blocksToMarkdown(nodesOf(node))}\n{% endhint %}`;
    case 'tabs':
      return `{% tabs %}\n${nodesOf(node)
        .map((tab) => `{% tab ${attribute('title', str(dataOf(tab).title))} %}\n${blocksToMarkdown(nodesOf(tab))}\n{% endtab %}`)
        .join('\n\n')}\n{% endtabs %}`;
    case 'stepper':
      return `{% stepper %}\n${nodesOf(node)
        .map((step) => `{% step %}\n${blocksToMarkdown(nodesOf(step))}\n{% endstep %}`)
        .join('\n\n')}\n{% endstepper %}`;
    case 'expandable': {
      const fragments = Array.isArray(node.fragments) ? (node.fragments as Node[]) : [];
      const part = (name: string) => fragments.find((fragment) => fragment.fragment === name);
      const title = plain({ nodes: nodesOf(part('expandable-title') ?? {}) } as Node)
        .replace(/\s+/g, ' ')
        .trim();
      const body = blocksToMarkdown(nodesOf(part('expandable-body') ?? {}));
      const summary = toHtml({ type: 'element', tagName: 'summary', properties: {}, children: [{ type: 'text', value: title }] }, { characterReferences: { useNamedReferences: true } });
      return `<details>\n\n${summary}\n\n${body}\n\n</details>`;
    }
    case 'math':
      return `$$\n${str(data.formula).trim()}\n$$`;
    case 'openapi-operation': {
      const spec = str(dataOf({ data: data.ref } as Node).spec);
      return `{% openapi-operation ${attribute('spec', spec)} ${attribute('path', str(data.path))} ${attribute('method', str(data.method))} %}\n{% endopenapi-operation %}`;
    }
    case 'swagger':
      return `{% openapi ${attribute('src', refTarget(data.ref))} ${attribute('path', str(data.path))} ${attribute('method', str(data.method))} %}\n{% endopenapi %}`;
    case 'table':
      return dataOf({ data: data.view } as Node).type === 'cards' ? cardsTableHtml(node as Node & { object: string }, refTarget) : undefined;
    case 'embed':
      return `{% embed ${attribute('url', str(data.url))} %}`;
    case 'content-ref': {
      const target = refTarget(data.ref);
      return `{% content-ref ${attribute('url', target)} %}\n[${target}](${target})\n{% endcontent-ref %}`;
    }
    case 'file':
      return `{% file ${attribute('src', refTarget(data.ref))} %}\n{% endfile %}`;
    case 'reusable-content': {
      const target = refTarget(data.ref);
      return target && !target.includes('"') ? `{% include "${target}" %}` : '';
    }
    case 'code': {
      const attributes = [
        ...(typeof data.title === 'string' ? [attribute('title', data.title)] : []),
        ...(data.overflow === 'wrap' || data.overflow === 'scroll' ? [attribute('overflow', data.overflow)] : []),
        ...(typeof data.lineNumbers === 'boolean' ? [attribute('lineNumbers', String(data.lineNumbers))] : []),
      ];
      if (!attributes.length) return undefined;
      return `{% code ${attributes.join(' ')} %}\n${stringify(block(node))}\n{% endcode %}`;
    }
    default:
      return undefined;
  }
}

function block(node: Node): Array<RootContent & BlockContent> {
  const data = dataOf(node);
  const type = str(node.type);
  switch (type) {
    case 'paragraph':
      return [{ type: 'paragraph', children: inlines(nodesOf(node)) }];
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return [{ type: 'heading', depth: Number(type.slice(-1)) as 1 | 2 | 3, children: inlines(nodesOf(node)) }];
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks': {
      const start = typeof data.start === 'number' ? data.start : undefined;
      const items = nodesOf(node).map((item): ListItem => ({
        type: 'listItem',
        spread: false,
        ...(type === 'list-tasks' ? { checked: dataOf(item).checked === true } : {}),
        children: nodesOf(item).flatMap(block),
      }));
      return [{ type: 'list', ordered: type === 'list-ordered', ...(start !== undefined ? { start } : {}), spread: false, children: items }];
    }
    case 'blockquote':
      return [{ type: 'blockquote', children: nodesOf(node).flatMap(block) }];
    case 'code':
      return [
        {
          type: 'code',
          lang: typeof data.syntax === 'string' ? data.syntax : null,
          value: nodesOf(node)
            .map((line) => plain(line))
            .join('\n'),
        },
      ];
    case 'divider':
      return [{ type: 'thematicBreak' }];
    case 'images':
      // A captioned or sized image is a figure (one image to a block: a figure holds one).
      if (nodesOf(node).length === 1 && needsFigure(nodesOf(node)[0]!)) return [{ type: 'html', value: figureHtml(nodesOf(node)[0]!, refTarget) }];
      return [
        {
          type: 'paragraph',
          children: nodesOf(node).flatMap((image, index): PhrasingContent[] => [
            ...(index > 0 ? [{ type: 'text' as const, value: ' ' }] : []),
            { type: 'image', url: refTarget(dataOf(image).ref), alt: str(dataOf(image).alt) || null },
          ]),
        },
      ];
    case 'image':
      if (needsFigure(node)) return [{ type: 'html', value: figureHtml(node, refTarget) }];
      return [{ type: 'paragraph', children: [{ type: 'image', url: refTarget(data.ref), alt: str(data.alt) || null }] }];
    case 'table':
      return table(node);
    default: {
      // A block Quire doesn't model: its text, paragraph by paragraph, rather than nothing.
      const text = plain(node).trim();
      return text ? [{ type: 'paragraph', children: [{ type: 'text', value: text }] }] : [];
    }
  }
}

// Left is where GFM puts a cell anyway: written without a marker, so a table keeps its plain `---`.
const alignments = new Set(['center', 'right']);

/**
 * The upstream table block as a GFM table: its view's columns in order (titles as the header,
 * each column's text alignment), its records by `orderIndex`; a cell is the fragment its value
 * names, or the value itself (numbers, booleans, lists, content references) as text.
 */
function table(node: Node): Table[] {
  const data = dataOf(node);
  const definition = (data.definition && typeof data.definition === 'object' ? data.definition : {}) as Record<string, Node>;
  const view = dataOf({ data: data.view } as Node);
  const columns = Array.isArray(view.columns) ? (view.columns as unknown[]).filter((id): id is string => typeof id === 'string' && id in definition) : Object.keys(definition);
  if (columns.length === 0) return [];
  const fragments = new Map((Array.isArray(node.fragments) ? (node.fragments as Node[]) : []).map((fragment) => [str(fragment.fragment), fragment]));
  const cell = (value: unknown): PhrasingContent[] => {
    const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
    if (fragment) {
      return nodesOf(fragment).flatMap((child, index): PhrasingContent[] => [
        ...(index > 0 ? [{ type: 'text' as const, value: ' ' }] : []),
        ...inlines(child.object === 'block' ? nodesOf(child) : [child]),
      ]);
    }
    if (value === null || value === undefined) return [];
    const textOf = Array.isArray(value) ? value.map(String).join(', ') : typeof value === 'object' ? refTarget(value) : String(value);
    return textOf ? [{ type: 'text', value: textOf }] : [];
  };
  const records = Object.values((data.records && typeof data.records === 'object' ? data.records : {}) as Record<string, Node>).sort((a, b) =>
    str(a.orderIndex) < str(b.orderIndex) ? -1 : str(a.orderIndex) > str(b.orderIndex) ? 1 : 0,
  );
  const row = (cells: PhrasingContent[][]): TableRow => ({ type: 'tableRow', children: cells.map((children) => ({ type: 'tableCell', children })) });
  const header = row(columns.map((id) => [{ type: 'text', value: str(definition[id]!.title) }]));
  const body = records.map((record) => {
    const values = dataOf({ data: record.values } as Node);
    return row(columns.map((id) => cell(values[id])));
  });
  const align = columns.map((id): AlignType => (alignments.has(str(definition[id]!.textAlignment)) ? (str(definition[id]!.textAlignment) as AlignType) : null));
  return [{ type: 'table', align, children: [header, ...body] }];
}

const wrappers: Record<string, (child: PhrasingContent) => PhrasingContent> = {
  bold: (child) => ({ type: 'strong', children: [child] }),
  italic: (child) => ({ type: 'emphasis', children: [child] }),
  strikethrough: (child) => ({ type: 'delete', children: [child] }),
};

function inlines(nodes: Node[]): PhrasingContent[] {
  return nodes.flatMap((node): PhrasingContent[] => {
    if (node.object === 'text') return leaves(node);
    const data = dataOf(node);
    switch (node.type) {
      case 'link':
        return [{ type: 'link', url: refTarget(data.ref), children: inlines(nodesOf(node)) }];
      case 'inline-image':
        return [{ type: 'image', url: refTarget(data.ref), alt: str(data.alt) || null }];
      case 'inline-math':
        return [{ type: 'inlineMath', value: str(data.formula) }];
      default:
        return inlines(nodesOf(node));
    }
  });
}

/**
 * A text node's leaves, each wrapped in its marks. The parser lists a leaf's marks from the
 * outermost in (`code` last), so they are wrapped from the last one out.
 */
function leaves(node: Node): PhrasingContent[] {
  const list = Array.isArray(node.leaves) ? (node.leaves as Node[]) : [];
  return list.flatMap((leaf): PhrasingContent[] => {
    const text = str(leaf.text);
    if (!text) return [];
    if (text === '\n') return [{ type: 'break' }]; // what the parser makes of a hard line break
    const marks = (Array.isArray(leaf.marks) ? (leaf.marks as Node[]) : []).map((mark) => str(mark.type));
    let wrapped: PhrasingContent = marks.includes('code') ? { type: 'inlineCode', value: text } : { type: 'text', value: text };
    for (const mark of [...marks].reverse()) wrapped = wrappers[mark]?.(wrapped) ?? wrapped;
    return [wrapped];
  });
}

/** The text of a node and everything in it. */
function plain(node: Node): string {
  if (node.object === 'text') return (Array.isArray(node.leaves) ? (node.leaves as Node[]) : []).map((leaf) => str(leaf.text)).join('');
  const children = nodesOf(node);
  return children.map(plain).join(children.every((child) => child.object === 'block') ? '\n' : '');
}
