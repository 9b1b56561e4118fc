import { el, type Child } from '../../domain/documents/index.js';
import type { ChangeRequestView } from '../../domain/changeRequests/index.js';
import type { FileChange, MergeConflict, PageChange, RevisionPage } from '../../engine/index.js';
import type { ChangeRequestRecord, ChangeRequestStatus } from '../../storage/changeRequests.js';
import type { ReviewRecord } from '../../storage/changeRequestReviews.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { UserRecord } from '../../storage/users.js';
import type { AppContext } from '../context.js';
import { csrfField, breadcrumbs } from './layout.js';
import { changeRequestPath, changeRequestsPath, spacePath } from './paths.js';
import { sourceDiff } from './sourceDiff.js';

const statusNames: Record<ChangeRequestStatus, string> = { draft: 'Draft', open: 'Open', merged: 'Merged', archived: 'Archived' };

/** A space's change requests of one status, newest first, with a tab per status. */
export function changeRequestListContent(space: SpaceRecord, status: ChangeRequestStatus, items: Array<{ changeRequest: ChangeRequestRecord; creator: UserRecord }>): Child[] {
  return [
    breadcrumbs(el('a', { href: spacePath(space.id) }, space.title || 'Untitled space')),
    el('h1', {}, 'Change requests'),
    el(
      'nav',
      { className: ['tabs'], ariaLabel: 'Status' },
      (['open', 'draft', 'merged', 'archived'] as const).map((each) =>
        el('a', { href: `${changeRequestsPath(space.id)}?status=${each}`, ...(each === status ? { ariaCurrent: 'page' } : {}) }, statusNames[each]),
      ),
    ),
    items.length === 0
      ? el('p', { className: ['muted'] }, `No ${statusNames[status].toLowerCase()} change request.`)
      : el(
          'ul',
          { className: ['list'] },
          items.map(({ changeRequest, creator }) =>
            el(
              'li',
              {},
              el('a', { href: changeRequestPath(space.id, changeRequest.number) }, changeRequest.subject || `Change request #${changeRequest.number}`),
              el('span', { className: ['muted'] }, ` #${changeRequest.number} by ${creator.displayName || creator.email}`),
            ),
          ),
        ),
  ];
}

/** A comment as the page shows it: its author, when, and its body drawn by the shared renderer. */
export interface ShownComment {
  id: string;
  author: UserRecord;
  postedAt: string;
  resolved: boolean;
  body: Child[];
}

export interface ChangeRequestPage {
  space: SpaceRecord;
  view: ChangeRequestView;
  changes: { pages: PageChange[]; files: FileChange[] };
  /** The markdown of each changed page before and after, by page id. */
  sources: Map<string, { before: string; after: string }>;
  reviews: Array<{ review: ReviewRecord; reviewer: UserRecord }>;
  comments: ShownComment[];
  may: { review: boolean; merge: boolean; comment: boolean; edit: boolean };
  conflicts?: MergeConflict[];
}

