import {
  findRequestedReviewer,
  insertReview,
  removeRequestedReviewer,
  requestReviewers,
  type RequestedReviewerRecord,
  type ReviewRecord,
  type ReviewStatus,
} from '../../storage/changeRequestReviews.js';
import type { ChangeRequestRecord } from '../../storage/changeRequests.js';
import { findContentGrants } from '../../storage/contentGrants.js';
import { findMembershipRole } from '../../storage/members.js';
import { roleOnSpace } from '../organizations/index.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { UserRecord } from '../../storage/users.js';
import { type CommentBodyInput, postComment } from '../comments/index.js';
import { changeRequestHead, editChangeRequest } from './changeRequests.js';
import type { ContentDeps } from '../common/deps.js';
import { alreadyThere, invalidInput } from '../common/errors.js';

function assertReviewable(changeRequest: ChangeRequestRecord): void {
  if (changeRequest.status === 'merged' || changeRequest.status === 'archived') {
    throw alreadyThere(`Change request ${changeRequest.number} is ${changeRequest.status}: it takes no more reviews`);
  }
}

/**
 * A review of the change request as its branch head is now; a comment given with it is posted
 * as a comment of the change request, which the review links to.
 */
export async function submitReview(deps: ContentDeps, input: { changeRequest: ChangeRequestRecord; reviewer: UserRecord; status: ReviewStatus; comment?: CommentBodyInput }): Promise<ReviewRecord> {
  const { changeRequest } = input;
  assertReviewable(changeRequest);
  const revision = await changeRequestHead(deps, changeRequest);
  const request = await findRequestedReviewer(deps.db, changeRequest.id, input.reviewer.id);
  const hasComment = input.comment && (input.comment.markdown !== undefined || input.comment.document !== undefined);
  const comment = hasComment
    ? await postComment(deps, { spaceId: changeRequest.spaceId, changeRequestId: changeRequest.id, ref: changeRequest.branch, label: 'change request' }, input.reviewer, { body: input.comment! })
    : undefined;
  return insertReview(deps.db, {
    changeRequestId: changeRequest.id,
    reviewerId: input.reviewer.id,
    requestedBy: request?.requestedBy ?? null,
    status: input.status,
    revision,
    commentId: comment?.id ?? null,
  });
}

/** Asks members of the space's organization for their review (again: a new request outdates their earlier reviews). */
export async function requestReviews(
  deps: ContentDeps,
  input: { space: SpaceRecord; changeRequest: ChangeRequestRecord; requester: UserRecord; users: string[]; subject?: string; description?: unknown },
): Promise<RequestedReviewerRecord[]> {
  assertReviewable(input.changeRequest);
  for (const user of input.users) {
    const membership = await findMembershipRole(deps.db, input.space.organizationId, user);
    if (!membership || membership.disabled) throw invalidInput(`"users": ${user} is not a member of the organization`);
    // A guest sees only what they were given: one who can't see the space can't be asked to review it.
    if (!(await roleOnSpace(deps.db, membership.role, input.space, await findContentGrants(deps.db, user)))) {
      throw invalidInput(`"users": ${user} can't see this space, so can't review it`);
    }
  }
  if (input.subject !== undefined || input.description !== undefined) {
    await editChangeRequest(deps, input.changeRequest, { subject: input.subject, description: input.description }, input.space.organizationId);
  }
  const revision = await changeRequestHead(deps, input.changeRequest);
  return deps.db.transaction((tx) => requestReviewers(tx, input.changeRequest.id, { users: [...new Set(input.users)], requestedBy: input.requester.id, revision }));
}

/** Whether there was a request to withdraw. */
export function withdrawReviewRequest(deps: Pick<ContentDeps, 'db'>, changeRequest: ChangeRequestRecord, userId: string): Promise<boolean> {
  return removeRequestedReviewer(deps.db, changeRequest.id, userId);
}
