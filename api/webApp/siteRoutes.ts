import type Router from '@koa/router';
import { organizationAccess } from '../../domain/organizations/index.js';
import { mintSitePreview } from '../../domain/publishing/index.js';
import {
  addSection,
  addSiteSpace,
  changeShareLink,
  createShareLink,
  customizationOfDraft,
  draftOfCustomization,
  orderedSections,
  removeSection,
  removeShareLink,
  removeSiteSpace,
  saveCustomizationDraft,
  setSitePublished,
  siteCustomization,
  siteOf,
  updateSiteSettings,
  type CustomizationDraft,
} from '../../domain/sites/index.js';
import { findContentGrantsCached } from '../../storage/contentGrants.js';
import { loadSiteStructureCached } from '../../storage/siteStructure.js';
import { listShareLinks, listSites, siteVisibilities, type SiteRecord, type SiteVisibility } from '../../storage/sites.js';
import { actorOf, callerOf, contentDeps, organizationOf, pathParam, type AppContext, type AppServices, type AppState } from '../context.js';
import { badRequest, toHttpError } from '../errors.js';
import { siteActions } from '../policies/actions.js';
import { inOrganization } from '../policies/index.js';
import { atLeast } from '../policies/roles.js';
import { appScripts } from './appScripts.js';
import { checkedForm } from './forms.js';
import { signedIn } from './guards.js';
import { sendPage } from './layout.js';
import { siteInsightsSummary } from '../../domain/insights/index.js';
import { listSiteQuestions } from '../../domain/answers/index.js';
import { noticeOf, type Notice } from './notices.js';
import { sitePath } from './paths.js';
import { siteContent, sitesContent, type SitePage } from './sitePages.js';

const sites = '/o/:organizationId/sites';
const one = `${sites}/:siteId`;
const guarded = (role: Parameters<typeof inOrganization>[0]) => [signedIn, inOrganization(role).check] as never[];

/**
 * An organization's docs sites in the app: the list, and one site with its settings, share links,
 * content and look (a live preview of its customization). Each form runs the policy of the API's
 * operation for the same thing, then the same domain command.
 */
