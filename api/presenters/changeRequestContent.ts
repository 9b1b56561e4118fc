import type { ContentUpdate } from '../../domain/changeRequests/index.js';
import type { ChangeRequestRecord } from '../../storage/changeRequests.js';
import type { Urls } from '../urls.js';
import { presentFile, type RevisionView } from './revision.js';

/** `ChangeRequestContentUpdate` of 0.202.0 (for `compat=false`): the pages the batch touched, and the files it inserted. */
export function presentContentUpdate(changeRequest: Record<string, unknown>, record: ChangeRequestRecord, update: ContentUpdate, view: RevisionView, urls: Urls) {
  const pageRef = (pageId: string) => ({
    object: 'page' as const,
    id: pageId,
    urls: { location: urls.api(`/spaces/${record.spaceId}/change-requests/${record.id}/content/page/${pageId}`) },
  });
  return {
    changeRequest,
    changes: update.outcomes.map((outcome) =>
      outcome.kind === 'deleted'
        ? { object: 'deleted_page' as const, page: outcome.pageId }
        : outcome.kind === 'created'
          ? { object: 'created_page' as const, ...(outcome.ref !== undefined ? { ref: outcome.ref } : {}), page: pageRef(outcome.pageId) }
          : { object: 'updated_page' as const, page: pageRef(outcome.pageId) },
    ),
    insertedFiles: update.insertedFiles.flatMap((path) => {
      const file = view.revision.files.find((candidate) => candidate.path === path);
      return file ? [presentFile(view, file)] : [];
    }),
  };
}
