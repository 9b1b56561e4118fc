import type Koa from 'koa';
import type { AppContext } from '../context.js';
import { sendPage } from './layout.js';
import { messageContent } from './pages.js';

/** Signed out: a GET goes to sign-in and comes back; anything else is refused. */
export async function signedIn(ctx: AppContext, next: Koa.Next): Promise<unknown> {
  if (ctx.state.appSession) return next();
  if (ctx.method !== 'GET') return sendPage(ctx, { title: 'Signed out', content: messageContent('Signed out', 'Sign in again, then send this once more.') }, 401);
  ctx.redirect(`/app/sign-in?next=${encodeURIComponent(ctx.originalUrl)}`);
}
