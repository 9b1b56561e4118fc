import type { ReviewsView, WithPeople } from '../../domain/changeRequests/index.js';
import type { ContributorRecord, RequestedReviewerRecord } from '../../storage/changeRequestReviews.js';
import type { AppContext } from '../context.js';
import { changeRequestUrl } from './changeRequest.js';
import type { BodyFormat } from './comment.js';
import { presentComments } from './discussion.js';
import { presentUser } from './user.js';

/** Upstream `ChangeRequestReview`s, with their reviewers, requesters and comments (domain/changeRequests: readReviewsView). */
export function presentReviews(ctx: AppContext, view: ReviewsView, format: BodyFormat = 'document') {
  const user = (id: string) => presentUser(view.user(id), ctx.urls);
  const presentedComments = presentComments(ctx, view.comments, format);
  const comments = new Map(view.comments.comments.map((comment, index) => [comment.id, presentedComments[index]!]));
  return view.items.map((review) => {
    const comment = review.commentId ? comments.get(review.commentId) : undefined;
    return {
      object: 'change-request-review' as const,
      id: review.id,
      revision: review.revision,
      reviewer: user(review.reviewerId),
      ...(review.requestedBy ? { requestedBy: user(review.requestedBy) } : {}),
      status: review.status,
      outdated: review.outdated,
      ...(comment ? { comment } : {}),
      createdAt: review.createdAt,
      updatedAt: review.updatedAt,
      urls: { location: `${changeRequestUrl(ctx.urls, view.changeRequest)}/reviews/${review.id}` },
    };
  });
}

/** Upstream `ChangeRequestRequestedReviewer`s (users; Quire requests no teams). */
export function presentRequestedReviewers(ctx: AppContext, view: WithPeople<RequestedReviewerRecord>) {
  const user = (id: string) => presentUser(view.user(id), ctx.urls);
  return view.items.map((request) => ({
    object: 'change-request-requested-reviewer' as const,
    revision: request.revision,
    requestedBy: user(request.requestedBy),
    createdAt: request.requestedAt,
    kind: 'user' as const,
    user: user(request.userId),
  }));
}

/** Upstream `ChangeRequestUserContributor`s: who wrote to the branch, how often, when last. */
export function presentContributors(ctx: AppContext, view: WithPeople<ContributorRecord>) {
  return view.items.map((contributor) => ({ updatedAt: contributor.lastAt, count: contributor.count, user: presentUser(view.user(contributor.userId), ctx.urls), actionType: 'edit' as const }));
}
