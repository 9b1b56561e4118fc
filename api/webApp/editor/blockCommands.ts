import { setBlockType, wrapIn } from 'prosemirror-commands';
import type { Node as PMNode, NodeType } from 'prosemirror-model';
import { wrapInList } from 'prosemirror-schema-list';
import { NodeSelection, Selection, TextSelection, type Command, type EditorState } from 'prosemirror-state';
import { schema } from '../../../domain/documents/editor/index.js';

/** A block the slash menu inserts: its name, the words it is found by, and how. */
export interface BlockChoice {
  label: string;
  words: string;
  command: Command;
}

const nodes = schema.nodes;
const paragraph = () => nodes.paragraph!.create();

/**
 * Puts `node` where the cursor's empty paragraph is, or after the top-level block the cursor is
 * in when it can't go there (a table inside a hint), then puts the cursor in its first text.
 */
function placeBlock(make: () => PMNode): Command {
  return (state, dispatch) => {
    const { $from } = state.selection;
    const node = make();
    const parent = $from.node($from.depth - 1);
    const index = $from.index($from.depth - 1);
    const here = $from.parent.type === nodes.paragraph && $from.parent.content.size === 0 && parent.canReplaceWith(index, index + 1, node.type);
    const from = here ? $from.before() : $from.after(1);
    const to = here ? $from.after() : from;
    if (!dispatch) return true;
    const tr = state.tr.replaceWith(from, to, node);
    // A block with no text of its own is selected, its settings beside it.
    tr.setSelection(node.isAtom ? NodeSelection.create(tr.doc, from) : Selection.near(tr.doc.resolve(from + 1)));
    dispatch(tr.scrollIntoView());
    return true;
  };
}

/** A list of `type` around the paragraph; a task list's items start unchecked. */
function list(type: NodeType): Command {
  return (state, dispatch) => wrapInList(type, type === nodes.task_list ? { checked: false } : null)(state, dispatch);
}

const text = (value: string) => schema.text(value);
const table = () =>
  nodes.table!.create({ align: ['left', 'left'] }, [
    nodes.table_row!.create(null, [nodes.table_cell!.create(null, text('Column 1')), nodes.table_cell!.create(null, text('Column 2'))]),
    nodes.table_row!.create(null, [nodes.table_cell!.create(), nodes.table_cell!.create()]),
  ]);

/** Which `type` the selection is in (a tab, a step): its node and position. */
function enclosing(state: EditorState, type: NodeType): { node: PMNode; pos: number } | undefined {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth -= 1) if ($from.node(depth).type === type) return { node: $from.node(depth), pos: $from.before(depth) };
  return undefined;
}

/** A new tab (or step) after the one the cursor is in, the cursor in it; false outside one. */
function addAfter(type: NodeType, attrs: (siblings: number) => Record<string, unknown> | null): Command {
  return (state, dispatch) => {
    const current = enclosing(state, type);
    if (!current) return false;
    if (!dispatch) return true;
    const siblings = state.doc.resolve(current.pos).parent.childCount;
    const at = current.pos + current.node.nodeSize;
    const tr = state.tr.insert(at, type.create(attrs(siblings), paragraph()));
    tr.setSelection(Selection.near(tr.doc.resolve(at + 1)));
    dispatch(tr.scrollIntoView());
    return true;
  };
}

/** Removes the tab (or step) at `pos`, or the whole block when it is the last one. */
export function removePart(pos: number): Command {
  return (state, dispatch) => {
    const node = state.doc.nodeAt(pos);
    if (!node) return false;
    const $pos = state.doc.resolve(pos);
    const last = $pos.parent.childCount === 1;
    const [from, to] = last ? [$pos.before(), $pos.after()] : [pos, pos + node.nodeSize];
    dispatch?.(state.tr.delete(from, to).scrollIntoView());
    return true;
  };
}

/** What the blocks pointing somewhere need from the page: the first target a list offers (see editorPages), a file chosen and uploaded. */
export interface ChoiceContext {
  firstTarget(list: 'page-targets' | 'reusable-targets' | 'spec-targets'): string | undefined;
  chooseFile(): void;
}

/** A block pointing at the first of `list`'s targets; not offered when the list is empty (no other page, no reusable content…). */
const pointing = (context: ChoiceContext, list: Parameters<ChoiceContext['firstTarget']>[0], make: (target: string) => PMNode): Command => {
  return (state, dispatch, view) => {
    const target = context.firstTarget(list);
    return target !== undefined && placeBlock(() => make(target))(state, dispatch, view);
  };
};

const gitbookTag = (type: string, data: Record<string, unknown>) => nodes.gitbook_void!.create({ type, data });

