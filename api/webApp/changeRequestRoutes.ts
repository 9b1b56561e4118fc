import type Router from '@koa/router';
import {
  changeRequestDescriptionMarkdown,
  changeRequestOf,
  describeChangeRequest,
  editChangeRequest,
  mergeBaseOf,
  mergeChangeRequest,
  readChangeRequestRevision,
  readChangeRequestView,
  readRequestedReviewersView,
  readReviewsView,
  requestReviews,
  submitReview,
  updateChangeRequestFromPrimary,
  withdrawReviewRequest,
} from '../../domain/changeRequests/index.js';
import { changeRequestCommentPlace, deleteComment, postComment, postReply, readCommentsView, removeReply, updateComment, updateReply } from '../../domain/comments/index.js';
import { DomainError } from '../../domain/common/errors.js';
import { readPeople } from '../../domain/common/people.js';
import { codeHighlighting, documentTree, type DocumentLinks } from '../../domain/documents/index.js';
import { changesBetween, readPageDocument } from '../../domain/spaces/index.js';
import { BudgetedCache, findPageById, resolveWrittenRef, type Document, type MergeConflict, type Revision } from '../../engine/index.js';
import { revisionShape } from '../../domain/publishing/index.js';
import type { ElementContent } from 'hast';
import { changeRequestStatuses, listChangeRequests, type ChangeRequestFilter, type ChangeRequestStatus } from '../../storage/changeRequests.js';
import { listRequestedReviewers, listReviews } from '../../storage/changeRequestReviews.js';
import { repliesOfComments } from '../../storage/commentReplies.js';
import { listComments, type CommentRecord } from '../../storage/comments.js';
import { listMembers } from '../../storage/members.js';
import { actorOf, callerOf, contentDeps, pathParam, spaceOf, type AppContext, type AppServices, type AppState } from '../context.js';
import { badRequest, toHttpError } from '../errors.js';
import { commentActions, spaceActions } from '../policies/actions.js';
import { inSpace } from '../policies/index.js';
import { atLeast } from '../policies/roles.js';
import { commentRights } from '../presenters/comment.js';
import { changeRequestContent, changeRequestListContent, type ChangeRequestListFilter, type PageDiff } from './changeRequestPages.js';
import type { ShownComment, ShownPost } from './commentThreads.js';
import { appScripts } from './appScripts.js';
import { addEditorRoutes, changeRequestEdited } from './editorRoutes.js';
import { checkedForm } from './forms.js';
import { signedIn } from './guards.js';
import { sendPage } from './layout.js';
import { changeRequestPath, pagePath } from './paths.js';
import { renderedDiff } from './renderedDiff.js';
import { changedSources, sourceDiff } from './sourceDiff.js';

const inChangeRequests = '/s/:spaceId/~/changes';
const one = `${inChangeRequests}/:number`;
const comment = `${one}/comments/:commentId`;
const reply = `${comment}/replies/:replyId`;
const guarded = (role: Parameters<typeof inSpace>[0]) => [signedIn, inSpace(role).check] as never[];

/**
 * A space's change requests in the app: the list, one change request with its diff, reviews and
 * conversations, and the forms that act on it. Each form's route runs the API's policy for the
 * same action, then the same domain call the API's route makes.
 */
