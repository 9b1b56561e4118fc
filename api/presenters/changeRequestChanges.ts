import type { FileChange, PageChange, RevisionPage } from '../../engine/index.js';
import { presentFile, type RevisionView } from './revision.js';

const changedPage = (page: RevisionPage) => ({ id: page.id, type: page.kind, title: page.title, path: page.path });

/** `ChangedRevisionFile`: from the revision that has the file (the base for a deleted one). */
function changedFile(view: RevisionView, file: FileChange['file']) {
  const { id, name, contentType, downloadURL } = presentFile(view, file);
  return { id, name, contentType, downloadURL };
}

/** Upstream `RevisionSemanticChanges`: the first `limit` changes, and how many more there are. */
export function presentRevisionChanges(changes: { pages: PageChange[]; files: FileChange[] }, views: { base: RevisionView; head: RevisionView }, limit: number) {
  const all = [
    ...changes.pages.map((change) => {
      switch (change.type) {
        case 'page_edited':
          return { type: change.type, page: changedPage(change.page), attributes: change.attributes };
        case 'page_moved':
          return {
            type: change.type,
            page: changedPage(change.page),
            parent: { ...(change.before ? { before: changedPage(change.before) } : {}), ...(change.after ? { after: changedPage(change.after) } : {}) },
          };
        default:
          return { type: change.type, page: changedPage(change.page) };
      }
    }),
    ...changes.files.map((change) => {
      if (change.type === 'file_edited') {
        const before = changedFile(views.base, change.before);
        const after = changedFile(views.head, change.file);
        return { type: change.type, file: after, attributes: { downloadURL: { before: before.downloadURL, after: after.downloadURL } } };
      }
      return { type: change.type, file: changedFile(change.type === 'file_deleted' ? views.base : views.head, change.file) };
    }),
  ];
  return { changes: all.slice(0, limit), ...(all.length > limit ? { more: all.length - limit } : {}) };
}
