import { allPages } from './allPages.js';
import type { Revision, RevisionFile, RevisionPage } from './readRevision.js';

export type PageChange =
  | { type: 'page_created' | 'page_deleted'; page: RevisionPage }
  | { type: 'page_edited'; page: RevisionPage; attributes: Record<string, { before?: string; after?: string }> }
  | { type: 'page_moved'; page: RevisionPage; before: RevisionPage | null; after: RevisionPage | null };

export type FileChange = { type: 'file_created' | 'file_deleted'; file: RevisionFile } | { type: 'file_edited'; file: RevisionFile; before: RevisionFile };

/** Each page with its parent page (null at the root). */
function parents(revision: Revision): Map<string, { page: RevisionPage; parent: RevisionPage | null }> {
  const found = new Map<string, { page: RevisionPage; parent: RevisionPage | null }>();
  const visit = (pages: RevisionPage[], parent: RevisionPage | null) => {
    for (const page of pages) {
      found.set(page.id, { page, parent });
      visit(page.pages, page);
    }
  };
  visit(revision.pages, null);
  return found;
}

const pageAttributes = (page: RevisionPage): Record<string, string | undefined> => ({
  title: page.title,
  description: typeof page.meta.description === 'string' ? page.meta.description : undefined,
  slug: page.slug,
  emoji: typeof page.meta.emoji === 'string' ? page.meta.emoji : undefined,
  // The document is named by its blob: same blob, same document.
  document: page.kind === 'document' ? page.oid : undefined,
});

/**
 * What changed from `base` to `head`, page by page (by id) and file by file (by path): pages
 * created, deleted, edited (which attributes, before and after) and moved (parent before and
 * after); files created, edited and deleted. Pages in tree order, then files by path.
 */
export function revisionChanges(base: Revision, head: Revision): { pages: PageChange[]; files: FileChange[] } {
  const before = parents(base);
  const after = parents(head);
  const pages: PageChange[] = [];
  for (const page of allPages(head.pages)) {
    const old = before.get(page.id);
    if (!old) {
      pages.push({ type: 'page_created', page });
      continue;
    }
    const was = pageAttributes(old.page);
    const now = pageAttributes(page);
    const attributes = Object.fromEntries(
      Object.keys(now)
        .filter((key) => was[key] !== now[key])
        .map((key) => [key, { ...(was[key] !== undefined ? { before: was[key] } : {}), ...(now[key] !== undefined ? { after: now[key] } : {}) }]),
    );
    if (Object.keys(attributes).length) pages.push({ type: 'page_edited', page, attributes });
    const parent = after.get(page.id)!.parent;
    if ((old.parent?.id ?? null) !== (parent?.id ?? null)) pages.push({ type: 'page_moved', page, before: old.parent, after: parent });
  }
  for (const page of allPages(base.pages)) if (!after.has(page.id)) pages.push({ type: 'page_deleted', page });
  const oldFiles = new Map(base.files.map((file) => [file.path, file]));
  const newFiles = new Map(head.files.map((file) => [file.path, file]));
  const files: FileChange[] = [];
  for (const file of head.files) {
    const old = oldFiles.get(file.path);
    if (!old) files.push({ type: 'file_created', file });
    else if (old.oid !== file.oid) files.push({ type: 'file_edited', file, before: old });
  }
  for (const file of base.files) if (!newFiles.has(file.path)) files.push({ type: 'file_deleted', file });
  return { pages, files };
}
