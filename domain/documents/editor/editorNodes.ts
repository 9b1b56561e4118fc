import type { Mark, Node as PMNode } from 'prosemirror-model';
import { captionOf, expandableBlock, gridTable, imageBlock } from '../../../engine/markdown/documentBlocks.js';
import { schema } from './schema.js';

/**
 * A page's Document blocks as the editor's nodes and back. Both ways are exact for what the
 * schema holds: `toDocument(fromDocument(node))` is `node` up to the engine's `sameDocumentNode`
 * (marks in another order, text split otherwise), which the server checks (editorTasks:
 * holdsWhole) before it lets a block be edited here.
 */
export type DocNode = Record<string, unknown> & { object: string };
type Json = Record<string, unknown>;

const nodesOf = (node: Json): DocNode[] => (Array.isArray(node.nodes) ? (node.nodes as DocNode[]) : []);
const dataOf = (node: Json): Json => (node.data && typeof node.data === 'object' ? (node.data as Json) : {});
const fragmentsOf = (node: Json): DocNode[] => (Array.isArray(node.fragments) ? (node.fragments as DocNode[]) : []);
const voidTypes = new Set(['embed', 'file', 'content-ref', 'reusable-content', 'swagger', 'openapi-operation']);
const markTypes = new Set(['bold', 'italic', 'strikethrough', 'code']);

export class NotEditableError extends Error {}
const notEditable = (what: string): never => {
  throw new NotEditableError(`the editor has no ${what}`);
};

/** A Document block as an editor node (NotEditableError for what the schema doesn't hold). */
export function fromDocument(node: DocNode): PMNode {
  const data = dataOf(node);
  const children = () => nodesOf(node).map(fromDocument);
  switch (node.type) {
    case 'paragraph':
      return schema.node('paragraph', null, inlinesFrom(nodesOf(node)));
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return schema.node('heading', { level: Number(node.type.slice(-1)) }, inlinesFrom(nodesOf(node)));
    case 'list-unordered':
      return schema.node('bullet_list', null, children());
    case 'list-ordered':
      return schema.node('ordered_list', { start: typeof data.start === 'number' ? data.start : null }, children());
    case 'list-tasks':
      return schema.node('task_list', null, children());
    case 'list-item':
      return schema.node('list_item', { checked: typeof data.checked === 'boolean' ? data.checked : null }, children());
    case 'blockquote':
      return schema.node('blockquote', null, children());
    case 'code': {
      const text = nodesOf(node)
        .map((line) => plain(line))
        .join('\n');
      const attrs = { syntax: data.syntax ?? null, title: data.title ?? null, lineNumbers: data.lineNumbers ?? null, overflow: data.overflow ?? null };
      return schema.node('code_block', attrs, text ? schema.text(text) : undefined);
    }
    case 'divider':
      return schema.node('divider');
    case 'hint':
      return schema.node('hint', { style: data.style ?? 'info' }, children());
    case 'tabs':
      return schema.node('tabs', null, children());
    case 'tabs-item':
      return schema.node('tab', { title: String(data.title ?? '') }, children());
    case 'stepper':
      return schema.node('stepper', null, children());
    case 'stepper-step':
      return schema.node('step', null, children());
    case 'expandable': {
      const part = (name: string) => fragmentsOf(node).find((fragment) => fragment.fragment === name) ?? notEditable('expandable without its parts');
      const title = nodesOf(part('expandable-title'))
        .map((child) => plain(child))
        .join('');
      return schema.node('expandable', null, [
        schema.node('expandable_title', null, title ? schema.text(title) : undefined),
        schema.node('expandable_body', null, nodesOf(part('expandable-body')).map(fromDocument)),
      ]);
    }
    case 'math':
      return schema.node('math', null, data.formula ? schema.text(String(data.formula)) : undefined);
    case 'images':
      return schema.node('images', null, children());
    case 'image': {
      // A width other than pixels (a Length of another unit) is the API's, not written by Git Sync.
      if (data.width !== undefined && typeof data.width !== 'number') notEditable('image width in other units');
      return schema.node('image', { ref: data.ref, alt: data.alt ?? null, width: data.width ?? null, caption: captionOf(node) || null });
    }
    case 'table':
      return tableFrom(node);
    default:
      if (typeof node.type === 'string' && voidTypes.has(node.type)) return schema.node('gitbook_void', { type: node.type, data });
      return notEditable(`${String(node.type)} block`);
  }
}

