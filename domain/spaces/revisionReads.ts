import {
  findPageById,
  findPageByPath,
  findTemplate,
  readRevisionLinks,
  revisionChanges,
  type FileChange,
  type LinkUse,
  type PageChange,
  type Revision,
  type RevisionFile,
  type RevisionPage,
  type Template,
} from '../../engine/index.js';
import { invalidInput, missing } from '../common/errors.js';

/** A page of the revision by id, or a 404 naming it and the revision; `accept` narrows which pages count (`label` then names what was looked for). */
export function revisionPage(revision: Revision, pageId: string, options: { label?: string; accept?: (page: RevisionPage) => boolean } = {}): RevisionPage {
  const page = findPageById(revision, pageId);
  if (!page || (options.accept && !options.accept(page))) throw missing(`${options.label ?? 'Page'} ${pageId} not found in revision ${revision.commit}`);
  return page;
}

/** A document or group page by its path (`guides/install`), or a 404. */
export function revisionPageAtPath(revision: Revision, pagePath: string): RevisionPage {
  const page = findPageByPath(revision, pagePath);
  if (!page) throw missing(`Page at path "${pagePath}" not found in revision ${revision.commit}`);
  return page;
}

/** A file of the revision by id, or a 404. */
export function revisionFile(revision: Revision, fileId: string): RevisionFile {
  const file = revision.files.find((candidate) => candidate.id === fileId);
  if (!file) throw missing(`File ${fileId} not found in revision ${revision.commit}`);
  return file;
}

/** A built-in template (`blank`, `getting-started`, `knowledge-base`), or a 400 naming the unknown id. */
export function builtInTemplate(id: string): Template {
  const template = findTemplate(id);
  if (!template) throw invalidInput(`Unknown template "${id}"`);
  return template;
}

/** Every link written in the revision's pages, each with the page it is written in and what it points at. */
export function revisionLinks(revision: Revision): Promise<LinkUse[]> {
  return readRevisionLinks(revision);
}

/** Pages and files added, edited, moved or removed from `base` to `head`. */
export function changesBetween(base: Revision, head: Revision): { pages: PageChange[]; files: FileChange[] } {
  return revisionChanges(base, head);
}