export function addChangeRequestRoutes(router: Router<AppState, AppServices>): void {
  router.get(inChangeRequests, ...guarded(spaceActions.view), async (ctx) => {
    const app = ctx as AppContext;
    const { space } = spaceOf(app);
    const asked = String(ctx.query.status ?? 'open');
    const status = (changeRequestStatuses as readonly string[]).includes(asked) ? (asked as ChangeRequestStatus) : 'open';
    const shown: ChangeRequestListFilter = ctx.query.by === 'me' ? 'mine' : ctx.query.reviewer === 'me' ? 'to-review' : 'all';
    const filter: ChangeRequestFilter = { status, ...(shown === 'mine' ? { creator: callerOf(app).id } : {}), ...(shown === 'to-review' ? { requestedReviewer: callerOf(app).id } : {}) };
    const found = await listChangeRequests(app.db, { spaceIds: [space.id] }, filter, { limit: 100, order: 'desc' });
    const people = await readPeople(
      app.db,
      found.items.map((changeRequest) => changeRequest.createdBy),
    );
    const items = found.items.map((changeRequest) => ({ changeRequest, creator: people(changeRequest.createdBy) }));
    sendPage(app, { title: 'Change requests', content: changeRequestListContent(space, { status, shown }, items) });
  });

  router.get(one, ...guarded(spaceActions.view), (ctx) => showChangeRequest(ctx as AppContext));

  router.post(`${one}/describe`, ...guarded(spaceActions.edit), async (ctx) => {
    const { form, space, changeRequest } = await posted(ctx as AppContext);
    await describeChangeRequest(contentDeps(ctx as AppContext), changeRequest, { subject: form.get('subject') ?? '', markdown: form.get('description') ?? '' }, space.organizationId);
    back(ctx as AppContext);
  });

  router.post(`${one}/review`, ...guarded(spaceActions.review), async (ctx) => {
    const { form, changeRequest } = await posted(ctx as AppContext);
    const status = form.get('status');
    if (status !== 'approved' && status !== 'changes-requested') throw badRequest('"status" is "approved" or "changes-requested"');
    await submitReview(contentDeps(ctx as AppContext), { changeRequest, reviewer: callerOf(ctx as AppContext), status });
    back(ctx as AppContext, '#reviews');
  });

  router.post(`${one}/reviewers`, ...guarded(spaceActions.edit), async (ctx) => {
    const app = ctx as AppContext;
    const { form, space, changeRequest } = await posted(app);
    await requestReviews(contentDeps(app), { space, changeRequest, requester: callerOf(app), users: [form.get('user') ?? ''] });
    back(app, '#reviews');
  });

  router.post(`${one}/reviewers/withdraw`, ...guarded(spaceActions.edit), async (ctx) => {
    const { form, changeRequest } = await posted(ctx as AppContext);
    await withdrawReviewRequest(contentDeps(ctx as AppContext), changeRequest, form.get('user') ?? '');
    back(ctx as AppContext, '#reviews');
  });

  // Comments and replies: the API's comment commands, with the rights the caller's role on the space gives.
  router.post(`${one}/comments`, ...guarded(commentActions.post), async (ctx) => {
    const app = ctx as AppContext;
    const { form, space, changeRequest } = await posted(app);
    const place = await changeRequestCommentPlace(app.db, space.id, changeRequest.id);
    const page = form.get('page') || undefined;
    const created = await postComment(contentDeps(app), place, callerOf(app), { body: { markdown: form.get('markdown') ?? '' }, ...(page ? { page } : {}) });
    back(app, `#comment-${created.id}`);
  });
  router.post(`${comment}/replies`, ...guarded(commentActions.post), async (ctx) => {
    const app = ctx as AppContext;
    const { form, place } = await postedInComments(app);
    await postReply(contentDeps(app), place, callerOf(app), pathParam(app, 'commentId'), { body: { markdown: form.get('markdown') ?? '' } });
    back(app, `#comment-${pathParam(app, 'commentId')}`);
  });
  router.post(`${comment}/resolve`, ...guarded(commentActions.post), async (ctx) => {
    const app = ctx as AppContext;
    const { form, place } = await postedInComments(app);
    await updateComment(contentDeps(app), place, callerOf(app), commentRights(spaceOf(app).role), pathParam(app, 'commentId'), { resolved: form.get('resolved') === 'true' });
    back(app, `#comment-${pathParam(app, 'commentId')}`);
  });
  router.post(`${comment}/edit`, ...guarded(commentActions.post), async (ctx) => {
    const app = ctx as AppContext;
    const { form, place } = await postedInComments(app);
    await updateComment(contentDeps(app), place, callerOf(app), commentRights(spaceOf(app).role), pathParam(app, 'commentId'), { body: { markdown: form.get('markdown') ?? '' } });
    back(app, `#comment-${pathParam(app, 'commentId')}`);
  });
  router.post(`${comment}/delete`, ...guarded(commentActions.post), async (ctx) => {
    const app = ctx as AppContext;
    const { place } = await postedInComments(app);
    await deleteComment(contentDeps(app), place, callerOf(app), commentRights(spaceOf(app).role), pathParam(app, 'commentId'));
    back(app, '#comments');
  });
  router.post(`${reply}/edit`, ...guarded(commentActions.post), async (ctx) => {
    const app = ctx as AppContext;
    const { form, place } = await postedInComments(app);
    const ids = { commentId: pathParam(app, 'commentId'), replyId: pathParam(app, 'replyId') };
    await updateReply(contentDeps(app), place, callerOf(app), commentRights(spaceOf(app).role), ids, { body: { markdown: form.get('markdown') ?? '' } });
    back(app, `#comment-${ids.commentId}`);
  });
  router.post(`${reply}/delete`, ...guarded(commentActions.post), async (ctx) => {
    const app = ctx as AppContext;
    const { place } = await postedInComments(app);
    const ids = { commentId: pathParam(app, 'commentId'), replyId: pathParam(app, 'replyId') };
    await removeReply(contentDeps(app), place, callerOf(app), commentRights(spaceOf(app).role), ids);
    back(app, `#comment-${ids.commentId}`);
  });

  addEditorRoutes(router, one, changeRequestEdited);

  // Update from main (a merge of main into the branch), archive and merge: the API's updateChangeRequest, updateChangeRequestById and mergeChangeRequest.
  router.post(`${one}/update`, ...guarded(spaceActions.edit), async (ctx) => {
    const app = ctx as AppContext;
    const { form, space, changeRequest } = await posted(app);
    // The conflict list's choices: resolve:<page id> = change-request | primary (the API's `resolve`).
    const resolve: Record<string, 'change-request' | 'primary'> = {};
    for (const [name, value] of form) {
      if (!name.startsWith('resolve:')) continue;
      if (value !== 'change-request' && value !== 'primary') throw badRequest(`"${name}" is "change-request" or "primary"`);
      resolve[name.slice('resolve:'.length)] = value;
    }
    const outcome = await updateChangeRequestFromPrimary(contentDeps(app), { space, changeRequest, author: callerOf(app), resolve });
    if (outcome.result === 'conflicts') return showChangeRequest(app, { conflicts: outcome.conflicts }, 409);
    back(app);
  });
  router.post(`${one}/archive`, ...guarded(spaceActions.edit), async (ctx) => {
    const app = ctx as AppContext;
    const { space, changeRequest } = await posted(app);
    await editChangeRequest(contentDeps(app), changeRequest, { status: 'archived' }, space.organizationId);
    back(app);
  });
  router.post(`${one}/merge`, ...guarded(spaceActions.merge), async (ctx) => {
    const app = ctx as AppContext;
    const { space, changeRequest } = await posted(app);
    try {
      const outcome = await mergeChangeRequest(contentDeps(app), { space, changeRequest, author: callerOf(app), actor: actorOf(app) });
      if (outcome.result === 'conflicts') return showChangeRequest(app, { conflicts: outcome.conflicts }, 409);
    } catch (error) {
      // The merge rules' verdict (or a lock, a race) said on the change request's page, not a bare error page.
      if (!(error instanceof DomainError)) throw error;
      return showChangeRequest(app, { problem: `Not merged: ${error.message}` }, toHttpError(error)?.status ?? 400);
    }
    back(app);
  });
}

