import type { ContributorRecord, RequestedReviewerRecord, ReviewRecord } from '../../storage/changeRequestReviews.js';
import type { ChangeRequestRecord } from '../../storage/changeRequests.js';
import { findComment, type CommentRecord } from '../../storage/comments.js';
import type { Queryable } from '../../storage/db.js';
import type { UserRecord } from '../../storage/users.js';
import { readCommentsView, type CommentsView } from '../comments/index.js';
import { readPeople } from '../common/people.js';

/** Items that name users, with those users loaded. */
export interface WithPeople<T> {
  items: T[];
  user: (id: string) => UserRecord;
}

/** Reviews of a change request with their reviewers, requesters and comments. */
export interface ReviewsView extends WithPeople<ReviewRecord> {
  changeRequest: ChangeRequestRecord;
  /** The comments the reviews were posted with. */
  comments: CommentsView;
}

export async function readReviewsView(db: Queryable, changeRequest: ChangeRequestRecord, reviews: ReviewRecord[]): Promise<ReviewsView> {
  const place = { spaceId: changeRequest.spaceId, changeRequestId: changeRequest.id };
  const found = await Promise.all(reviews.map((review) => (review.commentId ? findComment(db, place, review.commentId) : undefined)));
  const [user, comments] = await Promise.all([
    readPeople(
      db,
      reviews.flatMap((review) => [review.reviewerId, ...(review.requestedBy ? [review.requestedBy] : [])]),
    ),
    readCommentsView(
      db,
      found.filter((comment): comment is CommentRecord => comment !== undefined),
    ),
  ]);
  return { changeRequest, items: reviews, user, comments };
}

export async function readRequestedReviewersView(db: Queryable, requests: RequestedReviewerRecord[]): Promise<WithPeople<RequestedReviewerRecord>> {
  return {
    items: requests,
    user: await readPeople(
      db,
      requests.flatMap((request) => [request.userId, request.requestedBy]),
    ),
  };
}

export async function readContributorsView(db: Queryable, contributors: ContributorRecord[]): Promise<WithPeople<ContributorRecord>> {
  return {
    items: contributors,
    user: await readPeople(
      db,
      contributors.map((contributor) => contributor.userId),
    ),
  };
}
