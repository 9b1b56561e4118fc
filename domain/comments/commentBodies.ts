import { convertDocumentToMarkdown, convertMarkdownToDocument, type JsonDocument, MarkdownTooDeepError, WorkTooCostlyError } from '../../engine/index.js';
import type { CommentBody } from '../../storage/comments.js';
import { invalidInput } from '../common/errors.js';

/** A body as the API receives it: markdown, or the upstream JSON Document (one of the two). */
export interface CommentBodyInput {
  markdown?: string;
  document?: { object: 'document'; nodes: unknown[]; data?: unknown };
}

/**
 * Both forms of a body, made once when it is written, by the engine's markdown ⇄ Document
 * converters in the worker pool (a body past its time limit is refused, nothing stored).
 */
export async function commentBody(input: CommentBodyInput, what: string): Promise<CommentBody> {
  const body =
    input.markdown !== undefined
      ? { markdown: input.markdown, document: JSON.stringify(await documentOf(input.markdown, what)) }
      : input.document
        ? { markdown: await markdownOf(input.document as JsonDocument, what), document: JSON.stringify({ data: {}, ...input.document }) }
        : { markdown: '', document: '' };
  if (!body.markdown.trim()) throw invalidInput(`${what} needs some text: its body is empty`);
  return body;
}

async function documentOf(markdown: string, what: string) {
  try {
    return await convertMarkdownToDocument(markdown, `${what}'s markdown`);
  } catch (error) {
    if (error instanceof MarkdownTooDeepError) throw invalidInput(`${what}: ${error.message}`);
    throw error;
  }
}

/** A Document's markdown without the final newline a file would end with: a comment posted as markdown reads back as sent. */
async function markdownOf(document: JsonDocument, what: string): Promise<string> {
  try {
    return (await convertDocumentToMarkdown(document, `${what}'s document`)).replace(/\n$/, '');
  } catch (error) {
    if (error instanceof WorkTooCostlyError) throw error;
    throw invalidInput(`${what}'s document can't be read: ${(error as Error).message}`);
  }
}
