import type Router from '@koa/router';
import {
  acceptSamlResponse,
  finishOidcSignIn,
  finishSamlSignIn,
  samlServiceMetadata,
  signInWithPassword,
  startOidcSignIn,
  startSamlSignIn,
  type SamlServiceUrls,
} from '../../domain/accounts/index.js';
import { DomainError } from '../../domain/common/errors.js';
import { providerIsUsable } from '../../domain/organizations/index.js';
import { findCollection } from '../../storage/collections.js';
import { findOrganizationCached } from '../../storage/organizations.js';
import { getSamlProvider, listAllSamlProviders } from '../../storage/samlProviders.js';
import { findSpace } from '../../storage/spaces.js';
import { pathParam, type AppContext, type AppServices, type AppState } from '../context.js';
import { notFound, toHttpError } from '../errors.js';
import { appReturnPath, readForm } from './forms.js';
import { sendPage } from './layout.js';
import { signInContent, type SignInProvider } from './pages.js';
import { checkFormOrigin, clearFlowCookie, flowCookieOf, setFlowCookie, setSessionCookie, signInToken } from './sessionCookie.js';

/**
 * Signing in to the app: with a password, with the instance's OpenID Connect provider
 * (QUIRE_OIDC_*), or with an organization's SAML provider. A provider's return is tied to the
 * browser that left for it (the flow cookie), so an answer posted by anyone else signs no one in.
 */
export function addSignInRoutes(router: Router<AppState, AppServices>): void {
  router.get('/sign-in', async (ctx) => {
    const app = ctx as AppContext;
    const next = appReturnPath(ctx.query.next as string | undefined);
    if (app.state.appSession) return ctx.redirect(next);
    await showSignIn(app, { next });
  });

  router.post('/sign-in', async (ctx) => {
    const app = ctx as AppContext;
    const form = await readForm(app);
    checkFormOrigin(app, form, 'sign in');
    const next = appReturnPath(form.get('next'));
    const email = form.get('email') ?? '';
    try {
      const { cookie } = await signInWithPassword(app.db, { email, password: form.get('password') ?? '', address: ctx.ip, userAgent: ctx.get('user-agent') });
      // A new session at each sign-in: a cookie planted before it is never the one signed in.
      signedIn(app, cookie, next);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      await showSignIn(app, { next, email, problem: error.message }, toHttpError(error)?.status ?? 400);
    }
  });

  router.get('/sign-in/oidc', async (ctx) => {
    const app = ctx as AppContext;
    const oidc = app.config.oidc;
    if (!oidc) throw notFound('This instance has no OpenID Connect provider (QUIRE_OIDC_ISSUER)');
    const next = appReturnPath(ctx.query.next as string | undefined);
    await leaving(app, next, () => startOidcSignIn(app.db, oidc, { redirectUri: app.urls.app('/sign-in/oidc/callback'), next }));
  });

  router.get('/sign-in/oidc/callback', async (ctx) => {
    const app = ctx as AppContext;
    const oidc = app.config.oidc;
    if (!oidc) throw notFound('This instance has no OpenID Connect provider (QUIRE_OIDC_ISSUER)');
    // The URL the provider sent the browser to, as openid-client compares it with the redirect URI.
    const currentUrl = new URL(ctx.originalUrl, app.urls.base);
    await returning(app, () => finishOidcSignIn(app.db, oidc, { flowCookie: flowCookieOf(app), currentUrl, userAgent: ctx.get('user-agent') }));
  });

  router.get('/sign-in/saml/finish', async (ctx) => {
    const app = ctx as AppContext;
    await returning(app, () => finishSamlSignIn(app.db, { flowCookie: flowCookieOf(app), userAgent: ctx.get('user-agent') }));
  });

  // The SAML provider's `service` URLs: the entity id (serving Quire's metadata), sign-in's start, the ACS.
  router.get('/sign-in/saml/:organizationId/:providerId', async (ctx) => {
    const app = ctx as AppContext;
    const provider = await getSamlProvider(app.db, pathParam(app, 'organizationId'), pathParam(app, 'providerId'));
    ctx.type = 'application/samlmetadata+xml';
    ctx.body = samlServiceMetadata(provider, serviceUrls(app));
  });

  router.get('/sign-in/saml/:organizationId/:providerId/start', async (ctx) => {
    const app = ctx as AppContext;
    const provider = await getSamlProvider(app.db, pathParam(app, 'organizationId'), pathParam(app, 'providerId'));
    const next = appReturnPath((ctx.query.next as string | undefined) ?? `/app/o/${provider.organizationId}`);
    await leaving(app, next, () => startSamlSignIn(app.db, provider, { urls: serviceUrls(app), next }));
  });

  // Posted by the provider's page (another site): the signed assertion is the credential, no form token.
  router.post('/sign-in/saml/:organizationId/:providerId/acs', async (ctx) => {
    const app = ctx as AppContext;
    const organization = await findOrganizationCached(app.db, pathParam(app, 'organizationId'));
    if (!organization) throw notFound(`Organization ${pathParam(app, 'organizationId')}`);
    const provider = await getSamlProvider(app.db, organization.id, pathParam(app, 'providerId'));
    const form = await readForm(app);
    try {
      await acceptSamlResponse(app.db, organization, provider, { urls: serviceUrls(app), samlResponse: form.get('SAMLResponse') ?? '' });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return showSignIn(app, { next: `/app/o/${organization.id}`, problem: error.message }, toHttpError(error)?.status ?? 400);
    }
    // A GET of our own: the browser's SameSite=Lax flow cookie comes with it, as it didn't with the provider's POST.
    ctx.status = 303;
    ctx.redirect('/app/sign-in/saml/finish');
  });
}

