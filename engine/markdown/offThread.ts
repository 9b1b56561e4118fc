import { MarkdownTooDeepError } from '../errors/index.js';
import { runInPool, siblingModule } from '../runtime/workerPool.js';
import type { JsonDocument } from './fromDocument.js';
import type { TaskResult } from './markdownTasks.js';
import type { Document } from './toDocument.js';
import type { LinkSpan } from './linkSpans.js';

/**
 * The markdown conversions user input goes through, run in the worker pool so that no input
 * holds the event loop: the same functions as in this folder, asynchronous, with the pool's time
 * limit (WorkTooCostlyError past it). Errors other than MarkdownTooDeepError arrive as `Error`s
 * with the converter's message.
 */
const tasks = siblingModule(import.meta.url, 'markdownTasks');

async function run<T>(name: string, input: unknown, subject: string): Promise<T> {
  const result = await runInPool<TaskResult<T>>(tasks, name, input, subject);
  if (result.ok) return result.value;
  if ('tooDeep' in result) throw new MarkdownTooDeepError(result.tooDeep, result.message);
  throw new Error(result.message);
}

export const checkMarkdownDepth = (markdown: string, subject = 'The markdown'): Promise<void> => run('checkDepth', markdown, subject);
/** checkMarkdownDepth for many pages in one task (a push of a thousand pages): each one's refusal message, or null. */
export const markdownDepthProblems = (markdowns: string[], subject = 'The pages'): Promise<Array<string | null>> => run('checkDepths', markdowns, subject);
export const convertMarkdownToDocument = (markdown: string, subject = 'The markdown'): Promise<Document> => run('toDocument', markdown, subject);
export const convertDocumentToMarkdown = (document: JsonDocument, subject = 'The document'): Promise<string> => run('toMarkdown', document, subject);

/** The link targets of each page's markdown (pageLinks.ts: linkTargets), in the order given. */
export const linkTargetsOffThread = (markdowns: string[]): Promise<string[][]> => run('targets', markdowns, "Reading the pages' links");

/** Where each page's link targets are written (linkSpans.ts), in the order given. */
export const linkSpansOffThread = (markdowns: string[]): Promise<LinkSpan[][]> => run('spans', markdowns, "Reading the pages' links");
