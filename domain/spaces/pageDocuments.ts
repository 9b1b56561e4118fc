import { convertMarkdownToDocument, type Document, type RevisionPage, splitTitleHeading } from '../../engine/index.js';

/**
 * The Documents of a page and of its document subpages, by page id, converted in the worker pool
 * (a page pushed through git may take seconds to parse: no reader waits on the event loop for it).
 * Links are as written (`{kind: 'url'}`): resolving them against the revision is the presenter's.
 * A page nesting past the limit fails the read with MarkdownTooDeepError.
 */
/** One document page's Document (its children not converted), read in the worker pool. */
export function readPageDocument(page: RevisionPage): Promise<Document> {
  return convertMarkdownToDocument(splitTitleHeading(page.markdown ?? '').text, `The page "${page.title}"`);
}

export async function readPageDocuments(page: RevisionPage): Promise<Map<string, Document>> {
  const documents = new Map<string, Document>();
  const pending: Promise<void>[] = [];
  const visit = (at: RevisionPage) => {
    if (at.kind === 'document') {
      pending.push(convertMarkdownToDocument(splitTitleHeading(at.markdown ?? '').text, `The page "${at.title}"`).then((document) => void documents.set(at.id, document)));
    }
    at.pages.forEach(visit);
  };
  visit(page);
  await Promise.all(pending);
  return documents;
}
