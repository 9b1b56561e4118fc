import { el, type Child } from '../../domain/documents/index.js';
import type { RevisionPage } from '../../engine/index.js';
import type { ChangeRequestRecord } from '../../storage/changeRequests.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { AppContext } from '../context.js';
import { breadcrumbs, csrfField } from './layout.js';
import { changeRequestPath, changeRequestsPath, spacePath } from './paths.js';

const crTitle = (changeRequest: ChangeRequestRecord) => changeRequest.subject || `Change request #${changeRequest.number}`;
export const editPagePath = (spaceId: string, number: number, pageId: string) => `${changeRequestPath(spaceId, number)}/p/${pageId}/edit`;
export const crPagesPath = (spaceId: string, number: number) => `${changeRequestPath(spaceId, number)}/pages`;

function trail(space: SpaceRecord, changeRequest: ChangeRequestRecord, ...more: Child[]) {
  return breadcrumbs(
    el('a', { href: spacePath(space.id) }, space.title || 'Untitled space'),
    el('a', { href: changeRequestsPath(space.id) }, 'Change requests'),
    el('a', { href: changeRequestPath(space.id, changeRequest.number) }, crTitle(changeRequest)),
    ...more,
  );
}

/** The pages of a change request's branch, each with Edit, and a form for a new page. */
export function crPagesContent(ctx: AppContext, input: { space: SpaceRecord; changeRequest: ChangeRequestRecord; pages: RevisionPage[] }): Child[] {
  const { space, changeRequest } = input;
  const tree = (pages: RevisionPage[]): Child =>
    el(
      'ul',
      { className: ['tree-list'] },
      pages.map((page) =>
        el(
          'li',
          {},
          page.kind === 'document' ? el('a', { href: editPagePath(space.id, changeRequest.number, page.id), ariaLabel: `Edit ${page.title}` }, page.title) : page.title,
          page.pages.length ? tree(page.pages) : null,
        ),
      ),
    );
  return [
    trail(space, changeRequest, 'Pages'),
    el('h1', {}, `Pages of ${crTitle(changeRequest)}`),
    el('p', { className: ['muted'] }, 'Each save is a commit on the change request’s branch.'),
    tree(input.pages),
    el(
      'form',
      { method: 'post', action: crPagesPath(space.id, changeRequest.number), className: ['inline'] },
      csrfField(ctx),
      el('label', { htmlFor: 'new-page-title' }, 'New page'),
      el('input', { id: 'new-page-title', name: 'title', required: true, maxLength: 256 }),
      el('button', { type: 'submit' }, 'Add page'),
    ),
  ];
}

/** A page's editor, in markdown: its title and text as of `base` (the branch's head when opened), saved as one commit. */
export function editPageContent(
  ctx: AppContext,
  input: { space: SpaceRecord; changeRequest: ChangeRequestRecord; pageId: string; title: string; markdown: string; base: string; problem?: string },
): Child[] {
  const { space, changeRequest } = input;
  const action = editPagePath(space.id, changeRequest.number, input.pageId);
  return [
    trail(space, changeRequest, el('a', { href: crPagesPath(space.id, changeRequest.number) }, 'Pages'), input.title),
    el('h1', {}, `Edit ${input.title}`),
    input.problem ? el('p', { className: ['problem'], role: 'alert' }, input.problem) : null,
    el(
      'form',
      { method: 'post', action, className: ['stacked', 'editor'] },
      csrfField(ctx),
      el('input', { type: 'hidden', name: 'base', value: input.base }),
      el('label', { htmlFor: 'page-title' }, 'Title'),
      el('input', { id: 'page-title', name: 'title', value: input.title, required: true, maxLength: 256 }),
      el('label', { htmlFor: 'page-markdown' }, 'Markdown'),
      el('textarea', { id: 'page-markdown', name: 'markdown', rows: 24, spellCheck: true }, input.markdown),
      el('button', { type: 'submit', className: ['primary'] }, 'Save'),
    ),
    el(
      'form',
      { method: 'post', action: action.replace(/\/edit$/, '/delete'), className: ['inline'] },
      csrfField(ctx),
      el('button', { type: 'submit', className: ['danger'], ariaLabel: `Delete the page ${input.title}` }, 'Delete'),
    ),
  ];
}
