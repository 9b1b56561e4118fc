import type { BlockTargets, EditedBranch } from '../../domain/changeRequests/index.js';
import type { ElementContent } from 'hast';
import { el, type Child } from '../../domain/documents/index.js';
import type { EditableBlock, RevisionPage } from '../../engine/index.js';
import type { ChangeRequestRecord } from '../../storage/changeRequests.js';
import { callerOf, type AppContext } from '../context.js';
import { breadcrumbs, csrfField } from './layout.js';
import { changeRequestPath, changeRequestsPath, spacePath } from './paths.js';

const crTitle = (changeRequest: ChangeRequestRecord) => changeRequest.subject || `Change request #${changeRequest.number}`;
/** Where the editors of a branch live: under its change request, or under the space itself (live edits). */
const editedPath = ({ space, changeRequest }: EditedBranch) => (changeRequest ? changeRequestPath(space.id, changeRequest.number) : spacePath(space.id));
export const editPagePath = (edited: EditedBranch, pageId: string) => `${editedPath(edited)}/p/${pageId}/edit`;
export const editedPagesPath = (edited: EditedBranch) => `${editedPath(edited)}/pages`;
const markdownEditorPath = (edited: EditedBranch, pageId: string) => `${editedPath(edited)}/p/${pageId}/markdown`;
/** The lists the block editor's target fields offer (`list` of an input), by what they list. */
const targetLists: Record<keyof BlockTargets, string> = { pages: 'page-targets', files: 'file-targets', reusable: 'reusable-targets', specs: 'spec-targets' };

/** What the editors call the branch a save lands on. */
const branchSaid = (edited: EditedBranch) => (edited.changeRequest ? 'the change request’s branch' : 'the space’s content, live');

function trail({ space, changeRequest }: EditedBranch, ...more: Child[]) {
  return breadcrumbs(
    el('a', { href: spacePath(space.id) }, space.title || 'Untitled space'),
    ...(changeRequest ? [el('a', { href: changeRequestsPath(space.id) }, 'Change requests'), el('a', { href: changeRequestPath(space.id, changeRequest.number) }, crTitle(changeRequest))] : []),
    ...more,
  );
}

/**
 * The pages of a branch (a change request's, or a live space's own), each with Edit, and under "Move or rename" its title and
 * the Move buttons (up, down, in under the page above, out after its parent); pages can be
 * dragged too (a script). A form for a new page.
 */
export function editedPagesContent(ctx: AppContext, input: { edited: EditedBranch; pages: RevisionPage[] }): Child[] {
  const { edited } = input;
  const pagePath = (pageId: string, action: string) => `${editedPath(edited)}/p/${pageId}/${action}`;
  const actions = (page: RevisionPage): Child =>
    el(
      'details',
      { className: ['page-actions'] },
      el('summary', { ariaLabel: `Move or rename ${page.title}` }, 'Move or rename'),
      el(
        'form',
        { method: 'post', action: pagePath(page.id, 'rename'), className: ['inline'] },
        csrfField(ctx),
        el('label', { htmlFor: `title-${page.id}` }, 'Title'),
        el('input', { id: `title-${page.id}`, name: 'title', value: page.title, required: true, maxLength: 256 }),
        el('button', { type: 'submit' }, 'Rename'),
      ),
      el(
        'form',
        { method: 'post', action: pagePath(page.id, 'move'), className: ['inline'] },
        csrfField(ctx),
        ...(
          [
            ['up', 'Up', 'up'],
            ['down', 'Down', 'down'],
            ['in', 'In', 'under the page above'],
            ['out', 'Out', 'out of its parent'],
          ] as const
        ).map(([direction, label, said]) => el('button', { type: 'submit', name: 'direction', value: direction, ariaLabel: `Move ${page.title} ${said}` }, label)),
      ),
    );
  const tree = (pages: RevisionPage[], parent: string, more: Record<string, string> = {}): Child =>
    el(
      'ul',
      { className: ['tree-list'], ...more },
      pages.map((page, index) =>
        el(
          'li',
          { id: `page-${page.id}`, draggable: 'true', dataPage: page.id, dataParent: parent, dataIndex: String(index) },
          page.kind === 'document' ? el('a', { href: editPagePath(edited, page.id), ariaLabel: `Edit ${page.title}` }, page.title) : page.title,
          actions(page),
          page.pages.length ? tree(page.pages, page.id) : null,
        ),
      ),
    );
  return [
    trail(edited, 'Pages'),
    el('h1', {}, `Pages of ${edited.changeRequest ? crTitle(edited.changeRequest) : edited.space.title || 'Untitled space'}`),
    el('p', { className: ['muted'] }, `Each save is a commit on ${branchSaid(edited)}. Drag a page onto another to put it before that one, or use Move.`),
    // Where the drag script posts a move (PAGE: the dragged page), with the form token.
    tree(input.pages, '', { dataMoves: pagePath('PAGE', 'move'), dataCsrf: ctx.state.appSession?.csrfToken ?? '' }),
    el(
      'form',
      { method: 'post', action: editedPagesPath(edited), className: ['inline'] },
      csrfField(ctx),
      el('label', { htmlFor: 'new-page-title' }, 'New page'),
      el('input', { id: 'new-page-title', name: 'title', required: true, maxLength: 256 }),
      el('button', { type: 'submit' }, 'Add page'),
    ),
  ];
}

