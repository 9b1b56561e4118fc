import Router from '@koa/router';
import type Koa from 'koa';
import { endSession, signInWithPassword } from '../../domain/accounts/index.js';
import { DomainError } from '../../domain/common/errors.js';
import { organizationAccess } from '../../domain/organizations/index.js';
import { readPageDocument, readSpaceRevision, revisionPage } from '../../domain/spaces/index.js';
import { allPages } from '../../engine/index.js';
import { findContentGrantsCached } from '../../storage/contentGrants.js';
import { findOrganizationCached, listOrganizationsOfUser } from '../../storage/organizations.js';
import { listReachableSpaces, type SpaceRecord } from '../../storage/spaces.js';
import { callerOf, contentDeps, organizationOf, spaceOf, type AppContext, type AppServices, type AppState } from '../context.js';
import { toHttpError } from '../errors.js';
import { spaceActions } from '../policies/actions.js';
import { inOrganization, inSpace } from '../policies/index.js';
import { appStyles, appStylesName } from './appStyles.js';
import { appReturnPath, readForm } from './forms.js';
import { sendPage } from './layout.js';
import { homeContent, messageContent, organizationContent, signInContent, spaceContent } from './pages.js';
import { checkFormOrigin, clearSessionCookie, readSession, setSessionCookie, signInToken } from './sessionCookie.js';

/**
 * The web app under /app: pages built on the server as trees, working as plain HTML (links and
 * forms, no script). A page a signed-out person asks for sends them through sign-in and back. What
 * a person may see is decided by the API's own policies (inOrganization, inSpace), run here on the
 * session's user: the app holds no rule of its own.
 */
export const webAppRouter = new Router<AppState, AppServices>({ prefix: '/app' });
const router = webAppRouter;
type Middleware = (ctx: AppContext, next: Koa.Next) => Promise<unknown>;

/** Signed out: a GET goes to sign-in and comes back; anything else is refused. */
const signedIn: Middleware = async (ctx, next) => {
  if (ctx.state.appSession) return next();
  if (ctx.method !== 'GET') return sendPage(ctx, { title: 'Signed out', content: messageContent('Signed out', 'Sign in again, then send this once more.') }, 401);
  ctx.redirect(`/app/sign-in?next=${encodeURIComponent(ctx.originalUrl)}`);
};

/** A policy of the API, run for the app: its refusal (401, 403, 404) becomes an HTML page. */
const policy =
  (check: { check: (ctx: AppContext, next: Koa.Next) => Promise<unknown> }): Middleware =>
  (ctx, next) =>
    check.check(ctx, next);

router.use(readSession as never, rendersErrors as never);

router.get('/assets/:name', async (ctx) => {
  if (ctx.params.name !== appStylesName) return sendPage(ctx as AppContext, { title: 'Not found', content: messageContent('Not found', 'There is no such file.') }, 404);
  ctx.type = 'text/css; charset=utf-8';
  ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
  ctx.body = appStyles;
});

router.get('/sign-in', async (ctx) => {
  const next = appReturnPath(ctx.query.next as string | undefined);
  if (ctx.state.appSession) return ctx.redirect(next);
  sendPage(ctx as AppContext, { title: 'Sign in', content: signInContent({ token: signInToken(ctx as AppContext), next }) });
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
    setSessionCookie(app, cookie);
    ctx.status = 303;
    ctx.redirect(next);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const status = toHttpError(error)?.status ?? 400;
    sendPage(app, { title: 'Sign in', content: signInContent({ token: signInToken(app), next, email, problem: error.message }) }, status);
  }
});

router.post('/sign-out', signedIn as never, async (ctx) => {
  const app = ctx as AppContext;
  const form = await readForm(app);
  checkFormOrigin(app, form);
  await endSession(app.db, callerOf(app), app.state.appSession!.id);
  clearSessionCookie(app);
  ctx.status = 303;
  ctx.redirect('/app/sign-in');
});

router.get('/', signedIn as never, async (ctx) => {
  const app = ctx as AppContext;
  const caller = callerOf(app);
  const grants = await findContentGrantsCached(app.db, caller.id);
  const memberships = await listOrganizationsOfUser(app.db, caller.id, { limit: 100 });
  const organizations = await Promise.all(memberships.items.map(async ({ organization, role }) => ({ organization, spaces: await readableSpaces(app, organization.id, role, grants) })));
  sendPage(app, { title: 'Home', content: homeContent(organizations) });
});

router.get('/o/:organizationId', signedIn as never, policy(inOrganization('read')) as never, async (ctx) => {
  const app = ctx as AppContext;
  const { organization, role } = organizationOf(app);
  const spaces = await readableSpaces(app, organization.id, role, await findContentGrantsCached(app.db, callerOf(app).id));
  sendPage(app, { title: organization.title, content: organizationContent(organization, spaces) });
});

router.get('/s/:spaceId', signedIn as never, policy(inSpace(spaceActions.view)) as never, (ctx) => showSpace(ctx as AppContext, undefined));
router.get('/s/:spaceId/p/:pageId', signedIn as never, policy(inSpace(spaceActions.view)) as never, (ctx) => showSpace(ctx as AppContext, ctx.params.pageId));

// Every other path under /app: signed in first, then an honest page that the app doesn't show it yet.
router.get('/{*rest}', signedIn as never, async (ctx) => {
  sendPage(ctx as AppContext, { title: 'Not in the app yet', content: messageContent('Not in the app yet', 'This page of Quire is not in the web app yet: the API serves it.') }, 404);
});

async function readableSpaces(ctx: AppContext, organizationId: string, role: Parameters<typeof organizationAccess>[2], grants: Parameters<typeof organizationAccess>[3]): Promise<SpaceRecord[]> {
  const reachable = (await organizationAccess(ctx.db, organizationId, role, grants)).spaces;
  return (await listReachableSpaces(ctx.db, { organizationId }, { ids: [...reachable.keys()] }, { limit: 100 })).items;
}

async function showSpace(ctx: AppContext, pageId: string | undefined) {
  const { space } = spaceOf(ctx);
  const revision = await readSpaceRevision(contentDeps(ctx), space.id);
  const page = pageId ? revisionPage(revision, pageId, { accept: (candidate) => candidate.kind === 'document' }) : allPages(revision.pages).find((candidate) => candidate.kind === 'document');
  const document = page ? await readPageDocument(page) : undefined;
  const organization = await findOrganizationCached(ctx.db, space.organizationId);
  sendPage(ctx, { title: page?.title ?? space.title, content: await spaceContent(ctx, { space, organizationTitle: organization?.title ?? 'Organization', revision, page, document }) });
}

/** A refusal or a failure as a page of the app, with the status the API would answer. */
async function rendersErrors(ctx: AppContext, next: Koa.Next) {
  try {
    await next();
  } catch (error) {
    const http = toHttpError(error);
    if (!http) throw error;
    const title = http.status === 404 ? 'Not found' : http.status === 403 ? 'Not allowed' : 'Something is wrong';
    sendPage(ctx, { title, content: messageContent(title, http.message) }, http.status);
  }
}
