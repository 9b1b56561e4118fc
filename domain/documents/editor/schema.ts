import { Schema, type DOMOutputSpec, type NodeSpec } from 'prosemirror-model';

/**
 * The block editor's schema: one node type per block a page's Document holds, nested as the
 * Document allows (`engine/markdown/toDocument.ts`), so nothing the editor makes is lost on the
 * way to markdown. The groups say where a block may go:
 *   essential  the simple blocks a hint holds
 *   listItem   what a list item or a quote holds (written as plain markdown)
 *   stepItem   what a tab or a stepper's step holds
 *   bodyItem   what an expandable's body holds
 * A block the editor can't edit is an `opaque` block: its markdown, kept whole.
 */
const everywhere = 'block essential listItem stepItem bodyItem';
const attribute = (name: string, node: { attrs: Record<string, unknown> }) => String(node.attrs[name] ?? '');

const nodes: Record<string, NodeSpec> = {
  doc: { content: 'block*' },
  paragraph: { content: 'inline*', group: everywhere, parseDOM: [{ tag: 'p' }], toDOM: () => ['p', 0] },
  heading: {
    attrs: { level: { default: 1 } },
    content: 'inline*',
    group: everywhere,
    defining: true,
    parseDOM: [1, 2, 3].map((level) => ({ tag: `h${level}`, attrs: { level } })),
    // Drawn as headings look, not as the page's headings: a page's text may start at any level (axe: heading-order).
    toDOM: (node) => ['p', { class: `heading-block level-${String(node.attrs.level)}` }, 0],
  },
  bullet_list: { content: 'list_item+', group: everywhere, parseDOM: [{ tag: 'ul:not([data-tasks])' }], toDOM: () => ['ul', 0] },
  ordered_list: {
    attrs: { start: { default: null } },
    content: 'list_item+',
    group: everywhere,
    parseDOM: [{ tag: 'ol', getAttrs: (dom) => ({ start: (dom as HTMLElement).hasAttribute('start') ? Number((dom as HTMLElement).getAttribute('start')) : null }) }],
    toDOM: (node) => ['ol', node.attrs.start === null ? {} : { start: node.attrs.start }, 0],
  },
  task_list: { content: 'list_item+', group: everywhere, parseDOM: [{ tag: 'ul[data-tasks]' }], toDOM: () => ['ul', { 'data-tasks': '', class: 'tasks' }, 0] },
  list_item: {
    attrs: { checked: { default: null } },
    content: 'listItem+',
    defining: true,
    parseDOM: [{ tag: 'li', getAttrs: (dom) => ({ checked: (dom as HTMLElement).dataset.checked === undefined ? null : (dom as HTMLElement).dataset.checked === 'true' }) }],
    toDOM: (node) => ['li', node.attrs.checked === null ? {} : { 'data-checked': String(node.attrs.checked) }, 0],
  },
  blockquote: { content: '(essential | blockquote)+', group: 'block listItem stepItem bodyItem', defining: true, parseDOM: [{ tag: 'blockquote' }], toDOM: () => ['blockquote', 0] },
  code_block: {
    attrs: { syntax: { default: null }, title: { default: null }, lineNumbers: { default: null }, overflow: { default: null } },
    content: 'text*',
    marks: '',
    code: true,
    defining: true,
    group: 'block listItem stepItem bodyItem',
    parseDOM: [{ tag: 'pre', preserveWhitespace: 'full' }],
    toDOM: (node) => ['pre', { 'data-syntax': attribute('syntax', node) }, ['code', 0]],
  },
  divider: { group: everywhere, atom: true, selectable: true, parseDOM: [{ tag: 'hr' }], toDOM: () => ['div', { class: 'divider-block' }, ['hr']] },
  hint: {
    attrs: { style: { default: 'info' } },
    content: 'essential+',
    group: 'block stepItem bodyItem',
    defining: true,
    parseDOM: [{ tag: 'div.hint', getAttrs: (dom) => ({ style: (dom as HTMLElement).dataset.style ?? 'info' }) }],
    toDOM: (node) => ['div', { class: `hint hint-${attribute('style', node)}`, 'data-style': attribute('style', node) }, 0],
  },
  tabs: { content: 'tab+', group: 'block', defining: true, toDOM: () => ['div', { class: 'tabs-block' }, 0] },
  tab: { attrs: { title: { default: 'Tab' } }, content: 'stepItem+', defining: true, toDOM: (node) => ['section', { class: 'tab-block', 'data-title': attribute('title', node) }, 0] },
  stepper: { content: 'step+', group: 'block', defining: true, toDOM: () => ['ol', { class: 'stepper-block' }, 0] },
  step: { content: 'stepItem+', defining: true, toDOM: () => ['li', { class: 'step-block' }, 0] },
  expandable: { content: 'expandable_title expandable_body', group: 'block', defining: true, toDOM: () => ['div', { class: 'expandable-block' }, 0] },
  expandable_title: { content: 'text*', marks: '', defining: true, toDOM: () => ['div', { class: 'expandable-title' }, 0] },
  expandable_body: { content: 'bodyItem+', defining: true, toDOM: () => ['div', { class: 'expandable-body' }, 0] },
  math: { content: 'text*', marks: '', code: true, group: 'block stepItem', defining: true, toDOM: () => ['pre', { class: 'math-block' }, ['code', 0]] },
  table: { attrs: { align: { default: [] } }, content: 'table_row+', group: 'block listItem bodyItem', isolating: true, toDOM: () => ['table', ['tbody', 0]] },
  table_row: { content: 'table_cell+', toDOM: () => ['tr', 0] },
  table_cell: { content: 'inline*', isolating: true, toDOM: () => ['td', 0] },
  images: { content: 'image+', group: 'block listItem stepItem bodyItem', toDOM: () => ['div', { class: 'images-block' }, 0] },
  /** An image: its target, alt text, width in pixels and caption (with either of the last two, Git Sync writes a `<figure>`). */
  image: {
    attrs: { ref: { default: { kind: 'url', url: '' } }, alt: { default: null }, width: { default: null }, caption: { default: null } },
    atom: true,
    toDOM: (node): DOMOutputSpec => ['figure', { class: 'image-block' }, ['span', { class: 'image-target' }, refLabel(node.attrs.ref)], ['figcaption', attribute('caption', node)]],
  },
  /** A block written as one GitBook tag with attributes only: an embed, a file, a page's card, reusable content, an OpenAPI operation. */
  gitbook_void: {
    attrs: { type: {}, data: {} },
    atom: true,
    group: 'block stepItem',
    toDOM: (node) => ['div', { class: 'void-block', 'data-type': attribute('type', node) }, voidLabel(node.attrs.type as string, node.attrs.data as Record<string, unknown>)],
  },
  opaque: { attrs: { source: {} }, atom: true, group: 'block', toDOM: (node) => ['pre', { class: 'opaque-block' }, attribute('source', node)] },
  text: { group: 'inline' },
  hard_break: { inline: true, group: 'inline', selectable: false, parseDOM: [{ tag: 'br' }], toDOM: () => ['br'] },
  inline_image: {
    attrs: { ref: {}, alt: { default: null } },
    inline: true,
    atom: true,
    group: 'inline',
    toDOM: (node) => ['span', { class: 'inline-image' }, `🖼 ${attribute('alt', node) || refLabel(node.attrs.ref)}`],
  },
  inline_math: { attrs: { formula: {} }, inline: true, atom: true, group: 'inline', toDOM: (node) => ['code', { class: 'inline-math' }, `$${attribute('formula', node)}$`] },
};

