import { MarkdownTooDeepError, runInPool, siblingModule, UnknownBlockError, type EditableBlock, type WrittenBlock } from '../../../engine/index.js';
import type { EditorTaskResult } from './editorTasks.js';

const tasks = siblingModule(import.meta.url, 'editorTasks');

async function run<T>(name: string, input: unknown, subject: string): Promise<T> {
  const result = await runInPool<EditorTaskResult<T>>(tasks, name, input, subject);
  if (result.ok) return result.value;
  if (result.tooDeep !== undefined) throw new MarkdownTooDeepError(result.tooDeep, result.message);
  if (result.unknownBlock !== undefined) throw new UnknownBlockError(result.unknownBlock);
  throw new Error(result.message);
}

/** A page's markdown as the block editor's blocks (editableBlocks, with the nodes the editor holds whole). */
export const openPageBlocks = (markdown: string): Promise<EditableBlock[]> => run('openBlocks', markdown, 'Opening the page');

/** The markdown the editor's blocks make over the markdown they were opened from, and each block's key in it (writeKeyedBlocks). */
export const markdownOfBlocks = (base: string, blocks: WrittenBlock[]): Promise<{ markdown: string; keys: Array<string | null> }> => run('writtenMarkdown', { base, blocks }, 'Saving the page');