/** A checked form posted to a change request's page, with the space and the change request it acts on. */
async function posted(ctx: AppContext) {
  const form = await checkedForm(ctx);
  const { space } = spaceOf(ctx);
  return { form, space, changeRequest: await changeRequestOf(contentDeps(ctx), space, pathParam(ctx, 'number')) };
}

async function postedInComments(ctx: AppContext) {
  const { form, space, changeRequest } = await posted(ctx);
  return { form, place: await changeRequestCommentPlace(ctx.db, space.id, changeRequest.id) };
}

/** After a form: back to the change request's page (303, so a reload doesn't post again). */
function back(ctx: AppContext, anchor = ''): void {
  ctx.status = 303;
  ctx.redirect(`${changeRequestPath(spaceOf(ctx).space.id, Number(pathParam(ctx, 'number')))}${anchor}`);
}

async function showChangeRequest(ctx: AppContext, extra: { conflicts?: MergeConflict[]; problem?: string } = {}, status = 200) {
  const { space, role } = spaceOf(ctx);
  const deps = contentDeps(ctx);
  const changeRequest = await changeRequestOf(deps, space, pathParam(ctx, 'number'));
  const view = await readChangeRequestView(deps, changeRequest);
  // What the API's getChangeRequestChanges compares: the merge base, and the branch's head.
  const [before, after] = await Promise.all([readChangeRequestRevision(deps, changeRequest, mergeBaseOf(changeRequest)), readChangeRequestRevision(deps, changeRequest)]);
  const changes = changesBetween(before.revision, after.revision);
  const diffMode = ctx.query.diff === 'source' ? 'source' : 'rendered';
  const place = await changeRequestCommentPlace(ctx.db, space.id, changeRequest.id);
  const [reviewRecords, requestedRecords, commentRecords, members] = await Promise.all([
    listReviews(ctx.db, changeRequest.id, {}, { limit: 100 }),
    listRequestedReviewers(ctx.db, changeRequest.id, { limit: 100 }),
    listComments(ctx.db, place, { status: 'all' }, { limit: 100, order: 'asc' }),
    atLeast(role, spaceActions.edit) ? listMembers(ctx.db, space.organizationId, {}, { limit: 100 }) : undefined,
  ]);
  const [reviews, requested, comments, replies] = await Promise.all([
    readReviewsView(ctx.db, changeRequest, reviewRecords.items),
    readRequestedReviewersView(ctx.db, requestedRecords.items),
    readCommentsView(ctx.db, commentRecords.items),
    repliesOfComments(
      ctx.db,
      commentRecords.items.map((each) => each.id),
    ),
  ]);
  await codeHighlighting();
  const linksAt = (revision: Revision): DocumentLinks => ({
    resolve: (ref) => resolveWrittenRef(revision, '', ref),
    page: (pageId) => pagePath(space.id, pageId),
    file: () => undefined,
    spec: () => undefined,
  });
  const draw = (markdownDocument: string) => documentTree(JSON.parse(markdownDocument) as Document, linksAt(after.revision)).content;
  const rights = commentRights(role);
  const me = callerOf(ctx).id;
  const shownPost = (post: Pick<CommentRecord, 'id' | 'postedBy' | 'postedAt' | 'editedAt' | 'body'>): ShownPost => ({
    id: post.id,
    author: comments.user(post.postedBy),
    postedAt: post.postedAt,
    edited: post.editedAt !== null,
    body: draw(post.body.document),
    markdown: post.body.markdown,
    mayChange: atLeast(role, commentActions.post) && (post.postedBy === me || rights.moderate),
  });
  const shownComments: ShownComment[] = comments.comments.map((each) => ({
    ...shownPost(each),
    pageId: each.pageId,
    resolved: each.status === 'resolved',
    mayResolve: atLeast(role, commentActions.post) && (each.postedBy === me || rights.resolve),
    replies: (replies.get(each.id) ?? []).map(shownPost),
  }));
  sendPage(
    ctx,
    {
      title: changeRequest.subject || `Change request #${changeRequest.number}`,
      ...(atLeast(role, commentActions.post) ? { scripts: [appScripts.liveComments.name] } : {}),
      content: changeRequestContent(ctx, {
        space,
        view,
        description: changeRequest.description ? documentTree(changeRequest.description as Document, linksAt(after.revision)).content : [],
        descriptionMarkdown: atLeast(role, spaceActions.edit) ? await changeRequestDescriptionMarkdown(changeRequest) : '',
        changes,
        diffMode,
        diffs: await pageDiffs(before.revision, after.revision, changes.pages, diffMode, linksAt),
        reviews: reviews.items.map((review) => ({ review, reviewer: reviews.user(review.reviewerId) })),
        requested: requested.items.map((request) => requested.user(request.userId)),
        candidates: (members?.items ?? []).map((member) => member.user).filter((user) => user.id !== changeRequest.createdBy),
        comments: shownComments,
        // What the forms' own routes require (the same policies decide when they are posted).
        may: { review: atLeast(role, spaceActions.review), merge: atLeast(role, spaceActions.merge), comment: atLeast(role, commentActions.post), edit: atLeast(role, spaceActions.edit) },
        ...extra,
      }),
    },
    status,
  );
}

