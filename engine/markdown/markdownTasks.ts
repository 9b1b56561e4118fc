/**
 * The markdown work that runs in the worker pool (engine/runtime/workerPool.ts). Errors come back as
 * values: a thrown error loses its class on the way between threads.
 */
import { MarkdownTooDeepError } from '../errors/index.js';
import { documentToMarkdown, type JsonDocument } from './fromDocument.js';
import { assertMarkdownDepth, markdownToDocument } from './toDocument.js';
import { linkTargets } from '../pageLinks.js';
import { linkSpans } from './linkSpans.js';

export type TaskResult<T> = { ok: true; value: T } | { ok: false; tooDeep: number; message: string } | { ok: false; message: string };

function settle<T>(work: () => T): TaskResult<T> {
  try {
    return { ok: true, value: work() };
  } catch (error) {
    if (error instanceof MarkdownTooDeepError) return { ok: false, tooDeep: error.limit, message: error.message };
    return { ok: false, message: (error as Error).message };
  }
}

export const checkDepth = (markdown: string) => settle(() => assertMarkdownDepth(markdown));
/** Many pages' depth checks in one task: each page's refusal message, or null when it is within the limits. */
export const checkDepths = (markdowns: string[]) =>
  settle(() =>
    markdowns.map((markdown) => {
      const checked = settle(() => assertMarkdownDepth(markdown));
      return checked.ok ? null : checked.message;
    }),
  );
export const toDocument = (markdown: string) => settle(() => markdownToDocument(markdown));
export const toMarkdown = (document: JsonDocument) => settle(() => documentToMarkdown(document));
export const targets = (markdowns: string[]) => settle(() => markdowns.map((markdown) => linkTargets(markdown)));
export const spans = (markdowns: string[]) => settle(() => markdowns.map((markdown) => linkSpans(markdown)));
