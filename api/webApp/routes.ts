import Router from '@koa/router';
import type Koa from 'koa';
import { changeOwnPassword, endSession, issueOwnToken, revokeOwnToken, sessionsOf, tokensOf } from '../../domain/accounts/index.js';
import { liveEditRefusal } from '../../domain/changeRequests/index.js';
import { DomainError } from '../../domain/common/errors.js';
import { organizationAccess } from '../../domain/organizations/index.js';
import { changesBetween, readPageDocument, readPageHistory, readSpaceHistory, readSpaceRevision, revisionPage } from '../../domain/spaces/index.js';
import { allPages } from '../../engine/index.js';
import { findContentGrantsCached } from '../../storage/contentGrants.js';
import { listInvitationsOfUser } from '../../storage/members.js';
import { listChangeRequests } from '../../storage/changeRequests.js';
import { readPeople } from '../../domain/common/people.js';
import { findOrganizationCached, listOrganizationsOfUser } from '../../storage/organizations.js';
import { actorOf, callerOf, collectionOf, contentDeps, organizationOf, pathParam, spaceOf, type AppContext, type AppServices, type AppState } from '../context.js';
import { toHttpError } from '../errors.js';
import { spaceActions } from '../policies/actions.js';
import { inCollection, inOrganization, inSpace } from '../policies/index.js';
import { atLeast } from '../policies/roles.js';
import { appScriptByName } from './appScripts.js';
import { appStyles, appStylesName } from './appStyles.js';
import { addAdminRoutes } from './adminRoutes.js';
import { addChangeRequestRoutes } from './changeRequestRoutes.js';
import { addEditorRoutes, liveEdited } from './editorRoutes.js';
import { checkedForm } from './forms.js';
import { signedIn } from './guards.js';
import { historyContent, revisionContent } from './historyPages.js';
import { sendPage } from './layout.js';
import { collectionContent, homeContent, messageContent, organizationContent, spaceContent, type ReadableContent } from './pages.js';
import { clearSessionCookie, readSession } from './sessionCookie.js';
import { settingsContent, type SettingsPage } from './settingsPage.js';
import { addSignInRoutes } from './signInRoutes.js';
import { addSiteRoutes } from './siteRoutes.js';
import { addOrganizationRoutes } from './organizationRoutes.js';
import { changedSources } from './sourceDiff.js';
import { editorBundleNamed, type EditorBundle } from './editorBundle.js';

/**
 * The web app under /app: pages built on the server as trees, working as plain HTML (links and
 * forms, no script). A page a signed-out person asks for sends them through sign-in and back. What
 * a person may see is decided by the API's own policies (inOrganization, inSpace), run here on the
 * session's user: the app holds no rule of its own.
 */
export const webAppRouter = new Router<AppState, AppServices>({ prefix: '/app' });
const router = webAppRouter;
router.use(readSession as never, rendersErrors as never);

router.get('/assets/:name', async (ctx) => {
  const name = pathParam(ctx as AppContext, 'name');
  const bundle = await editorBundleNamed(name);
  if (bundle) return sendEditorBundle(ctx as AppContext, bundle);
  const script = appScriptByName.get(name);
  if (name !== appStylesName && !script) return sendPage(ctx as AppContext, { title: 'Not found', content: messageContent('Not found', 'There is no such file.') }, 404);
  ctx.type = script ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8';
  ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
  ctx.body = script ?? appStyles;
});

/** An editor's script, gzipped for the browsers that take it (nearly all): the block editor's 114 KB rather than 360. */
function sendEditorBundle(ctx: AppContext, bundle: EditorBundle) {
  ctx.type = 'text/javascript; charset=utf-8';
  ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
  ctx.vary('Accept-Encoding');
  const gzip = ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
  if (gzip) ctx.set('Content-Encoding', 'gzip');
  ctx.body = gzip ? bundle.gzipped : bundle.body;
}

addSignInRoutes(router);
addChangeRequestRoutes(router);
// A live space's own pages, edited directly (its pages at /s/:spaceId/p/:pageId read them).
addEditorRoutes(router, '/s/:spaceId', liveEdited);
addAdminRoutes(router);
addSiteRoutes(router);
addOrganizationRoutes(router);

