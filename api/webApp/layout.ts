import type { Element, Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { el, type Child } from '../../domain/documents/index.js';
import type { AppContext } from '../context.js';
import { appStylesName } from './appStyles.js';

/** The app's pages are built as trees, never from strings with user data in them. */
export function appPageHtml(ctx: AppContext, page: { title: string; content: Child[] }): string {
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

/** The app's policy: its own stylesheet, no script, forms to itself only, never framed. */
export const appContentSecurityPolicy = "default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export function sendPage(ctx: AppContext, page: { title: string; content: Child[] }, status = 200): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', appContentSecurityPolicy);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.body = appPageHtml(ctx, page);
}
