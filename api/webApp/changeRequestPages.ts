import type { ElementContent } from 'hast';
import { el, type Child } from '../../domain/documents/index.js';
import type { ChangeRequestView } from '../../domain/changeRequests/index.js';
import type { FileChange, MergeConflict, PageChange, RevisionPage } from '../../engine/index.js';
import type { ChangeRequestRecord, ChangeRequestStatus } from '../../storage/changeRequests.js';
import type { ReviewRecord } from '../../storage/changeRequestReviews.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { UserRecord } from '../../storage/users.js';
import type { AppContext } from '../context.js';
import { commentThread, markdownForm, type ShownComment } from './commentThreads.js';
import { csrfField, breadcrumbs } from './layout.js';
import { editedPagesPath } from './editorPages.js';
import { changeRequestPath, changeRequestsPath, spacePath } from './paths.js';

const statusNames: Record<ChangeRequestStatus, string> = { draft: 'Draft', open: 'Open', merged: 'Merged', archived: 'Archived' };
const nameOf = (user: UserRecord) => user.displayName || user.email;

/** Which of a space's change requests the list shows: all, the person's own, or those awaiting their review. */
export type ChangeRequestListFilter = 'all' | 'mine' | 'to-review';
const filterNames: Record<ChangeRequestListFilter, string> = { all: 'Everyone’s', mine: 'Yours', 'to-review': 'Awaiting your review' };
const filterQuery: Record<ChangeRequestListFilter, string> = { all: '', mine: '&by=me', 'to-review': '&reviewer=me' };

/** A space's change requests of one status, newest first, with a tab per status and per whose. */
export function changeRequestListContent(
  space: SpaceRecord,
  shown: { status: ChangeRequestStatus; shown: ChangeRequestListFilter },
  items: Array<{ changeRequest: ChangeRequestRecord; creator: UserRecord }>,
): Child[] {
  const { status } = shown;
  return [
    breadcrumbs(el('a', { href: spacePath(space.id) }, space.title || 'Untitled space')),
    el('h1', {}, 'Change requests'),
    el(
      'nav',
      { className: ['tabs'], ariaLabel: 'Status' },
      (['open', 'draft', 'merged', 'archived'] as const).map((each) =>
        el('a', { href: `${changeRequestsPath(space.id)}?status=${each}${filterQuery[shown.shown]}`, ...(each === status ? { ariaCurrent: 'page' } : {}) }, statusNames[each]),
      ),
    ),
    el(
      'nav',
      { className: ['tabs'], ariaLabel: 'Whose' },
      (['all', 'mine', 'to-review'] as const).map((each) =>
        el('a', { href: `${changeRequestsPath(space.id)}?status=${status}${filterQuery[each]}`, ...(each === shown.shown ? { ariaCurrent: 'page' } : {}) }, filterNames[each]),
      ),
    ),
    items.length === 0
      ? el('p', { className: ['muted'] }, `No ${statusNames[status].toLowerCase()} change request here.`)
      : el(
          'ul',
          { className: ['list'] },
          items.map(({ changeRequest, creator }) =>
            el(
              'li',
              {},
              el('a', { href: changeRequestPath(space.id, changeRequest.number) }, changeRequest.subject || `Change request #${changeRequest.number}`),
              el('span', { className: ['muted'] }, ` #${changeRequest.number} by ${nameOf(creator)}`),
            ),
          ),
        ),
  ];
}

/** A changed page's diff, drawn already (rendered blocks, or its markdown). */
export type PageDiff = Child;

export interface ChangeRequestPage {
  space: SpaceRecord;
  view: ChangeRequestView;
  description: ElementContent[];
  /** The description as markdown, for those who may edit it (empty otherwise). */
  descriptionMarkdown: string;
  changes: { pages: PageChange[]; files: FileChange[] };
  diffMode: 'rendered' | 'source';
  /** Each changed page's diff, by page id (a page moved without a change of text has none). */
  diffs: Map<string, PageDiff>;
  reviews: Array<{ review: ReviewRecord; reviewer: UserRecord }>;
  requested: UserRecord[];
  /** Whom a review may be asked of (for those who may ask). */
  candidates: UserRecord[];
  comments: ShownComment[];
  may: { review: boolean; merge: boolean; comment: boolean; edit: boolean };
  conflicts?: MergeConflict[];
  problem?: string;
}

