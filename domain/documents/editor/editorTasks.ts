/**
 * The block editor's markdown work, run in the worker pool (a page of a million characters takes
 * a second to read into blocks). Errors come back as values: classes don't cross threads.
 */
import { editableBlocks, MarkdownTooDeepError, sameDocumentNode, UnknownBlockError, writeKeyedBlocks, type DocumentNode, type EditableBlock, type WrittenBlock } from '../../../engine/index.js';
import { fromDocument, NotEditableError, toDocument } from './editorNodes.js';
import { schema } from './schema.js';

export type EditorTaskResult<T> = { ok: true; value: T } | { ok: false; message: string; tooDeep?: number; unknownBlock?: string };

function settle<T>(work: () => T): EditorTaskResult<T> {
  try {
    return { ok: true, value: work() };
  } catch (error) {
    if (error instanceof MarkdownTooDeepError) return { ok: false, message: error.message, tooDeep: error.limit };
    if (error instanceof UnknownBlockError) return { ok: false, message: error.message, unknownBlock: error.key };
    return { ok: false, message: (error as Error).message };
  }
}

export const openBlocks = (markdown: string) => settle((): EditableBlock[] => editableBlocks(markdown, holdsWhole));
export const writtenMarkdown = (input: { base: string; blocks: WrittenBlock[] }) => settle(() => writeKeyedBlocks(input.base, input.blocks));

/** Whether the editor holds a top-level Document block whole: as a node of its own that comes back the same. */
export function holdsWhole(node: DocumentNode): boolean {
  try {
    const edited = fromDocument(node);
    schema.node('doc', null, [edited]).check();
    return sameDocumentNode(toDocument(edited), node);
  } catch (error) {
    if (error instanceof NotEditableError || error instanceof RangeError) return false;
    throw error;
  }
}