export const blockChoices = (context: ChoiceContext): BlockChoice[] => [
  { label: 'New tab', words: 'new add tab another', command: addAfter(nodes.tab!, (siblings) => ({ title: `Tab ${siblings + 1}` })) },
  { label: 'New step', words: 'new add step another', command: addAfter(nodes.step!, () => null) },
  { label: 'Text', words: 'paragraph text plain', command: setBlockType(nodes.paragraph!) },
  { label: 'Heading 1', words: 'heading title h1 large', command: setBlockType(nodes.heading!, { level: 1 }) },
  { label: 'Heading 2', words: 'heading subtitle h2 medium', command: setBlockType(nodes.heading!, { level: 2 }) },
  { label: 'Heading 3', words: 'heading h3 small', command: setBlockType(nodes.heading!, { level: 3 }) },
  { label: 'Bulleted list', words: 'bulleted unordered list bullets', command: list(nodes.bullet_list!) },
  { label: 'Numbered list', words: 'numbered ordered list', command: list(nodes.ordered_list!) },
  { label: 'Task list', words: 'task todo checklist checkbox list', command: list(nodes.task_list!) },
  { label: 'Quote', words: 'quote blockquote citation', command: wrapIn(nodes.blockquote!) },
  { label: 'Code block', words: 'code block snippet pre', command: setBlockType(nodes.code_block!) },
  { label: 'Hint', words: 'hint callout info warning danger success note', command: wrapIn(nodes.hint!, { style: 'info' }) },
  { label: 'Tabs', words: 'tabs tab', command: placeBlock(() => nodes.tabs!.create(null, nodes.tab!.create({ title: 'Tab 1' }, paragraph()))) },
  { label: 'Stepper', words: 'stepper steps step guide', command: placeBlock(() => nodes.stepper!.create(null, nodes.step!.create(null, paragraph()))) },
  {
    label: 'Expandable',
    words: 'expandable details collapsible toggle accordion',
    command: placeBlock(() => nodes.expandable!.create(null, [nodes.expandable_title!.create(null, text('Details')), nodes.expandable_body!.create(null, paragraph())])),
  },
  { label: 'Math', words: 'math formula equation tex latex', command: placeBlock(() => nodes.math!.create()) },
  { label: 'Table', words: 'table grid columns rows', command: placeBlock(table) },
  { label: 'Divider', words: 'divider rule separator line hr', command: placeBlock(() => nodes.divider!.create()) },
  { label: 'Embed', words: 'embed video url iframe', command: placeBlock(() => gitbookTag('embed', { url: '' })) },
  { label: 'Mermaid diagram', words: 'mermaid diagram chart flowchart sequence graph', command: setBlockType(nodes.code_block!, { syntax: 'mermaid' }) },
  {
    label: 'File',
    words: 'file attachment download upload pdf',
    command: (_state, dispatch) => {
      if (dispatch) context.chooseFile();
      return true;
    },
  },
  { label: 'Page link', words: 'page link card reference content-ref', command: pointing(context, 'page-targets', (url) => gitbookTag('content-ref', { ref: { kind: 'url', url } })) },
  {
    label: 'Reusable content',
    words: 'reusable content include snippet shared',
    command: pointing(context, 'reusable-targets', (url) => gitbookTag('reusable-content', { ref: { kind: 'url', url } })),
  },
  {
    label: 'OpenAPI operation',
    words: 'openapi api operation endpoint swagger',
    command: pointing(context, 'spec-targets', (spec) => gitbookTag('openapi-operation', { ref: { kind: 'openapi', spec }, method: 'get', path: '/' })),
  },
];

/** The top-level block the selection is in: its node and position. */
export function topBlockAt(state: EditorState): { node: PMNode; pos: number; index: number } | undefined {
  const { selection } = state;
  if (selection instanceof NodeSelection && selection.$from.depth === 0) return { node: selection.node, pos: selection.from, index: selection.$from.index(0) };
  const $from = selection.$from;
  if ($from.depth < 1) return undefined;
  return { node: $from.node(1), pos: $from.before(1), index: $from.index(0) };
}

/** Moves the top-level block the cursor is in one place up (-1) or down (1), the cursor with it. */
export function moveBlock(direction: -1 | 1): Command {
  return (state, dispatch) => {
    const block = topBlockAt(state);
    if (!block) return false;
    const otherIndex = block.index + direction;
    if (otherIndex < 0 || otherIndex >= state.doc.childCount) return false;
    if (!dispatch) return true;
    const other = state.doc.child(otherIndex);
    const end = block.pos + block.node.nodeSize;
    const offset = state.selection.from - block.pos;
    const tr = state.tr.delete(block.pos, end);
    const target = direction < 0 ? block.pos - other.nodeSize : block.pos + other.nodeSize;
    tr.insert(target, block.node);
    const selection = state.selection instanceof NodeSelection ? NodeSelection.create(tr.doc, target) : TextSelection.near(tr.doc.resolve(target + offset));
    dispatch(tr.setSelection(selection).scrollIntoView());
    return true;
  };
}

/** Sets attributes of the node at `pos` (a block's settings). */
export function setAttributes(pos: number, attrs: Record<string, unknown>): Command {
  return (state, dispatch) => {
    const node = state.doc.nodeAt(pos);
    if (!node) return false;
    dispatch?.(state.tr.setNodeMarkup(pos, undefined, { ...node.attrs, ...attrs }));
    return true;
  };
}

/** Adds a row at the end of the table at `pos`, or a column at its right. */
export function growTable(pos: number, what: 'row' | 'column'): Command {
  return (state, dispatch) => {
    const table = state.doc.nodeAt(pos);
    if (!table || table.type !== nodes.table) return false;
    const width = table.firstChild?.childCount ?? 1;
    const rows: PMNode[] = [];
    table.forEach((row) => rows.push(what === 'column' ? row.copy(row.content.addToEnd(nodes.table_cell!.create())) : row));
    if (what === 'row')
      rows.push(
        nodes.table_row!.create(
          null,
          Array.from({ length: width }, () => nodes.table_cell!.create()),
        ),
      );
    const align = what === 'column' ? [...(table.attrs.align as string[]), 'left'] : table.attrs.align;
    dispatch?.(state.tr.replaceWith(pos, pos + table.nodeSize, nodes.table!.create({ ...table.attrs, align }, rows)));
    return true;
  };
}
