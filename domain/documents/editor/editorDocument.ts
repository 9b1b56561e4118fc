import type { Node as PMNode } from 'prosemirror-model';
import type { EditableBlock, WrittenBlock } from '../../../engine/index.js';
import { fromDocument, toDocument } from './editorNodes.js';
import { schema } from './schema.js';

/**
 * The editor's document made of a page's blocks, and the blocks a save sends back. Pure: the
 * browser runs it, and the tests run it in Node over every fixture page.
 */

/** The page's blocks as the editor's document: each top-level node keyed, opaque blocks as their markdown; never empty. */
export function documentOfBlocks(blocks: readonly EditableBlock[]): PMNode {
  const nodes = blocks.map((block) => keyedNode(block));
  return schema.node('doc', null, nodes.length ? nodes : [schema.nodes.paragraph!.create()]);
}

function keyedNode(block: EditableBlock): PMNode {
  if ('source' in block) return schema.nodes.opaque!.create({ source: block.source, key: block.key });
  const node = fromDocument(block.node);
  return node.type.create({ ...node.attrs, key: block.key }, node.content, node.marks);
}

/** What each key's node was when opened (or last saved): a block still the same is saved by its key. */
export type OpenedBlocks = ReadonlyMap<string, string>;

export function openedBlocks(doc: PMNode): OpenedBlocks {
  const opened = new Map<string, string>();
  doc.forEach((node) => {
    if (typeof node.attrs.key === 'string') opened.set(node.attrs.key, JSON.stringify(node.toJSON()));
  });
  return opened;
}

/** The blocks to save: an unchanged block by its key, an opaque one by its markdown, any other as its Document node. */
export function writtenBlocks(doc: PMNode, opened: OpenedBlocks): WrittenBlock[] {
  const blocks: WrittenBlock[] = [];
  doc.forEach((node) => {
    const key = node.attrs.key;
    if (typeof key === 'string' && opened.get(key) === JSON.stringify(node.toJSON())) blocks.push({ keep: key });
    else if (node.type === schema.nodes.opaque) blocks.push({ source: String(node.attrs.source) });
    else blocks.push(typeof key === 'string' && opened.has(key) ? { node: toDocument(node), was: key } : { node: toDocument(node) });
  });
  return blocks;
}

/** `doc` with its top-level nodes keyed `keys` (in order). */
export function withKeys(doc: PMNode, keys: ReadonlyArray<string | null>): PMNode {
  const nodes: PMNode[] = [];
  doc.forEach((node, _offset, index) => nodes.push(node.attrs.key === (keys[index] ?? null) ? node : node.type.create({ ...node.attrs, key: keys[index] ?? null }, node.content, node.marks)));
  return schema.nodes.doc!.create(null, nodes);
}

/**
 * The keys a save gave for the document's top-level nodes in order: a node gets the key of a
 * saved node (`saved`, keyed) with its content, in order for nodes alike; a node edited while the
 * save was on its way gets none, so that it is saved next time.
 */
export function keysAfterSave(doc: PMNode, saved: PMNode): Array<string | null> {
  const keysByContent = new Map<string, string[]>();
  saved.forEach((node) => {
    const key = node.attrs.key;
    if (typeof key !== 'string') return;
    const content = contentOf(node);
    keysByContent.set(content, [...(keysByContent.get(content) ?? []), key]);
  });
  const keys: Array<string | null> = [];
  doc.forEach((node) => keys.push(keysByContent.get(contentOf(node))?.shift() ?? null));
  return keys;
}

/** Whether two documents hold the same blocks, their keys aside. */
export const sameBlocks = (a: PMNode, b: PMNode) => a.childCount === b.childCount && a.content.content.every((node, index) => contentOf(node) === contentOf(b.child(index)));

/** A node's content and attributes, its key aside. */
const contentOf = (node: PMNode) => JSON.stringify({ ...node.toJSON(), attrs: { ...node.attrs, key: null } });