/** One change request: what it changes (a diff per page, with that page's comments), its reviews, its conversation, and the forms the person's role allows. */
export function changeRequestContent(ctx: AppContext, page: ChangeRequestPage): Child[] {
  const { space, view, changes } = page;
  const { changeRequest } = view;
  const open = changeRequest.status === 'open' || changeRequest.status === 'draft';
  const here = changeRequestPath(space.id, changeRequest.number);
  const action = (verb: string) => `${here}/${verb}`;
  const general = page.comments.filter((comment) => comment.pageId === null || !page.changes.pages.some((change) => change.page.id === comment.pageId));
  return [
    breadcrumbs(el('a', { href: spacePath(space.id) }, space.title || 'Untitled space'), el('a', { href: changeRequestsPath(space.id) }, 'Change requests')),
    el('h1', {}, changeRequest.subject || `Change request #${changeRequest.number}`),
    el(
      'p',
      { className: ['muted'] },
      `#${changeRequest.number} · ${statusNames[changeRequest.status]} · opened by ${nameOf(view.creator)}`,
      view.state.outdated && open ? ' · main has moved on since it branched' : '',
    ),
    page.problem ? el('p', { className: ['problem'], role: 'alert' }, page.problem) : null,
    page.conflicts ? conflictList(ctx, page.conflicts, action('update'), page.may.edit) : null,
    page.description.length ? el('div', { className: ['document', 'description'] }, page.description) : null,
    open && page.may.edit
      ? el(
          'details',
          { className: ['edit'] },
          el('summary', {}, 'Edit subject and description'),
          el(
            'form',
            { method: 'post', action: action('describe') },
            csrfField(ctx),
            el('label', { htmlFor: 'cr-subject' }, 'Subject'),
            el('input', { id: 'cr-subject', name: 'subject', value: changeRequest.subject, maxLength: 100 }),
            el('label', { htmlFor: 'cr-description' }, 'Description'),
            el('textarea', { id: 'cr-description', name: 'description', rows: 5 }, page.descriptionMarkdown),
            el('button', { type: 'submit' }, 'Save'),
          ),
        )
      : null,
    el(
      'section',
      { ariaLabelledBy: 'changes-title' },
      el('h2', { id: 'changes-title' }, `Changes (${changes.pages.length} page${changes.pages.length === 1 ? '' : 's'}, ${changes.files.length} file${changes.files.length === 1 ? '' : 's'})`),
      changes.pages.length
        ? el(
            'nav',
            { className: ['tabs'], ariaLabel: 'Diff' },
            el('a', { href: `${here}`, ...(page.diffMode === 'rendered' ? { ariaCurrent: 'page' } : {}) }, 'Rendered'),
            el('a', { href: `${here}?diff=source`, ...(page.diffMode === 'source' ? { ariaCurrent: 'page' } : {}) }, 'Source'),
          )
        : null,
      changes.pages.length === 0 && changes.files.length === 0 ? el('p', { className: ['muted'] }, 'Nothing changed yet.') : null,
      open && page.may.edit
        ? el('p', {}, el('a', { href: editedPagesPath({ space, changeRequest }) }, 'Edit pages'), el('span', { className: ['muted'] }, ' · each save is a commit on this change request'))
        : null,
      changes.pages.map((change) =>
        pageChangeDetails(change, page.diffs.get(change.page.id), {
          comments: page.comments.filter((comment) => comment.pageId === change.page.id).map((comment) => commentThread(ctx, comment, action('comments'), page.may.comment)),
          form:
            page.may.comment && change.type !== 'page_deleted' && change.page.kind === 'document'
              ? markdownForm(ctx, {
                  action: action('comments'),
                  id: `comment-on-${change.page.id}`,
                  label: `Comment on ${titleOf(change.page)}`,
                  button: `Comment on ${titleOf(change.page)}`,
                  rows: 2,
                  hidden: { page: change.page.id },
                })
              : null,
        }),
      ),
      changes.files.length
        ? el(
            'ul',
            {},
            changes.files.map((change) => el('li', {}, `${change.file.name}: ${change.type.replace('file_', '')}`)),
          )
        : null,
    ),
    reviewSection(ctx, page, open, action),
    el(
      'section',
      { id: 'comments', ariaLabelledBy: 'comments-title' },
      el('h2', { id: 'comments-title' }, 'Comments'),
      general.length === 0 ? el('p', { className: ['muted'] }, 'No comment yet.') : null,
      general.map((comment) => commentThread(ctx, comment, action('comments'), page.may.comment)),
      page.may.comment ? markdownForm(ctx, { action: action('comments'), id: 'comment-body', label: 'Comment', button: 'Comment' }) : null,
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

function reviewSection(ctx: AppContext, page: ChangeRequestPage, open: boolean, action: (verb: string) => string): Child {
  const asked = new Set(page.requested.map((user) => user.id));
  const candidates = page.candidates.filter((user) => !asked.has(user.id));
  return el(
    'section',
    { id: 'reviews', ariaLabelledBy: 'reviews-title' },
    el('h2', { id: 'reviews-title' }, 'Reviews'),
    page.reviews.length === 0
      ? el('p', { className: ['muted'] }, 'No review yet.')
      : el(
          'ul',
          {},
          page.reviews.map(({ review, reviewer }) => el('li', {}, `${nameOf(reviewer)}: ${review.status === 'approved' ? 'approved' : 'requested changes'}`)),
        ),
    page.requested.length
      ? el(
          'ul',
          { ariaLabel: 'Review requested from' },
          page.requested.map((user) =>
            el(
              'li',
              {},
              `Review requested from ${nameOf(user)}`,
              open && page.may.edit
                ? el(
                    'form',
                    { method: 'post', action: action('reviewers/withdraw'), className: ['inline'] },
                    csrfField(ctx),
                    el('input', { type: 'hidden', name: 'user', value: user.id }),
                    el('button', { type: 'submit', ariaLabel: `Withdraw the request to ${nameOf(user)}` }, 'Withdraw'),
                  )
                : null,
            ),
          ),
        )
      : null,
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
    open && page.may.edit && candidates.length
      ? el(
          'form',
          { method: 'post', action: action('reviewers'), className: ['inline'] },
          csrfField(ctx),
          el('label', { htmlFor: 'reviewer' }, 'Reviewer'),
          el(
            'select',
            { id: 'reviewer', name: 'user' },
            candidates.map((user) => el('option', { value: user.id }, nameOf(user))),
          ),
          el('button', { type: 'submit' }, 'Request review'),
        )
      : null,
  );
}

/** A changed page: its title and what happened to it, its diff, and the conversations about it. */
export function pageChangeDetails(change: PageChange, diff: PageDiff | undefined, discussion: { comments: Child[]; form: Child } = { comments: [], form: null }): Child {
  const what = { page_created: 'added', page_deleted: 'removed', page_edited: 'edited', page_moved: 'moved' }[change.type];
  return el('details', { className: ['change'], open: true }, el('summary', {}, `${titleOf(change.page)} (${what})`), diff ?? null, discussion.comments, discussion.form);
}

const titleOf = (page: RevisionPage) => page.title || page.path || 'Untitled page';

/**
 * What conflicts with main, and the choices the API's update offers for each conflicting page:
 * keep the change request's version or main's (`resolve`). Files conflict beyond choosing: git.
 */
function conflictList(ctx: AppContext, conflicts: MergeConflict[], action: string, mayResolve: boolean): Child {
  const pages = conflicts.filter((conflict) => conflict.kind === 'page');
  return el(
    'section',
    { className: ['problem'], role: 'alert', ariaLabelledBy: 'conflicts-title' },
    el('h2', { id: 'conflicts-title' }, 'Not merged: these conflict with main'),
    el(
      'ul',
      {},
      conflicts.map((conflict) => el('li', {}, conflict.kind === 'page' ? `${conflict.title}: ${conflict.reason}` : `${conflict.path}: ${conflict.reason}`)),
    ),
    mayResolve && pages.length
      ? el(
          'form',
          { method: 'post', action },
          csrfField(ctx),
          pages.map((conflict) =>
            el(
              'fieldset',
              {},
              el('legend', {}, `Keep which version of ${conflict.title}?`),
              (
                [
                  ['change-request', 'This change request’s'],
                  ['primary', 'Main’s'],
                ] as const
              ).map(([value, label], index) =>
                el('label', { className: ['choice'] }, el('input', { type: 'radio', name: `resolve:${conflict.pageId}`, value, required: true, checked: index === 0 }), ` ${label}`),
              ),
            ),
          ),
          el('button', { type: 'submit' }, 'Update from main with these choices'),
        )
      : null,
    conflicts.length > pages.length ? el('p', {}, 'Files that conflict are resolved with git: pull the change request’s branch, merge main into it, push.') : null,
  );
}
