import { randomBytes, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { sessionLifetimeMs, sessionOfCookie } from '../../domain/accounts/index.js';
import type { AppContext } from '../context.js';
import { forbidden } from '../errors.js';

/**
 * The web app's cookies. The session's: httpOnly, SameSite=Lax, Secure when the public URL is
 * https, scoped to /app so the /v1 API never receives it (the API reads tokens only: a forged
 * cross-site request carrying the cookie authorizes nothing there). The sign-in form's: a random
 * value repeated in the form, so a sign-in can't be posted from another site (login CSRF).
 */
export const sessionCookie = 'quire_session';
const signInCookie = 'quire_sign_in';
const flowCookie = 'quire_sign_in_flow';

const cookieOptions = (ctx: AppContext) => ({ httpOnly: true, sameSite: 'lax' as const, secure: secureCookies(ctx), path: '/app', overwrite: true });
const secureCookies = (ctx: AppContext) => (ctx.config.publicUrl ?? '').startsWith('https:');

export function setSessionCookie(ctx: AppContext, value: string): void {
  ctx.cookies.set(sessionCookie, value, { ...cookieOptions(ctx), maxAge: sessionLifetimeMs });
}

export function clearSessionCookie(ctx: AppContext): void {
  ctx.cookies.set(sessionCookie, '', { ...cookieOptions(ctx), maxAge: 0 });
}

/** A sign-in through an identity provider under way in this browser (domain/accounts' flows). */
export function setFlowCookie(ctx: AppContext, value: string): void {
  ctx.cookies.set(flowCookie, value, { ...cookieOptions(ctx), maxAge: 10 * 60_000 });
}

export const flowCookieOf = (ctx: AppContext) => ctx.cookies.get(flowCookie);

export function clearFlowCookie(ctx: AppContext): void {
  ctx.cookies.set(flowCookie, '', { ...cookieOptions(ctx), maxAge: 0 });
}

/** Sets `caller` and `appSession` from the cookie, when it names a live session. */
export async function readSession(ctx: AppContext, next: Koa.Next) {
  const value = ctx.cookies.get(sessionCookie);
  const found = value ? await sessionOfCookie(ctx.db, value) : undefined;
  if (found) {
    ctx.state.caller = found.user;
    ctx.state.appSession = found.session;
  }
  return next();
}

/** The sign-in form's token: the cookie's value, made when missing. */
export function signInToken(ctx: AppContext): string {
  const existing = ctx.cookies.get(signInCookie);
  if (existing && /^[\w-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  ctx.cookies.set(signInCookie, token, { ...cookieOptions(ctx), maxAge: 3_600_000 });
  return token;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * A state change the app accepts: from a page of this origin (the `Origin` header, which every
 * browser sends on a POST) and carrying the token its form was given: the session's, or before a
 * sign-in the sign-in cookie's. The cookie alone is never enough.
 */
export function checkFormOrigin(ctx: AppContext, form: URLSearchParams, kind: 'signed in' | 'sign in' = 'signed in'): void {
  const origin = ctx.get('origin');
  // This site's origin from the Host the request was sent to (Koa 3's ctx.origin is the Origin header itself).
  const allowed = new Set([`${ctx.protocol}://${ctx.host}`, ...(ctx.config.publicUrl ? [new URL(ctx.config.publicUrl).origin] : [])]);
  // Routed here by another node of the instance (its secret checked): the page was that node's host's.
  const routedFrom = ctx.state.routed === true ? ctx.get('x-forwarded-host') : '';
  if (routedFrom) allowed.add(`${ctx.protocol}://${routedFrom}`);
  if (!origin || !allowed.has(origin)) throw forbidden('This form must be sent from a page of this site');
  const expected = kind === 'sign in' ? ctx.cookies.get(signInCookie) : ctx.state.appSession?.csrfToken;
  const sent = form.get('csrf') ?? '';
  if (!expected || !same(sent, expected)) throw forbidden('This form has expired: load the page again and resend it');
}
