import type { ChangeRequestState, ChangeRequestView } from '../../domain/changeRequests/index.js';
import type { ChangeRequestRecord } from '../../storage/changeRequests.js';
import type { UserRecord } from '../../storage/users.js';
import type { Urls } from '../urls.js';
import { presentUser } from './user.js';

export const changeRequestUrl = (urls: Urls, changeRequest: ChangeRequestRecord) => urls.api(`/spaces/${changeRequest.spaceId}/change-requests/${changeRequest.id}`);

/** The upstream `ChangeRequest`: its row, what its branch says (`state`), who created it, and its open comments. */
export function presentChangeRequest(changeRequest: ChangeRequestRecord, state: ChangeRequestState, createdBy: UserRecord, urls: Urls, openComments: number) {
  return {
    object: 'change-request' as const,
    id: changeRequest.id,
    number: changeRequest.number,
    status: changeRequest.status,
    subject: changeRequest.subject,
    ...(changeRequest.description !== undefined ? { description: changeRequest.description } : {}),
    createdBy: presentUser(createdBy, urls),
    createdAt: changeRequest.createdAt,
    updatedAt: changeRequest.updatedAt,
    space: changeRequest.spaceId,
    revision: state.revision,
    revisionInitial: changeRequest.revisionInitial,
    ...(changeRequest.revisionMergedAncestor ? { revisionMergedAncestor: changeRequest.revisionMergedAncestor } : {}),
    ...(changeRequest.revisionMerged ? { revisionMerged: changeRequest.revisionMerged } : {}),
    comments: openComments,
    outdated: state.outdated,
    ...(changeRequest.conversationsIssuesCluster ? { conversationsIssuesCluster: changeRequest.conversationsIssuesCluster } : {}),
    urls: { location: changeRequestUrl(urls, changeRequest), app: urls.changeRequestApp(changeRequest.spaceId, changeRequest.number) },
  };
}

/** A change request as a domain read returned it (domain/changeRequests: readChangeRequestView). */
export function presentChangeRequestView(view: ChangeRequestView, urls: Urls) {
  return presentChangeRequest(view.changeRequest, view.state, view.creator, urls, view.openComments);
}