export function addSiteRoutes(router: Router<AppState, AppServices>): void {
  router.get(sites, ...guarded(siteActions.view), async (ctx) => {
    const app = ctx as AppContext;
    const { organization } = organizationOf(app);
    const found = await listSites(app.db, organization.id, {}, { limit: 100 });
    sendPage(app, { title: 'Docs sites', content: sitesContent(organization, found.items) });
  });
  router.get(one, ...guarded(siteActions.view), (ctx) => showSite(ctx as AppContext, { notice: noticeOf(ctx as AppContext) }));

  for (const verb of ['publish', 'unpublish'] as const) {
    router.post(`${one}/${verb}`, ...guarded(siteActions.admin), (ctx) =>
      acting(ctx as AppContext, async (_form, site) => {
        await setSitePublished(contentDeps(ctx as AppContext), actorOf(ctx as AppContext), site, verb === 'publish');
        return verb === 'publish' ? 'published' : 'unpublished';
      }),
    );
  }
  router.post(`${one}/settings`, ...guarded(siteActions.admin), (ctx) =>
    acting(ctx as AppContext, async (form, site) => {
      const title = (form.get('title') ?? '').trim();
      if (!title || title.length > 50) throw badRequest('"title" has 1 to 50 characters');
      const visibility = form.get('visibility') ?? '';
      if (!(siteVisibilities as readonly string[]).includes(visibility)) throw badRequest(`"visibility" is one of ${siteVisibilities.join(', ')}`);
      await updateSiteSettings(contentDeps(ctx as AppContext), actorOf(ctx as AppContext), site, { title, visibility: visibility as SiteVisibility });
      return 'settings-saved';
    }),
  );
  router.post(`${one}/share-links`, ...guarded(siteActions.admin), (ctx) =>
    acting(ctx as AppContext, async (form, site) => {
      const name = (form.get('name') ?? '').trim();
      if (!name || name.length > 100) throw badRequest('A share link’s name has 1 to 100 characters');
      await createShareLink((ctx as AppContext).db, site.id, name);
      return 'share-link-created';
    }),
  );
  router.post(`${one}/share-links/toggle`, ...guarded(siteActions.admin), (ctx) =>
    acting(ctx as AppContext, async (form, site) => {
      await changeShareLink((ctx as AppContext).db, site.id, form.get('id') ?? '', { active: form.get('active') === 'true' });
      return form.get('active') === 'true' ? 'share-link-active' : 'share-link-inactive';
    }),
  );
  router.post(`${one}/share-links/delete`, ...guarded(siteActions.admin), (ctx) =>
    acting(ctx as AppContext, async (form, site) => {
      await removeShareLink((ctx as AppContext).db, site.id, form.get('id') ?? '');
      return 'share-link-deleted';
    }),
  );
  router.post(`${one}/site-spaces`, ...guarded(siteActions.edit), (ctx) =>
    acting(ctx as AppContext, async (form, site) => {
      await addSiteSpace(contentDeps(ctx as AppContext), site, { spaceId: form.get('space') ?? '' }, callerOf(ctx as AppContext).id);
      return 'space-added';
    }),
  );
  router.post(`${one}/site-spaces/remove`, ...guarded(siteActions.edit), (ctx) =>
    acting(ctx as AppContext, async (form, site) => {
      await removeSiteSpace(contentDeps(ctx as AppContext), site, form.get('id') ?? '');
      return 'space-removed';
    }),
  );
  router.post(`${one}/sections`, ...guarded(siteActions.edit), (ctx) =>
    acting(ctx as AppContext, async (form, site) => {
      await addSection(contentDeps(ctx as AppContext), site, { spaceId: form.get('space') ?? '' }, callerOf(ctx as AppContext).id);
      return 'section-added';
    }),
  );
  router.post(`${one}/sections/remove`, ...guarded(siteActions.edit), (ctx) =>
    acting(ctx as AppContext, async (form, site) => {
      await removeSection(contentDeps(ctx as AppContext), site, form.get('id') ?? '');
      return 'section-removed';
    }),
  );
  router.post(`${one}/customization`, ...guarded(siteActions.edit), (ctx) =>
    acting(ctx as AppContext, async (form, site) => {
      await saveCustomizationDraft(contentDeps(ctx as AppContext), site, draftOf(form));
      return 'look-saved';
    }),
  );
  // The draft shown, not saved: JSON (a preview URL) for the live preview's script, else the page with the draft in its preview.
  router.post(`${one}/preview`, ...guarded(siteActions.edit), async (ctx) => {
    const app = ctx as AppContext;
    const form = await checkedForm(app);
    const site = await theSite(app);
    const draft = draftOf(form);
    try {
      const url = await previewUrl(app, site, draft);
      if (ctx.accepts('html', 'json') === 'json') {
        ctx.body = { url };
        return;
      }
      await showSite(app, { draft, notice: 'Preview of what you chose: not saved yet.' });
    } catch (error) {
      const http = toHttpError(error);
      if (!http || http.status >= 500) throw error;
      if (ctx.accepts('html', 'json') === 'json') throw error;
      await showSite(app, { problem: http.message }, http.status);
    }
  });
}

const theSite = (ctx: AppContext) => siteOf(ctx.db, organizationOf(ctx).organization.id, pathParam(ctx, 'siteId'));

const draftOf = (form: URLSearchParams): CustomizationDraft => ({
  title: form.get('title') ?? '',
  theme: form.get('theme') ?? '',
  primaryLight: form.get('primaryLight') ?? '',
  primaryDark: form.get('primaryDark') ?? '',
  defaultMode: form.get('defaultMode') ?? '',
});

