import type { ContributorRecord, RequestedReviewerRecord, ReviewRecord } from '../../storage/changeRequestReviews.js';
import type { ChangeRequestRecord } from '../../storage/changeRequests.js';
import { findComment } from '../../storage/comments.js';
import { findUser, type UserRecord } from '../../storage/users.js';
import type { AppContext } from '../context.js';
import { changeRequestUrl } from './changeRequest.js';
import type { BodyFormat } from './comment.js';
import { presentCommentOf } from './commentOf.js';
import { presentUser } from './user.js';

/** The users of these ids, loaded once; an account that is gone shows as a former user. */
async function usersOf(ctx: AppContext, ids: Iterable<string>): Promise<(id: string) => ReturnType<typeof presentUser>> {
  const found = new Map<string, UserRecord>();
  for (const id of new Set(ids)) {
    const user = await findUser(ctx.db, id);
    if (user) found.set(id, user);
  }
  return (id) => presentUser(found.get(id) ?? { id, displayName: 'Former user', email: '', emailVerified: false, photoURL: null, createdAt: '' }, ctx.urls);
}

/** Upstream `ChangeRequestReview`s, with their reviewers, requesters and comments. */
export async function presentReviewsOf(ctx: AppContext, changeRequest: ChangeRequestRecord, reviews: ReviewRecord[], format: BodyFormat = 'document') {
  const user = await usersOf(ctx, reviews.flatMap((review) => [review.reviewerId, ...(review.requestedBy ? [review.requestedBy] : [])]));
  return Promise.all(
    reviews.map(async (review) => {
      const comment = review.commentId ? await findComment(ctx.db, { spaceId: changeRequest.spaceId, changeRequestId: changeRequest.id }, review.commentId) : undefined;
      return {
        object: 'change-request-review' as const,
        id: review.id,
        revision: review.revision,
        reviewer: user(review.reviewerId),
        ...(review.requestedBy ? { requestedBy: user(review.requestedBy) } : {}),
        status: review.status,
        outdated: review.outdated,
        ...(comment ? { comment: await presentCommentOf(ctx, comment, format) } : {}),
        createdAt: review.createdAt,
        updatedAt: review.updatedAt,
        urls: { location: `${changeRequestUrl(ctx.urls, changeRequest)}/reviews/${review.id}` },
      };
    }),
  );
}

/** Upstream `ChangeRequestRequestedReviewer`s (users; Quire requests no teams). */
export async function presentRequestedReviewersOf(ctx: AppContext, requests: RequestedReviewerRecord[]) {
  const user = await usersOf(ctx, requests.flatMap((request) => [request.userId, request.requestedBy]));
  return requests.map((request) => ({
    object: 'change-request-requested-reviewer' as const,
    revision: request.revision,
    requestedBy: user(request.requestedBy),
    createdAt: request.requestedAt,
    kind: 'user' as const,
    user: user(request.userId),
  }));
}

/** Upstream `ChangeRequestUserContributor`s: who wrote to the branch, how often, when last. */
export async function presentContributorsOf(ctx: AppContext, contributors: ContributorRecord[]) {
  const user = await usersOf(ctx, contributors.map((contributor) => contributor.userId));
  return contributors.map((contributor) => ({ updatedAt: contributor.lastAt, count: contributor.count, user: user(contributor.userId), actionType: 'edit' as const }));
}
