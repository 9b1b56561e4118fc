import type { Element, ElementContent, Root, RootContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';

/**
 * Cards, as Git Sync writes them: an HTML `<table data-view="cards">` whose header cells name the
 * columns (`data-type="content-ref"` for the card's link, `"files"` for its cover, `data-card-target`
 * and `data-card-cover` saying which, `data-hidden` for columns the card doesn't show) and whose
 * rows are the cards. Read into the upstream table block with a cards view, and written back.
 */

type DocumentNode = Record<string, unknown> & { object: string };
type ResolveRef = (target: string) => Record<string, unknown>;

const isElement = (node: RootContent | ElementContent | Root): node is Element => node.type === 'element';
const childElements = (node: Element | Root, tag: string): Element[] => (node.children as RootContent[]).filter((child): child is Element => isElement(child) && child.tagName === tag);
const descendants = (node: Element | Root, tag: string): Element[] =>
  (node.children as RootContent[]).flatMap((child) => (isElement(child) ? (child.tagName === tag ? [child] : descendants(child, tag)) : []));
const hasProperty = (element: Element, name: string) => element.properties[name] !== undefined && element.properties[name] !== false && element.properties[name] !== null;

/** The text an HTML fragment shows, entities decoded. */
export function htmlText(html: string): string {
  return textOf(fromHtml(html, { fragment: true }));
}

/** The text a HAST node shows. */
export function textOf(node: Root | ElementContent): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map((child) => textOf(child as ElementContent)).join('') : '';
}

/** An HTML block holding a cards table as the upstream table block; undefined for any other HTML. */
export function cardsTable(html: string, resolve: ResolveRef): DocumentNode[] | undefined {
  if (!/^\s*<table[^>]*data-view\s*=\s*["']?cards/i.test(html)) return undefined;
  const tree = fromHtml(html, { fragment: true });
  const table = childElements(tree, 'table')[0];
  if (!table) return undefined;
  const header = descendants(table, 'thead').flatMap((head) => descendants(head, 'tr'))[0];
  const headCells = header ? childElements(header, 'th') : [];
  const bodyRows = descendants(table, 'tbody').flatMap((body) => childElements(body, 'tr'));
  const columns = headCells.map((cell, index) => {
    const type = String(cell.properties.dataType ?? 'text');
    return { id: `c${index}`, title: textOf(cell).trim(), type: type === 'content-ref' || type === 'files' ? type : 'text', hidden: hasProperty(cell, 'dataHidden'), cell };
  });
  const definition = Object.fromEntries(
    columns.map((column) => [
      column.id,
      column.type === 'text' ? { id: column.id, title: column.title, type: 'text', textAlignment: 'left' } : { id: column.id, title: column.title, type: column.type },
    ]),
  );
  const fragments: DocumentNode[] = [];
  const records = Object.fromEntries(
    bodyRows.map((row, index) => {
      const record = `r${index}`;
      const cells = childElements(row, 'td');
      const values: Record<string, unknown> = {};
      columns.forEach((column, position) => {
        const cell = cells[position];
        if (!cell) return;
        const href = descendants(cell, 'a')[0]?.properties.href;
        if (column.type === 'content-ref') {
          if (typeof href === 'string') values[column.id] = resolve(href);
        } else if (column.type === 'files') {
          const ref = typeof href === 'string' ? resolve(href) : undefined;
          if (ref?.kind === 'file') values[column.id] = [ref.file];
        } else {
          const fragment = `${record}-${column.id}`;
          fragments.push({ object: 'fragment', fragment, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: inlinesOf(cell.children, resolve) }] });
          values[column.id] = fragment;
        }
      });
      return [record, { orderIndex: index.toString(36).padStart(6, '0'), values }];
    }),
  );
  const target = columns.find((column) => column.type === 'content-ref' && hasProperty(column.cell, 'dataCardTarget'));
  const cover = columns.find((column) => column.type === 'files' && hasProperty(column.cell, 'dataCardCover'));
  const view = {
    type: 'cards',
    cardSize: table.properties.dataCardSize === 'large' ? 'large' : 'medium',
    columns: columns.filter((column) => !column.hidden).map((column) => column.id),
    ...(target ? { targetDefinition: target.id } : {}),
    ...(cover ? { coverDefinition: cover.id } : {}),
  };
  return [{ object: 'block', type: 'table', isVoid: true, data: { view, records, definition }, fragments }];
}

const markOf: Record<string, string> = { strong: 'bold', b: 'bold', em: 'italic', i: 'italic', code: 'code', s: 'strikethrough', del: 'strikethrough' };

