/**
 * The block editor's model: its schema, a page's Document blocks as its nodes and back, its
 * document made of a page's blocks. Pure, and bundled for the browser (api/webApp/editor): import
 * nothing here that needs Node.
 */
export { fromDocument, toDocument, type DocNode } from './editorNodes.js';
export { refLabel, schema, voidLabel } from './schema.js';
export { documentOfBlocks, keysAfterSave, openedBlocks, sameBlocks, withKeys, writtenBlocks, type OpenedBlocks } from './editorDocument.js';
export type { EditableBlock, WrittenBlock } from '../../../engine/index.js';