router.post('/sign-out', signedIn as never, async (ctx) => {
  const app = ctx as AppContext;
  await checkedForm(app);
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
  const organizations = await Promise.all(memberships.items.map(async ({ organization, role }) => ({ organization, content: await readableContent(app, organization.id, role, grants) })));
  const invited = await Promise.all((await listInvitationsOfUser(app.db, caller.id)).map((invitation) => findOrganizationCached(app.db, invitation.organizationId)));
  // The open change requests of every space the person can read, newest first.
  const spaces = new Map(organizations.flatMap(({ content }) => content.spaces.map((space) => [space.id, space] as const)));
  const open = spaces.size ? (await listChangeRequests(app.db, { spaceIds: [...spaces.keys()] }, { status: 'open' }, { limit: 10, order: 'desc' })).items : [];
  const people = await readPeople(
    app.db,
    open.map((changeRequest) => changeRequest.createdBy),
  );
  const recent = open.map((changeRequest) => ({ changeRequest, space: spaces.get(changeRequest.spaceId)!, creator: people(changeRequest.createdBy) }));
  const invitations = invited.filter((organization) => organization !== undefined);
  sendPage(app, { title: 'Home', content: homeContent(app, organizations, invitations, recent) });
});

// Guests too (role null): they see the spaces shared with them, as on the home page.
router.get('/o/:organizationId', signedIn as never, inOrganization(null).check as never, async (ctx) => {
  const app = ctx as AppContext;
  const { organization, role } = organizationOf(app);
  const content = await readableContent(app, organization.id, role, await findContentGrantsCached(app.db, callerOf(app).id));
  sendPage(app, { title: organization.title, content: organizationContent(organization, content, atLeast(role, 'admin')) });
});

router.get('/c/:collectionId', signedIn as never, inCollection('read').check as never, async (ctx) => {
  const app = ctx as AppContext;
  const { collection, organizationRole } = collectionOf(app);
  const organization = (await findOrganizationCached(app.db, collection.organizationId))!;
  const content = await readableContent(app, organization.id, organizationRole, await findContentGrantsCached(app.db, callerOf(app).id));
  sendPage(app, { title: collection.title || 'Collection', content: collectionContent(organization, collection, content) });
});
router.get('/s/:spaceId', signedIn as never, inSpace(spaceActions.view).check as never, (ctx) => showSpace(ctx as AppContext, undefined));
router.get('/s/:spaceId/p/:pageId', signedIn as never, inSpace(spaceActions.view).check as never, (ctx) => showSpace(ctx as AppContext, ctx.params.pageId));

router.get('/settings', signedIn as never, (ctx) => showSettings(ctx as AppContext, {}));
router.post('/settings/tokens', signedIn as never, async (ctx) => {
  const app = ctx as AppContext;
  const form = await checkedForm(app);
  const label = form.get('label') ?? '';
  try {
    const value = await issueOwnToken(app.db, actorOf(app), callerOf(app), label);
    await showSettings(app, { newToken: { label: label.trim(), value } }, 201);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    await showSettings(app, { problem: error.message }, toHttpError(error)?.status ?? 400);
  }
});
router.post('/settings/tokens/revoke', signedIn as never, (ctx) => ownThingEnded(ctx as AppContext, (db, user, id) => revokeOwnToken(db, actorOf(ctx as AppContext), user, id)));
router.post('/settings/sessions/end', signedIn as never, (ctx) => ownThingEnded(ctx as AppContext, endSession));
router.post('/settings/password', signedIn as never, async (ctx) => {
  const app = ctx as AppContext;
  const form = await checkedForm(app);
  try {
    await changeOwnPassword(app.db, callerOf(app), { current: form.get('current') ?? '', next: form.get('next') ?? '', session: app.state.appSession!.id });
    await showSettings(app, { notice: 'Password changed: every other browser is signed out.' });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    await showSettings(app, { problem: error.message }, toHttpError(error)?.status ?? 400);
  }
});

