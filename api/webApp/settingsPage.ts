import { el, type Child } from '../../domain/documents/index.js';
import type { AppSessionRecord } from '../../storage/appSessions.js';
import type { TokenRecord } from '../../storage/tokens.js';
import type { AppContext } from '../context.js';
import { csrfField } from './layout.js';

export interface SettingsPage {
  tokens: TokenRecord[];
  sessions: AppSessionRecord[];
  /** A token just made: its value, shown this once. */
  newToken?: { label: string; value: string };
  problem?: string;
  notice?: string;
}

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : 'never');

/** The person's own settings: their password, their API tokens, the browsers signed in as them. */
export function settingsContent(ctx: AppContext, page: SettingsPage): Child[] {
  const current = ctx.state.appSession?.id;
  const form = (action: string, ...children: Child[]) => el('form', { method: 'post', action: `/app/settings/${action}` }, csrfField(ctx), children);
  return [
    el('h1', {}, 'Settings'),
    page.problem ? el('p', { className: ['problem'], role: 'alert' }, page.problem) : null,
    page.notice ? el('p', { className: ['notice'], role: 'status' }, page.notice) : null,
    el(
      'section',
      { ariaLabelledBy: 'tokens-title' },
      el('h2', { id: 'tokens-title' }, 'API tokens'),
      page.newToken
        ? el('div', { className: ['notice'], role: 'status' }, el('p', {}, `Your new token "${page.newToken.label}", shown this once:`), el('p', { className: ['clone'] }, page.newToken.value))
        : null,
      page.tokens.length === 0
        ? el('p', { className: ['muted'] }, 'No token yet.')
        : el('div', { className: ['table-scroll'], tabIndex: 0, role: 'region', ariaLabel: 'Your API tokens' }, tokenTable(page.tokens, form)),
      form(
        'tokens',
        el('label', { htmlFor: 'token-label' }, 'Label'),
        ' ',
        el('input', { id: 'token-label', name: 'label', required: true, maxLength: 100 }),
        ' ',
        el('button', { type: 'submit' }, 'Create token'),
      ),
    ),
    el(
      'section',
      { ariaLabelledBy: 'sessions-title' },
      el('h2', { id: 'sessions-title' }, 'Signed in'),
      el(
        'ul',
        {},
        page.sessions.map((session) =>
          el(
            'li',
            {},
            `Since ${day(session.createdAt)}${session.userAgent ? `, ${session.userAgent.slice(0, 80)}` : ''}`,
            session.id === current ? ' (this browser)' : form('sessions/end', el('input', { type: 'hidden', name: 'id', value: session.id }), el('button', { type: 'submit' }, 'Sign out there')),
          ),
        ),
      ),
    ),
    el(
      'section',
      { ariaLabelledBy: 'password-title' },
      el('h2', { id: 'password-title' }, 'Password'),
      form(
        'password',
        el(
          'p',
          {},
          el('label', { htmlFor: 'current-password' }, 'Current password'),
          el('br'),
          el('input', { id: 'current-password', name: 'current', type: 'password', autoComplete: 'current-password', required: true }),
        ),
        el(
          'p',
          {},
          el('label', { htmlFor: 'new-password' }, 'New password'),
          el('br'),
          el('input', { id: 'new-password', name: 'next', type: 'password', autoComplete: 'new-password', required: true, minLength: 8 }),
        ),
        el('button', { type: 'submit' }, 'Change password'),
      ),
      el('p', { className: ['muted'] }, 'Changing it signs out every other browser.'),
    ),
  ];
}

function tokenTable(tokens: TokenRecord[], form: (action: string, ...children: Child[]) => Child): Child {
  const header = ['Label', 'Created', 'Last used', 'Expires'].map((name) => el('th', { scope: 'col' }, name));
  return el(
    'table',
    {},
    el('thead', {}, el('tr', {}, header, el('th', { scope: 'col' }, el('span', { className: ['skip'] }, 'Revoke')))),
    el(
      'tbody',
      {},
      tokens.map((token) =>
        el(
          'tr',
          {},
          el('td', {}, token.label ?? '(no label)'),
          el('td', {}, day(token.createdAt)),
          el('td', {}, day(token.lastUsedAt)),
          el('td', {}, day(token.expiresAt)),
          el('td', {}, form('tokens/revoke', el('input', { type: 'hidden', name: 'id', value: token.id }), el('button', { type: 'submit', ariaLabel: `Revoke ${token.label ?? 'token'}` }, 'Revoke'))),
        ),
      ),
    ),
  );
}