/**
 * A top-level block's `key`: the block of the markdown it was opened from (`editableBlocks`). A
 * block saved as it was opened is written as that block's text, byte for byte; a new block has none.
 */
const keyed = Object.fromEntries(Object.entries(nodes).map(([name, spec]) => [name, spec.group?.split(' ').includes('block') ? { ...spec, attrs: { ...spec.attrs, key: { default: null } } } : spec]));

export const schema = new Schema({
  nodes: keyed,
  marks: {
    link: {
      attrs: { ref: {} },
      inclusive: false,
      parseDOM: [{ tag: 'a[href]', getAttrs: (dom) => ({ ref: { kind: 'url', url: (dom as HTMLElement).getAttribute('href') } }) }],
      toDOM: (mark) => ['a', { href: refLabel(mark.attrs.ref), title: refLabel(mark.attrs.ref) }, 0],
    },
    bold: { parseDOM: [{ tag: 'strong' }, { tag: 'b' }], toDOM: () => ['strong', 0] },
    italic: { parseDOM: [{ tag: 'em' }, { tag: 'i' }], toDOM: () => ['em', 0] },
    strikethrough: { parseDOM: [{ tag: 's' }, { tag: 'del' }], toDOM: () => ['s', 0] },
    code: { parseDOM: [{ tag: 'code' }], toDOM: () => ['code', 0] },
  },
});

/** A content reference as its reader sees it: the URL or path it points at. */
export function refLabel(ref: unknown): string {
  if (!ref || typeof ref !== 'object') return '';
  const value = ref as Record<string, unknown>;
  if (value.kind === 'url') return String(value.url ?? '');
  if (value.kind === 'anchor') return `#${String(value.anchor ?? '')}`;
  if (value.kind === 'openapi') return String(value.spec ?? '');
  return String(value.page ?? value.file ?? value.reusableContent ?? '');
}

const voidNames: Record<string, string> = {
  embed: 'Embed',
  file: 'File',
  'content-ref': 'Page link',
  'reusable-content': 'Reusable content',
  swagger: 'OpenAPI',
  'openapi-operation': 'OpenAPI operation',
};

export function voidLabel(type: string, data: Record<string, unknown>): string {
  const target = typeof data.url === 'string' ? data.url : refLabel(data.ref);
  const operation = typeof data.method === 'string' ? ` ${data.method.toUpperCase()} ${String(data.path ?? '')}` : '';
  return `${voidNames[type] ?? type}: ${target}${operation}`;
}