router.get('/s/:spaceId/history', signedIn as never, inSpace(spaceActions.view).check as never, async (ctx) => {
  const app = ctx as AppContext;
  const { space } = spaceOf(app);
  const from = typeof ctx.query.from === 'string' && /^[0-9a-f]{40}$/.test(ctx.query.from) ? ctx.query.from : undefined;
  const history = await readSpaceHistory(contentDeps(app), space.id, { limit: 50, ...(from ? { from } : {}) });
  sendPage(app, { title: 'History', content: historyContent(space, history) });
});
router.get('/s/:spaceId/p/:pageId/history', signedIn as never, inSpace(spaceActions.view).check as never, async (ctx) => {
  const app = ctx as AppContext;
  const { space } = spaceOf(app);
  const from = typeof ctx.query.from === 'string' && /^[0-9a-f]{40}$/.test(ctx.query.from) ? ctx.query.from : undefined;
  const { page, history } = await readPageHistory(contentDeps(app), space.id, pathParam(app, 'pageId'), { limit: 50, ...(from ? { from } : {}) });
  sendPage(app, { title: `History of ${page.title}`, content: historyContent(space, history, { id: page.id, title: page.title }) });
});
router.get('/s/:spaceId/r/:revisionId', signedIn as never, inSpace(spaceActions.view).check as never, async (ctx) => {
  const app = ctx as AppContext;
  const { space } = spaceOf(app);
  const revision = await readSpaceRevision(contentDeps(app), space.id, pathParam(app, 'revisionId'));
  const parent = revision.parents[0] ? await readSpaceRevision(contentDeps(app), space.id, revision.parents[0]) : undefined;
  const changes = parent ? changesBetween(parent, revision) : { pages: [], files: [] };
  const [entry] = (await readSpaceHistory(contentDeps(app), space.id, { limit: 1, from: revision.commit })).entries;
  sendPage(app, {
    title: revision.message.split('\n')[0] || 'Revision',
    content: revisionContent(space, { revision, author: entry!.author, changes, sources: parent ? changedSources(parent, revision, changes.pages) : new Map() }),
  });
});

// Every other path under /app: signed in first, then an honest page that the app doesn't show it yet.
router.get('/{*rest}', signedIn as never, async (ctx) => {
  sendPage(ctx as AppContext, { title: 'Not in the app yet', content: messageContent('Not in the app yet', 'This page of Quire is not in the web app yet: the API serves it.') }, 404);
});

/** A settings form that ends one of the person's own things (a token, a session) by its id, then back to the settings. */
async function ownThingEnded(ctx: AppContext, end: (db: AppContext['db'], user: ReturnType<typeof callerOf>, id: string) => Promise<unknown>) {
  const form = await checkedForm(ctx);
  await end(ctx.db, callerOf(ctx), form.get('id') ?? '');
  ctx.status = 303;
  ctx.redirect('/app/settings');
}

async function showSettings(ctx: AppContext, extra: Omit<SettingsPage, 'tokens' | 'sessions'>, status = 200) {
  const caller = callerOf(ctx);
  const [tokens, sessions] = await Promise.all([tokensOf(ctx.db, caller), sessionsOf(ctx.db, caller)]);
  sendPage(ctx, { title: 'Settings', content: settingsContent(ctx, { tokens, sessions, ...extra }) }, status);
}

/** The spaces and collections of the organization the person can read, by the rules the API lists them with (organizationAccess). */
async function readableContent(ctx: AppContext, organizationId: string, role: Parameters<typeof organizationAccess>[2], grants: Parameters<typeof organizationAccess>[3]): Promise<ReadableContent> {
  const access = await organizationAccess(ctx.db, organizationId, role, grants);
  return { spaces: [...access.spaces.values()].map(({ space }) => space), collections: [...access.collections.values()].map(({ collection }) => collection) };
}

async function showSpace(ctx: AppContext, pageId: string | undefined) {
  const { space } = spaceOf(ctx);
  const revision = await readSpaceRevision(contentDeps(ctx), space.id);
  const page = pageId ? revisionPage(revision, pageId, { accept: (candidate) => candidate.kind === 'document' }) : allPages(revision.pages).find((candidate) => candidate.kind === 'document');
  const document = page ? await readPageDocument(page) : undefined;
  const organization = await findOrganizationCached(ctx.db, space.organizationId);
  const editable = atLeast(spaceOf(ctx).role, spaceActions.edit) && (await liveEditRefusal(contentDeps(ctx), space, callerOf(ctx))) === null;
  sendPage(ctx, { title: page?.title ?? space.title, content: await spaceContent(ctx, { space, organizationTitle: organization?.title ?? 'Organization', revision, page, document, editable }) });
}

/** A refusal or a failure as a page of the app, with the status the API would answer. */
async function rendersErrors(ctx: AppContext, next: Koa.Next) {
  try {
    await next();
  } catch (error) {
    const http = toHttpError(error);
    if (!http) throw error;
    // The editor's saves ask for JSON: the API's error body.
    if (/^application\/json\b/.test(ctx.get('accept'))) {
      ctx.status = http.status;
      ctx.body = { error: { code: http.status, message: http.message } };
      return;
    }
    const title = http.status === 404 ? 'Not found' : http.status === 403 ? 'Not allowed' : 'Something is wrong';
    sendPage(ctx, { title, content: messageContent(title, http.message) }, http.status);
  }
}