function serviceUrls(ctx: AppContext): SamlServiceUrls {
  const organizationId = pathParam(ctx, 'organizationId');
  const providerId = pathParam(ctx, 'providerId');
  return { acs: ctx.urls.samlAcs(organizationId, providerId), entityId: ctx.urls.samlEntity(organizationId, providerId) };
}

function signedIn(ctx: AppContext, cookie: string, next: string): void {
  setSessionCookie(ctx, cookie);
  ctx.status = 303;
  ctx.redirect(appReturnPath(next));
}

/** To the provider, with this browser's flow cookie; a provider that can't be used now is said on the sign-in page. */
async function leaving(ctx: AppContext, next: string, start: () => Promise<{ cookie: string; url: string }>) {
  try {
    const { cookie, url } = await start();
    setFlowCookie(ctx, cookie);
    ctx.redirect(url);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    await showSignIn(ctx, { next, problem: error.message }, toHttpError(error)?.status ?? 400);
  }
}

/** Back from a provider: signed in where the visit began, or the sign-in page saying why not. */
async function returning(ctx: AppContext, finish: () => Promise<{ cookie: string; next: string }>) {
  clearFlowCookie(ctx);
  try {
    const { cookie, next } = await finish();
    signedIn(ctx, cookie, next);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    await showSignIn(ctx, { next: '/app/', problem: error.message }, toHttpError(error)?.status ?? 400);
  }
}

async function showSignIn(ctx: AppContext, input: { next: string; email?: string; problem?: string }, status = 200) {
  const providers = await providersFor(ctx, input.next);
  sendPage(ctx, { title: 'Sign in', content: signInContent({ token: signInToken(ctx), providers, ...input }) }, status);
}

/**
 * The ways to sign in offered beside the password: the instance's OpenID Connect provider, and the
 * SAML providers of the organization the visit is headed to (named by the path it returns to, so
 * the page lists no organization its visitor didn't already point at).
 */
async function providersFor(ctx: AppContext, next: string): Promise<SignInProvider[]> {
  const providers: SignInProvider[] = [];
  if (ctx.config.oidc) providers.push({ label: ctx.config.oidc.label, href: `/app/sign-in/oidc?next=${encodeURIComponent(next)}` });
  const organizationId = await organizationOfPath(ctx, next);
  if (organizationId) {
    for (const provider of await listAllSamlProviders(ctx.db, organizationId)) {
      if (providerIsUsable(provider)) providers.push({ label: provider.label, href: `${new URL(ctx.urls.samlStart(organizationId, provider.id)).pathname}?next=${encodeURIComponent(next)}` });
    }
  }
  return providers;
}

async function organizationOfPath(ctx: AppContext, next: string): Promise<string | undefined> {
  const [, kind, id] = /^\/app\/([osc])\/([^/?#]+)/.exec(next) ?? [];
  if (!id) return undefined;
  if (kind === 'o') return id;
  if (kind === 's') return (await findSpace(ctx.db, id))?.organizationId;
  return (await findCollection(ctx.db, id))?.organizationId;
}