/** One change request: what it changes (a source diff per page), its reviews, and the forms the person's role allows. */
export function changeRequestContent(ctx: AppContext, page: ChangeRequestPage): Child[] {
  const { space, view, changes } = page;
  const { changeRequest } = view;
  const open = changeRequest.status === 'open' || changeRequest.status === 'draft';
  const action = (verb: string) => `${changeRequestPath(space.id, changeRequest.number)}/${verb}`;
  return [
    breadcrumbs(el('a', { href: spacePath(space.id) }, space.title || 'Untitled space'), el('a', { href: changeRequestsPath(space.id) }, 'Change requests')),
    el('h1', {}, changeRequest.subject || `Change request #${changeRequest.number}`),
    el(
      'p',
      { className: ['muted'] },
      `#${changeRequest.number} · ${statusNames[changeRequest.status]} · opened by ${view.creator.displayName || view.creator.email}`,
      view.state.outdated && open ? ' · main has moved on since it branched' : '',
    ),
    page.conflicts ? conflictList(page.conflicts) : null,
    el(
      'section',
      { ariaLabelledBy: 'changes-title' },
      el('h2', { id: 'changes-title' }, `Changes (${changes.pages.length} page${changes.pages.length === 1 ? '' : 's'}, ${changes.files.length} file${changes.files.length === 1 ? '' : 's'})`),
      changes.pages.length === 0 && changes.files.length === 0 ? el('p', { className: ['muted'] }, 'Nothing changed yet.') : null,
      changes.pages.map((change) => pageChangeDetails(change, page.sources.get(change.page.id))),
      changes.files.length
        ? el(
            'ul',
            {},
            changes.files.map((change) => el('li', {}, `${change.file.name}: ${change.type.replace('file_', '')}`)),
          )
        : null,
    ),
    el(
      'section',
      { ariaLabelledBy: 'reviews-title' },
      el('h2', { id: 'reviews-title' }, 'Reviews'),
      page.reviews.length === 0
        ? el('p', { className: ['muted'] }, 'No review yet.')
        : el(
            'ul',
            {},
            page.reviews.map(({ review, reviewer }) => el('li', {}, `${reviewer.displayName || reviewer.email}: ${review.status === 'approved' ? 'approved' : 'requested changes'}`)),
          ),
      open && page.may.review
        ? el(
            'div',
            { className: ['actions'] },
            el('form', { method: 'post', action: action('review') }, csrfField(ctx), el('input', { type: 'hidden', name: 'status', value: 'approved' }), el('button', { type: 'submit' }, 'Approve')),
            el(
              'form',
              { method: 'post', action: action('review') },
              csrfField(ctx),
              el('input', { type: 'hidden', name: 'status', value: 'changes-requested' }),
              el('button', { type: 'submit' }, 'Request changes'),
            ),
          )
        : null,
    ),
    el(
      'section',
      { id: 'comments', ariaLabelledBy: 'comments-title' },
      el('h2', { id: 'comments-title' }, 'Comments'),
      page.comments.length === 0 ? el('p', { className: ['muted'] }, 'No comment yet.') : null,
      page.comments.map((comment) =>
        el(
          'article',
          { className: ['comment'], ariaLabel: `Comment by ${comment.author.displayName || comment.author.email}` },
          el('p', { className: ['muted'] }, `${comment.author.displayName || comment.author.email} · ${comment.postedAt.slice(0, 16).replace('T', ' ')}${comment.resolved ? ' · resolved' : ''}`),
          comment.body,
        ),
      ),
      page.may.comment
        ? el(
            'form',
            { method: 'post', action: action('comments') },
            csrfField(ctx),
            el('label', { htmlFor: 'comment-body' }, 'Comment'),
            el('textarea', { id: 'comment-body', name: 'markdown', rows: 4, required: true, maxLength: 100_000 }),
            el('button', { type: 'submit' }, 'Comment'),
          )
        : null,
    ),
    open && (page.may.merge || page.may.edit)
      ? el(
          'div',
          { className: ['actions'] },
          page.may.merge ? el('form', { method: 'post', action: action('merge') }, csrfField(ctx), el('button', { type: 'submit', className: ['primary'] }, 'Merge')) : null,
          page.may.edit && view.state.outdated ? el('form', { method: 'post', action: action('update') }, csrfField(ctx), el('button', { type: 'submit' }, 'Update from main')) : null,
          page.may.edit ? el('form', { method: 'post', action: action('archive') }, csrfField(ctx), el('button', { type: 'submit' }, 'Archive')) : null,
        )
      : null,
  ];
}

/** A changed page: its title and what happened to it, with a source diff of its markdown when it has one. */
export function pageChangeDetails(change: PageChange, source: { before: string; after: string } | undefined): Child {
  const what = { page_created: 'added', page_deleted: 'removed', page_edited: 'edited', page_moved: 'moved' }[change.type];
  return el('details', { className: ['change'], open: true }, el('summary', {}, `${titleOf(change.page)} (${what})`), source ? sourceDiff(source.before, source.after) : null);
}

const titleOf = (page: RevisionPage) => page.title || page.path || 'Untitled page';

function conflictList(conflicts: MergeConflict[]): Child {
  return el(
    'section',
    { className: ['problem'], role: 'alert', ariaLabelledBy: 'conflicts-title' },
    el('h2', { id: 'conflicts-title' }, 'Not merged: these conflict with main'),
    el(
      'ul',
      {},
      conflicts.map((conflict) => el('li', {}, conflict.kind === 'page' ? `${conflict.title}: ${conflict.reason}` : `${conflict.path}: ${conflict.reason}`)),
    ),
    el('p', {}, 'Update the change request from main through the API (POST …/update, with a resolution per page), or with git, then merge again.'),
  );
}
