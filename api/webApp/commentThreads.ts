import type { Element } from 'hast';
import { el, type Child } from '../../domain/documents/index.js';
import type { UserRecord } from '../../storage/users.js';
import type { AppContext } from '../context.js';
import { csrfField } from './layout.js';

/** A comment or a reply as the page shows it: who, when, its body drawn by the shared renderer, and its markdown to edit. */
export interface ShownPost {
  id: string;
  author: UserRecord;
  postedAt: string;
  edited: boolean;
  body: Child[];
  markdown: string;
  /** Its author or a moderator: edit and delete (the domain decides again when it is posted). */
  mayChange: boolean;
}

export interface ShownComment extends ShownPost {
  pageId: string | null;
  resolved: boolean;
  mayResolve: boolean;
  replies: ShownPost[];
}

const nameOf = (user: UserRecord) => user.displayName || user.email;
const when = (at: string) => at.slice(0, 16).replace('T', ' ');

/**
 * One conversation: the comment, its replies, and the forms the person may use on them (reply,
 * resolve or reopen, edit, delete), each a plain form posted to `base/<comment id>/…`.
 */
export function commentThread(ctx: AppContext, comment: ShownComment, base: string, mayReply: boolean): Element {
  const at = `${base}/${comment.id}`;
  return el(
    'article',
    { className: ['comment', ...(comment.resolved ? ['resolved'] : [])], id: `comment-${comment.id}`, ariaLabel: `Comment by ${nameOf(comment.author)}` },
    post(ctx, comment, at, `${comment.resolved ? ' · resolved' : ''}`),
    comment.replies.length
      ? el(
          'ol',
          { className: ['replies'], ariaLabel: 'Replies' },
          comment.replies.map((reply) => el('li', { className: ['reply'], id: `reply-post-${reply.id}` }, post(ctx, reply, `${at}/replies/${reply.id}`, ''))),
        )
      : null,
    el(
      'div',
      { className: ['actions'] },
      comment.mayResolve
        ? el(
            'form',
            { method: 'post', action: `${at}/resolve` },
            csrfField(ctx),
            el('input', { type: 'hidden', name: 'resolved', value: comment.resolved ? 'false' : 'true' }),
            el('button', { type: 'submit' }, comment.resolved ? 'Reopen' : 'Resolve'),
          )
        : null,
    ),
    mayReply ? markdownForm(ctx, { action: `${at}/replies`, id: `reply-${comment.id}`, label: `Reply to ${nameOf(comment.author)}`, button: 'Reply', rows: 2 }) : null,
  );
}

function post(ctx: AppContext, shown: ShownPost, at: string, status: string): Child[] {
  return [
    el('p', { className: ['muted'] }, `${nameOf(shown.author)} · ${when(shown.postedAt)}${shown.edited ? ' · edited' : ''}${status}`),
    el('div', { className: ['body'] }, shown.body),
    shown.mayChange
      ? el(
          'div',
          { className: ['actions'] },
          el(
            'details',
            { className: ['edit'] },
            el('summary', {}, 'Edit'),
            markdownForm(ctx, { action: `${at}/edit`, id: `edit-${shown.id}`, label: 'Text', button: 'Save', value: shown.markdown, rows: 4 }),
          ),
          el('form', { method: 'post', action: `${at}/delete` }, csrfField(ctx), el('button', { type: 'submit', className: ['danger'] }, 'Delete')),
        )
      : null,
  ];
}

/** A labelled markdown box and its button: posting a comment, a reply, an edit. */
export function markdownForm(ctx: AppContext, input: { action: string; id: string; label: string; button: string; value?: string; rows?: number; hidden?: Record<string, string> }): Element {
  return el(
    'form',
    { method: 'post', action: input.action, className: ['markdown-form'] },
    csrfField(ctx),
    Object.entries(input.hidden ?? {}).map(([name, value]) => el('input', { type: 'hidden', name, value })),
    el('label', { htmlFor: input.id }, input.label),
    el('textarea', { id: input.id, name: 'markdown', rows: input.rows ?? 4, required: true, maxLength: 100_000 }, input.value ?? ''),
    el('button', { type: 'submit' }, input.button),
  );
}
