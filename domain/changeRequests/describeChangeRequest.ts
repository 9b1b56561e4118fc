import { convertDocumentToMarkdown, convertMarkdownToDocument, MarkdownTooDeepError, type JsonDocument } from '../../engine/index.js';
import type { ChangeRequestRecord } from '../../storage/changeRequests.js';
import type { ContentDeps } from '../common/deps.js';
import { invalidInput } from '../common/errors.js';
import { editChangeRequest } from './changeRequests.js';

/** A change request's subject and description, the description written as markdown (stored as the Document the API takes). */
export async function describeChangeRequest(deps: Pick<ContentDeps, 'db'>, changeRequest: ChangeRequestRecord, input: { subject: string; markdown: string }, organizationId: string) {
  const subject = input.subject.trim();
  if (subject.length > 100) throw invalidInput('"subject" has at most 100 characters');
  let description: unknown;
  try {
    description = input.markdown.trim() ? await convertMarkdownToDocument(input.markdown, 'The description') : { object: 'document', data: {}, nodes: [] };
  } catch (error) {
    if (error instanceof MarkdownTooDeepError) throw invalidInput(`The description: ${error.message}`);
    throw error;
  }
  return editChangeRequest(deps, changeRequest, { subject, description }, organizationId);
}

/** The description as markdown, to edit: empty when there is none. */
export async function changeRequestDescriptionMarkdown(changeRequest: ChangeRequestRecord): Promise<string> {
  const description = changeRequest.description as JsonDocument | undefined;
  if (!description || !Array.isArray((description as { nodes?: unknown }).nodes)) return '';
  return (await convertDocumentToMarkdown(description, 'The description')).replace(/\n$/, '');
}