function tableFrom(node: DocNode): PMNode {
  const data = dataOf(node);
  const view = dataOf({ data: data.view });
  if (view.type !== 'grid') notEditable('cards table');
  const definition = dataOf({ data: data.definition }) as Record<string, Json>;
  const columns = (Array.isArray(view.columns) ? (view.columns as string[]) : []).filter((id) => id in definition);
  if (columns.length === 0) notEditable('table without columns');
  const fragments = new Map(fragmentsOf(node).map((fragment) => [fragment.fragment, fragment]));
  const records = Object.values(dataOf({ data: data.records }) as Record<string, Json>).sort((a, b) => String(a.orderIndex).localeCompare(String(b.orderIndex)));
  const cell = (content: PMNode[]) => schema.node('table_cell', null, content);
  const header = schema.node(
    'table_row',
    null,
    columns.map((id) => cell(definition[id]!.title ? [schema.text(String(definition[id]!.title))] : [])),
  );
  const rows = records.map((record) =>
    schema.node(
      'table_row',
      null,
      columns.map((id) => {
        const fragment = fragments.get(String(dataOf({ data: record.values })[id]));
        const blocks = fragment ? nodesOf(fragment) : [];
        if (blocks.length > 1 || (blocks[0] && blocks[0].type !== 'paragraph')) notEditable('table cell of several blocks');
        return cell(blocks[0] ? inlinesFrom(nodesOf(blocks[0])) : []);
      }),
    ),
  );
  return schema.node('table', { align: columns.map((id) => String(definition[id]!.textAlignment ?? 'left')) }, [header, ...rows]);
}

function inlinesFrom(nodes: DocNode[], link?: Mark): PMNode[] {
  return nodes.flatMap((node): PMNode[] => {
    if (node.object === 'text') {
      const leaves = Array.isArray(node.leaves) ? (node.leaves as Json[]) : [];
      return leaves.flatMap((leaf) => {
        const text = String(leaf.text ?? '');
        const marks = (Array.isArray(leaf.marks) ? (leaf.marks as Json[]) : []).map((mark) => {
          if (!markTypes.has(String(mark.type))) notEditable(`${String(mark.type)} mark`);
          return schema.mark(String(mark.type));
        });
        if (link) marks.push(link);
        // A hard line break is a text of "\n" alone (what the parser makes of one).
        return text.split(/(\n)/).flatMap((part) => (part === '\n' ? [schema.node('hard_break', null, undefined, marks)] : part ? [schema.text(part, marks)] : []));
      });
    }
    const data = dataOf(node);
    switch (node.type) {
      case 'link':
        if (link) notEditable('link in a link');
        return inlinesFrom(nodesOf(node), schema.mark('link', { ref: data.ref }));
      case 'inline-image':
        return [schema.node('inline_image', { ref: data.ref, alt: data.alt ?? null }, undefined, link ? [link] : [])];
      case 'inline-math':
        return [schema.node('inline_math', { formula: String(data.formula ?? '') })];
      default:
        return notEditable(`${String(node.type)} inline`);
    }
  });
}

const plain = (node: Json): string =>
  node.object === 'text' ? (Array.isArray(node.leaves) ? (node.leaves as Json[]) : []).map((leaf) => String(leaf.text ?? '')).join('') : nodesOf(node).map(plain).join('');

const block = (type: string, nodes: DocNode[], data: Json = {}): DocNode => ({ object: 'block', type, data, nodes });
const voidBlock = (type: string, data: Json): DocNode => ({ object: 'block', type, data, isVoid: true });
const text = (value: string, marks: string[] = []): DocNode => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }] });
const withoutNulls = (attrs: Json): Json => Object.fromEntries(Object.entries(attrs).filter(([, value]) => value !== null && value !== undefined));