/**
 * A page in the block editor: the page's blocks (as JSON, for the editor's script), its title,
 * a toolbar, the block settings beside the text, and Save; where its shared editor connects
 * (`collab`, with a ticket). Without script, the markdown editor.
 */
export function blockEditorContent(
  ctx: AppContext,
  input: {
    edited: EditedBranch;
    pageId: string;
    title: string;
    base: string;
    blocks: EditableBlock[];
    collab: string;
    targets: BlockTargets;
  },
): Child[] {
  const { edited } = input;
  const editPath = editPagePath(edited, input.pageId);
  const markdownPath = markdownEditorPath(edited, input.pageId);
  const tool = (name: string, label: string, shortcut: string) => el('button', { type: 'button', className: [name], title: `${label} (${shortcut})`, ariaKeyShortcuts: shortcut }, label);
  return [
    trail(edited, el('a', { href: editedPagesPath(edited) }, 'Pages'), input.title),
    el('h1', {}, `Edit ${input.title}`),
    el('noscript', {}, el('p', { className: ['problem'] }, 'The block editor needs JavaScript. ', el('a', { href: markdownPath }, 'Edit the page in markdown'), ' instead.')),
    el(
      'div',
      {
        id: 'block-editor',
        className: ['block-editor'],
        dataSave: editPath.replace(/\/edit$/, '/blocks'),
        dataFiles: editPath.replace(/\/edit$/, '/files'),
        dataMarkdown: markdownPath,
        dataCollab: input.collab,
        dataCollabTicket: editPath.replace(/\/edit$/, '/collab'),
        dataUserName: callerOf(ctx).displayName,
      },
      csrfField(ctx),
      el('label', { htmlFor: 'page-title', className: ['title-label'] }, 'Title'),
      el('input', { id: 'page-title', name: 'title', value: input.title, required: true, maxLength: 256 }),
      el(
        'div',
        { className: ['editor-toolbar'], role: 'toolbar', ariaLabel: 'Formatting' },
        tool('mark-bold', 'Bold', 'Control+B'),
        tool('mark-italic', 'Italic', 'Control+I'),
        tool('mark-code', 'Code', 'Control+E'),
        tool('mark-strikethrough', 'Strikethrough', 'Control+Shift+X'),
        tool('mark-link', 'Link', 'Control+K'),
        el('button', { type: 'button', className: ['insert-image'], title: 'Insert an image (or drop or paste one into the text)' }, 'Image'),
        el('input', { type: 'file', accept: 'image/*', className: ['image-file'], hidden: true, tabIndex: -1, ariaLabel: 'Image to insert' }),
        el('input', { type: 'file', className: ['any-file'], hidden: true, tabIndex: -1, ariaLabel: 'File to insert' }),
        tool('undo', 'Undo', 'Control+Z'),
        tool('redo', 'Redo', 'Control+Shift+Z'),
        el('span', { className: ['save-status'], role: 'status' }, 'Loading the editor…'),
        el('button', { type: 'button', className: ['save', 'primary'], ariaKeyShortcuts: 'Control+S' }, 'Save'),
      ),
      el(
        'div',
        { className: ['editor-layout'] },
        el('div', { className: ['editor-frame'] }, el('div', { className: ['editor-surface'] })),
        el('aside', { className: ['block-settings'], ariaLabel: 'Block settings', hidden: true }),
      ),
      el(
        'p',
        { className: ['muted', 'editor-help'] },
        `Type / in an empty line for blocks. Alt+↑ and Alt+↓ move a block. Each save is a commit on ${branchSaid(edited)}; the page saves itself a moment after you stop typing. `,
        el('a', { href: markdownPath }, 'Edit as markdown'),
      ),
    ),
    // What a target offers as it is typed (the browser filters): the branch's other pages (links,
    // page blocks), its files, its reusable contents, the organization's OpenAPI specifications.
    Object.entries(targetLists).map(([kind, id]) =>
      el(
        'datalist',
        { id },
        input.targets[kind as keyof BlockTargets].map((target) => el('option', { value: target.target }, target.title)),
      ),
    ),
    // Data, not script (no nonce needed): "<" escaped so the text can't close the element.
    el('script', { type: 'application/json', id: 'editor-blocks' }, JSON.stringify({ base: input.base, blocks: input.blocks }).replace(/</g, '\\u003c')),
    el(
      'form',
      { method: 'post', action: editPath.replace(/\/edit$/, '/delete'), className: ['inline'] },
      csrfField(ctx),
      el('button', { type: 'submit', className: ['danger'], ariaLabel: `Delete the page ${input.title}` }, 'Delete'),
    ),
  ];
}

