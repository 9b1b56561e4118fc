import { randomBytes } from 'node:crypto';
import type { Element, Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { el, type Child } from '../../domain/documents/index.js';
import type { AppContext } from '../context.js';
import { appStylesName } from './appStyles.js';

/** A page of the app: its title, its content, and the app's scripts it enhances itself with (appScripts), if any. */
export interface AppPage {
  title: string;
  content: Child[];
  scripts?: string[];
}

/** The app's pages are built as trees, never from strings with user data in them. */
export function appPageHtml(ctx: AppContext, page: AppPage, nonce?: string): string {
  const caller = ctx.state.appSession ? ctx.state.caller : undefined;
  const tree: Root = {
    type: 'root',
    children: [
      { type: 'doctype' },
      el(
        'html',
        { lang: 'en' },
        el(
          'head',
          {},
          el('meta', { charSet: 'utf-8' }),
          el('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
          el('title', {}, `${page.title} · Quire`),
          el('link', { rel: 'stylesheet', href: `/app/assets/${appStylesName}` }),
          (page.scripts ?? []).map((name) => el('script', { src: `/app/assets/${name}`, defer: true, nonce })),
        ),
        el(
          'body',
          {},
          el('a', { className: ['skip'], href: '#main' }, 'Skip to content'),
          el(
            'header',
            { className: ['bar'] },
            el('a', { className: ['home'], href: '/app/' }, 'Quire'),
            caller
              ? [
                  el('span', { className: ['who'] }, caller.displayName || caller.email),
                  el('a', { href: '/app/settings' }, 'Settings'),
                  el('form', { method: 'post', action: '/app/sign-out' }, csrfField(ctx), el('button', { type: 'submit' }, 'Sign out')),
                ]
              : null,
          ),
          el('main', { id: 'main' }, page.content),
        ),
      ),
    ],
  };
  return toHtml(tree);
}

/** Where a page is, from the app's home: each step a link or, for ' · ' and the page itself, text. */
export function breadcrumbs(...trail: Child[]): Element {
  const steps: Child[] = [el('a', { href: '/app/' }, 'Home')];
  let separated = false;
  for (const step of trail) {
    const dot = typeof step === 'string' && step.trim() === '·';
    steps.push(dot || separated ? step : [' / ', step]);
    separated = dot;
  }
  return el('nav', { className: ['breadcrumbs'], ariaLabel: 'Breadcrumbs' }, steps);
}

/** The hidden field every form of a signed-in page carries (sessionCookie.ts: checkFormOrigin). */
export const csrfField = (ctx: AppContext) => el('input', { type: 'hidden', name: 'csrf', value: ctx.state.appSession?.csrfToken ?? '' });

/**
 * The app's policy: its own stylesheet (and the styles its scripts add, by the nonce: CodeMirror's),
 * scripts only by this response's nonce (none on most pages), frames and fetches of this site only
 * (a site's preview, the shared editor's connection), forms to itself, never framed.
 */
export const appContentSecurityPolicy = (nonce?: string) =>
  `default-src 'none'; style-src 'self'${nonce ? ` 'nonce-${nonce}'` : ''}; img-src 'self' data:; script-src ${nonce ? `'nonce-${nonce}'` : "'none'"}; connect-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

export function sendPage(ctx: AppContext, page: AppPage, status = 200): void {
  const nonce = page.scripts?.length ? randomBytes(18).toString('base64url') : undefined;
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', appContentSecurityPolicy(nonce));
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.body = appPageHtml(ctx, page, nonce);
}