/** An editor node as a Document block, the reverse of `fromDocument`. */
export function toDocument(node: PMNode): DocNode {
  const children = () => node.content.content.map(toDocument);
  switch (node.type.name) {
    case 'paragraph':
      return block('paragraph', inlinesTo(node));
    case 'heading':
      return block(`heading-${Math.min(Math.max(node.attrs.level as number, 1), 3)}`, inlinesTo(node));
    case 'bullet_list':
      return block('list-unordered', children());
    case 'ordered_list':
      return block('list-ordered', children(), withoutNulls({ start: node.attrs.start }));
    case 'task_list':
      return block(
        'list-tasks',
        node.content.content.map((item) => block('list-item', item.content.content.map(toDocument), { checked: item.attrs.checked === true })),
      );
    case 'list_item':
      return block('list-item', children(), withoutNulls({ checked: node.attrs.checked }));
    case 'blockquote':
      return block('blockquote', children());
    case 'code_block':
      return block(
        'code',
        node.textContent.split('\n').map((line) => block('code-line', [text(line)])),
        withoutNulls({ syntax: node.attrs.syntax, title: node.attrs.title, lineNumbers: node.attrs.lineNumbers, overflow: node.attrs.overflow }),
      );
    case 'divider':
      return voidBlock('divider', {});
    case 'hint':
      return block('hint', children(), { style: node.attrs.style });
    case 'tabs':
      return block('tabs', children());
    case 'tab':
      return block('tabs-item', children(), { title: node.attrs.title });
    case 'stepper':
      return block('stepper', children());
    case 'step':
      return block('stepper-step', children());
    case 'expandable': {
      const [title, body] = node.content.content;
      return expandableBlock(title?.textContent ?? '', body ? body.content.content.map(toDocument) : []) as DocNode;
    }
    case 'math':
      return voidBlock('math', { formula: node.textContent });
    case 'images':
      return { object: 'block', type: 'images', data: {}, isVoid: false, nodes: children() };
    case 'image':
      return imageBlock(withoutNulls({ ref: node.attrs.ref, alt: node.attrs.alt || null, width: node.attrs.width }), String(node.attrs.caption ?? '')) as DocNode;
    case 'table':
      return tableTo(node);
    case 'gitbook_void':
      return voidBlock(node.attrs.type as string, node.attrs.data as Json);
    default:
      throw new Error(`no Document block for ${node.type.name}`);
  }
}

function tableTo(node: PMNode): DocNode {
  const [header, ...rows] = node.content.content;
  const align = node.attrs.align as string[];
  const columns = (header?.content.content ?? []).map((cell, index) => ({ title: cell.textContent, align: align[index] ?? 'left' }));
  return gridTable(
    columns,
    rows.map((row) => columns.map((_, cell) => (cell < row.childCount ? inlinesTo(row.child(cell)) : []))),
  ) as DocNode;
}

function inlinesTo(parent: PMNode): DocNode[] {
  const result: DocNode[] = [];
  let link: { mark: Mark; nodes: DocNode[] } | undefined;
  parent.forEach((child) => {
    const linkMark = child.marks.find((mark) => mark.type.name === 'link');
    if (link && (!linkMark || !linkMark.eq(link.mark))) link = undefined;
    if (linkMark && !link) {
      link = { mark: linkMark, nodes: [] };
      result.push({ object: 'inline', type: 'link', data: { ref: linkMark.attrs.ref }, nodes: link.nodes });
    }
    const into = link ? link.nodes : result;
    const marks = child.marks.filter((mark) => mark.type.name !== 'link').map((mark) => mark.type.name);
    if (child.isText) into.push(text(child.text ?? '', marks));
    else if (child.type.name === 'hard_break') into.push(text('\n', marks));
    else if (child.type.name === 'inline_image') into.push({ object: 'inline', type: 'inline-image', data: withoutNulls({ ref: child.attrs.ref, alt: child.attrs.alt || null }), isVoid: true });
    else if (child.type.name === 'inline_math') into.push({ object: 'inline', type: 'inline-math', data: { formula: child.attrs.formula }, isVoid: true });
  });
  return result;
}