/** A page's editor in markdown (source mode): its title and text as of `base` (the branch's head when opened), saved as one commit. */
export function markdownEditorContent(
  ctx: AppContext,
  input: { edited: EditedBranch; pageId: string; title: string; markdown: string; base: string; problem?: string; preview: ElementContent[] },
): Child[] {
  const { edited } = input;
  const action = markdownEditorPath(edited, input.pageId);
  return [
    trail(edited, el('a', { href: editedPagesPath(edited) }, 'Pages'), input.title),
    el('h1', {}, `Edit ${input.title}`),
    el('p', {}, el('a', { href: editPagePath(edited, input.pageId) }, 'Edit in the block editor')),
    input.problem ? el('p', { className: ['problem'], role: 'alert' }, input.problem) : null,
    el(
      'div',
      { className: ['source-layout'] },
      el(
        'form',
        { method: 'post', action, className: ['stacked', 'editor'], dataPreview: action.replace(/\/markdown$/, '/preview') },
        csrfField(ctx),
        el('input', { type: 'hidden', name: 'base', value: input.base }),
        el('label', { htmlFor: 'page-title' }, 'Title'),
        el('input', { id: 'page-title', name: 'title', value: input.title, required: true, maxLength: 256 }),
        el('label', { htmlFor: 'page-markdown' }, 'Markdown'),
        el('textarea', { id: 'page-markdown', name: 'markdown', rows: 24, spellCheck: true }, input.markdown),
        el('button', { type: 'submit', className: ['primary'] }, 'Save'),
      ),
      // Beside the markdown, the page as it reads: as opened, then as written (its script asks the server).
      el(
        'section',
        { className: ['source-preview'], ariaLabelledBy: 'preview-title' },
        el('h2', { id: 'preview-title' }, 'Preview'),
        el('article', { className: ['preview-body'], ariaLive: 'polite' }, input.preview),
      ),
    ),
    el(
      'form',
      { method: 'post', action: action.replace(/\/markdown$/, '/delete'), className: ['inline'] },
      csrfField(ctx),
      el('button', { type: 'submit', className: ['danger'], ariaLabel: `Delete the page ${input.title}` }, 'Delete'),
    ),
  ];
}