function inlinesOf(nodes: ElementContent[], resolve: ResolveRef, marks: string[] = []): DocumentNode[] {
  const text = (value: string): DocumentNode => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }] });
  return nodes.flatMap((node): DocumentNode[] => {
    if (node.type === 'text') return node.value.trim() || node.value === ' ' ? [text(node.value.replace(/\s+/g, ' '))] : [];
    if (!isElement(node)) return [];
    if (node.tagName === 'br') return [text('\n')];
    const mark = markOf[node.tagName];
    const inner = inlinesOf(node.children, resolve, mark ? [...marks, mark] : marks);
    if (node.tagName === 'a' && typeof node.properties.href === 'string') {
      return [{ object: 'inline', type: 'link', data: { ref: resolve(node.properties.href) }, nodes: inner.filter((child) => child.object === 'text') }];
    }
    return inner;
  });
}

/** The cards table block as Git Sync's HTML; `target` writes a content reference as a link target. */
export function cardsTableHtml(node: DocumentNode, target: (ref: unknown) => string): string {
  const data = (node.data ?? {}) as {
    view?: { columns?: string[]; cardSize?: string; targetDefinition?: string; coverDefinition?: string };
    definition?: Record<string, { title?: string; type?: string }>;
    records?: Record<string, { orderIndex?: string; values?: Record<string, unknown> }>;
  };
  const view = data.view ?? {};
  const definition = data.definition ?? {};
  const shown = new Set(view.columns ?? []);
  const ids = Object.keys(definition);
  const fragments = new Map(((node.fragments ?? []) as DocumentNode[]).map((fragment) => [String(fragment.fragment), fragment]));
  const records = Object.values(data.records ?? {}).sort((a, b) => (String(a.orderIndex) < String(b.orderIndex) ? -1 : 1));
  const th = (id: string): Element => ({
    type: 'element',
    tagName: 'th',
    properties: {
      ...(shown.has(id) ? {} : { dataHidden: true }),
      ...(view.targetDefinition === id ? { dataCardTarget: true } : {}),
      ...(view.coverDefinition === id ? { dataCardCover: true } : {}),
      ...(definition[id]!.type === 'content-ref' || definition[id]!.type === 'files' ? { dataType: definition[id]!.type } : {}),
    },
    children: definition[id]!.title ? [{ type: 'text', value: definition[id]!.title! }] : [],
  });
  const td = (id: string, value: unknown): Element => {
    const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
    let children: ElementContent[] = [];
    if (fragment) children = ((fragment.nodes ?? []) as DocumentNode[]).flatMap((block) => inlineHast((block.nodes ?? []) as DocumentNode[], target));
    else if (Array.isArray(value) && typeof value[0] === 'string') children = [link(target({ kind: 'file', file: value[0] }))];
    else if (value && typeof value === 'object') children = [link(target(value))];
    return { type: 'element', tagName: 'td', properties: {}, children };
  };
  const table: Element = {
    type: 'element',
    tagName: 'table',
    properties: { dataView: 'cards', ...(view.cardSize === 'large' ? { dataCardSize: 'large' } : {}) },
    children: [
      { type: 'element', tagName: 'thead', properties: {}, children: [{ type: 'element', tagName: 'tr', properties: {}, children: ids.map(th) }] },
      {
        type: 'element',
        tagName: 'tbody',
        properties: {},
        children: records.map((record): Element => ({ type: 'element', tagName: 'tr', properties: {}, children: ids.map((id) => td(id, record.values?.[id])) })),
      },
    ],
  };
  return toHtml(table);
}

const link = (href: string): Element => ({ type: 'element', tagName: 'a', properties: { href }, children: [{ type: 'text', value: href }] });
const tagOfMark: Record<string, string> = { bold: 'strong', italic: 'em', code: 'code', strikethrough: 's' };

function inlineHast(nodes: DocumentNode[], target: (ref: unknown) => string): ElementContent[] {
  return nodes.flatMap((node): ElementContent[] => {
    if (node.object === 'text') {
      const leaves = (Array.isArray(node.leaves) ? node.leaves : []) as Array<{ text?: string; marks?: Array<{ type?: string }> }>;
      return leaves.map((leaf) => {
        if (leaf.text === '\n') return { type: 'element', tagName: 'br', properties: {}, children: [] };
        let content: ElementContent = { type: 'text', value: leaf.text ?? '' };
        for (const mark of [...(leaf.marks ?? [])].reverse()) {
          const tag = tagOfMark[mark.type ?? ''];
          if (tag) content = { type: 'element', tagName: tag, properties: {}, children: [content] };
        }
        return content;
      });
    }
    const inner = inlineHast((node.nodes ?? []) as DocumentNode[], target);
    if (node.type === 'link') return [{ type: 'element', tagName: 'a', properties: { href: target((node.data as { ref?: unknown } | undefined)?.ref) }, children: inner }];
    return inner;
  });
}
