import type { ChangeRequestRecord } from '../../storage/changeRequests.js';
import { countOpenComments } from '../../storage/comments.js';
import { findUser, type UserRecord } from '../../storage/users.js';
import type { ContentDeps } from '../common/deps.js';
import { formerUser } from '../common/people.js';
import { readRevisionWithSizes, type RevisionWithSizes } from '../spaces/index.js';
import { changeRequestHead, changeRequestState, type ChangeRequestState } from './changeRequests.js';

/** A change request with what its presentation shows beside the record. */
export interface ChangeRequestView {
  changeRequest: ChangeRequestRecord;
  /** Its branch's head, and whether the primary branch has moved on since it branched. */
  state: ChangeRequestState;
  creator: UserRecord;
  openComments: number;
}

export async function readChangeRequestView(deps: Pick<ContentDeps, 'db' | 'repositories'>, changeRequest: ChangeRequestRecord): Promise<ChangeRequestView> {
  const [state, creator, openComments] = await Promise.all([
    changeRequestState(deps, changeRequest),
    findUser(deps.db, changeRequest.createdBy),
    countOpenComments(deps.db, { spaceId: changeRequest.spaceId, changeRequestId: changeRequest.id }),
  ]);
  return { changeRequest, state, creator: creator ?? formerUser(changeRequest.createdBy), openComments };
}

/** The head of a change request's branch, or another commit of its space (`ref`), with its file sizes. */
export async function readChangeRequestRevision(deps: Pick<ContentDeps, 'repositories'>, changeRequest: ChangeRequestRecord, ref?: string): Promise<RevisionWithSizes> {
  return readRevisionWithSizes(deps, changeRequest.spaceId, ref ?? (await changeRequestHead(deps, changeRequest)));
}