/** A preview of the site (an hour) showing the draft over its saved customization, as a path of this host. */
async function previewUrl(ctx: AppContext, site: SiteRecord, draft: CustomizationDraft | undefined): Promise<string> {
  const { key, segments } = await mintSitePreview(contentDeps(ctx), site, undefined, draft ? customizationOfDraft(draft) : undefined);
  return `/sites/${site.id}/${segments.map((segment) => `${encodeURIComponent(segment)}/`).join('')}?preview=${encodeURIComponent(key)}`;
}

/** A form of the site's page: checked, done, then back to the page saying what happened (or the page, saying why not, with the API's status). */
async function acting(ctx: AppContext, act: (form: URLSearchParams, site: SiteRecord) => Promise<Notice>) {
  const form = await checkedForm(ctx);
  try {
    const site = await theSite(ctx);
    const done = await act(form, site);
    ctx.status = 303;
    ctx.redirect(`${sitePath(site.organizationId, site.id)}?done=${done}`);
  } catch (error) {
    const http = toHttpError(error);
    if (!http || http.status >= 500) throw error;
    await showSite(ctx, { problem: http.message }, http.status);
  }
}

/** How far back the site page's readers' figures and questions go. */
const insightDays = 30;

async function showSite(ctx: AppContext, extra: { draft?: CustomizationDraft; notice?: string; problem?: string }, status = 200) {
  const { organization, role } = organizationOf(ctx);
  const site = await theSite(ctx);
  const may = { admin: atLeast(role, siteActions.admin), edit: atLeast(role, siteActions.edit) };
  const base = `${ctx.protocol}://${ctx.host}`;
  const publishedUrl = new URL(`/sites/${site.id}/`, base).toString();
  await ctx.insights.flush();
  const [structure, shareLinks, access, saved, insights, questions] = await Promise.all([
    loadSiteStructureCached(ctx.db, site.id).then((structure) => structure!),
    may.admin ? listShareLinks(ctx.db, site.id, { limit: 100 }) : undefined,
    may.edit ? organizationAccess(ctx.db, organization.id, role, await findContentGrantsCached(ctx.db, callerOf(ctx).id)) : undefined,
    siteCustomization(contentDeps(ctx), site),
    siteInsightsSummary(ctx.db, site.id, insightDays),
    listSiteQuestions(ctx.db, site.id, { from: new Date(Date.now() - insightDays * 86_400_000).toISOString(), sort: 'stats.answers' }, { limit: 10, order: 'desc' }),
  ]);
  const spaces = access ? [...access.spaces.values()].map(({ space }) => space) : [];
  const titleOf = (spaceId: string) => spaces.find((space) => space.id === spaceId)?.title ?? 'A space you can’t read';
  const shown = (sectionId: string | null) =>
    structure.siteSpaces.filter((siteSpace) => siteSpace.sectionId === sectionId).map((siteSpace) => ({ id: siteSpace.id, title: titleOf(siteSpace.spaceId), path: siteSpace.path }));
  const sections = orderedSections(structure);
  const draft = extra.draft ?? draftOfCustomization(saved, site.title);
  const page: SitePage = {
    organization,
    site,
    publishedUrl,
    shareLinks: (shareLinks?.items ?? []).map((link) => ({ link, url: `${publishedUrl}?share=${encodeURIComponent(link.key)}` })),
    structure: [
      ...(structure.siteSpaces.some((siteSpace) => siteSpace.sectionId === null) ? [{ siteSpaces: shown(null) }] : []),
      ...sections.map((section) => ({ section: { id: section.id, title: section.title }, siteSpaces: shown(section.id) })),
    ],
    addable: spaces.filter((space) => !structure.siteSpaces.some((siteSpace) => siteSpace.spaceId === space.id)),
    draft,
    previewUrl: await previewUrl(ctx, site, extra.draft ? draft : undefined),
    may,
    insights,
    questions: questions.items,
    ...(extra.notice ? { notice: extra.notice } : {}),
    ...(extra.problem ? { problem: extra.problem } : {}),
  };
  sendPage(ctx, { title: site.title || 'Site', content: siteContent(ctx, page), ...(may.edit ? { scripts: [appScripts.livePreview.name] } : {}) }, status);
}