/** Pages drawn for rendered diffs, by text and revision shape: a change request's page shown again, or after an edit of one page, draws the others from here. */
const drawnPages = new BudgetedCache<string, ElementContent[]>('app drawn pages', (content, key) => key.length + JSON.stringify(content).length * 2, 16 * 1024 * 1024);

/** Each changed document page's diff, drawn as the reader sees it or as its markdown. */
async function pageDiffs(before: Revision, after: Revision, changes: ReturnType<typeof changesBetween>['pages'], mode: 'rendered' | 'source', linksAt: (revision: Revision) => DocumentLinks) {
  const sources = changedSources(before, after, changes);
  if (mode === 'source') return new Map<string, PageDiff>([...sources].map(([pageId, source]) => [pageId, sourceDiff(source.before, source.after)]));
  const drawn = async (revision: Revision, pageId: string) => {
    const page = findPageById(revision, pageId);
    if (!page || page.kind !== 'document') return [];
    // A page drawn depends on its text and on what the revision's other pages look like from it (links), not on the commit.
    const key = `${pageId}:${page.oid ?? ''}:${revisionShape(revision)}`;
    const cached = drawnPages.get(key);
    if (cached) return cached;
    const content = documentTree(await readPageDocument(page), linksAt(revision)).content;
    drawnPages.set(key, content);
    return content;
  };
  // Every page's two versions at once: their markdown is parsed by the worker pool, on every core.
  const pairs = await Promise.all([...sources.keys()].map(async (pageId) => [pageId, await Promise.all([drawn(before, pageId), drawn(after, pageId)])] as const));
  return new Map<string, PageDiff>(pairs.map(([pageId, [old, now]]) => [pageId, renderedDiff(old, now)]));
}
