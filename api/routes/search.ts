import { groupByPage, refreshSearchIndex, searchPages, type PageHits } from '../../domain/spaces/index.js';
import { paginateArray } from '../../storage/pagination.js';
import { searchSections } from '../../storage/search.js';
import { organizationAccess } from '../../domain/organizations/index.js';
import { contentDeps, indexingDeps, organizationOf, siteReaderOf, spaceOf, type AppContext, grantsOf } from '../context.js';
import { inOrganization, inSite, inSpace } from '../policies/index.js';
import { siteActions } from '../policies/actions.js';
import { siteSpaceIdsForReader, type SiteSearchScope } from '../../domain/publishing/index.js';
import { siteOf } from '../../domain/sites/index.js';
import { findSpace } from '../../storage/spaces.js';
import { presentList } from '../presenters/list.js';
import { presentPageHits, presentSpaceHits } from '../presenters/search.js';
import * as schemas from '../schemas/search.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const searchRoutes = new RouteTable();
const routes = searchRoutes;

routes.get('/spaces/:spaceId/search', 'searchSpaceContent', inSpace('read'), handle({ query: schemas.search }, searchSpace));
routes.get('/orgs/:organizationId/search', 'searchOrganizationContent', inOrganization(null), handle({ query: schemas.search }, searchOrganization));
routes.post(
  '/orgs/:organizationId/sites/:siteId/search',
  'searchSiteContent',
  inSite(siteActions.view, { siteToken: 'read by POST' }),
  handle({ query: schemas.siteSearchQuery, body: schemas.siteSearch }, searchSite),
);
routes.post('/orgs/:organizationId/sites/:siteId/search/prewarm', 'prewarmSiteSearch', inSite(siteActions.view, { siteToken: 'read by POST' }), handle({}, prewarmSite));
routes.light('searchSpaceContent', 'searchOrganizationContent');

/** How many sections one search considers before grouping them by page. */
const sectionLimit = 2000;
/**
 * A site search's: a reader's search box shows the best few dozen hits, and every hit considered
 * costs an excerpt (2,000 made a search over 10,000 pages take 80 ms).
 */
const siteSectionLimit = 100;

/**
 * A visitor opened the site's search: the index of every site space they see is brought up to
 * their current revisions now, so the searches that follow only search. 204 once it is.
 */
async function prewarmSite(ctx: AppContext, { params }: { params: { siteId: string } }) {
  const site = await siteOf(ctx.db, organizationOf(ctx).organization.id, params.siteId);
  const spaceIds = await siteSpaceIdsForReader(ctx.db, site, await siteReaderOf(ctx), { mode: 'all' });
  await Promise.all(spaceIds.map((spaceId) => refreshSearchIndex(indexingDeps(ctx), spaceId)));
  ctx.status = 204;
}

/** Pages of the space's current revision that match every word, best first. */
async function searchSpace(ctx: AppContext, { query }: { query: schemas.SearchQuery }) {
  const { space } = spaceOf(ctx);
  const pages = await searchPages(contentDeps(ctx), [space.id], query.query, sectionLimit);
  const page = paginateArray(pages, (item) => [item.rank, item.pageId], `search:${space.id}:${query.query}`, query);
  ctx.body = presentList(page, (item) => presentPageHits(item, ctx.urls));
}

/** Page hits grouped by space, each group ranked by `rank` (given the space and how many groups came before it). */
function bySpace(pages: PageHits[], rank: (spaceId: string, seen: number) => number): Array<{ spaceId: string; rank: number; pages: PageHits[] }> {
  const groups = new Map<string, { spaceId: string; rank: number; pages: PageHits[] }>();
  for (const hits of pages) {
    const entry = groups.get(hits.spaceId) ?? { spaceId: hits.spaceId, rank: rank(hits.spaceId, groups.size), pages: [] };
    entry.pages.push(hits);
    groups.set(hits.spaceId, entry);
  }
  return [...groups.values()];
}

/** The scope a site search body names; the deprecated `mode` forms as the scope they stand for (`current`: the default scope from that site space). */
function scopeOf(body: schemas.SiteSearchBody): SiteSearchScope {
  if (body.scope) return body.scope as SiteSearchScope;
  if (body.mode === 'all') return { mode: 'all' };
  if (body.siteSpaceIds) return { mode: 'specific', siteSpaceIds: body.siteSpaceIds };
  return { mode: 'default', ...(body.siteSpaceId ? { currentSiteSpace: body.siteSpaceId } : {}) };
}

/**
 * The site's content that the caller sees, grouped by space in the site's order: a site token's
 * visitor, the site spaces its claims' conditions let through; a member, those of spaces they reach.
 */
async function searchSite(ctx: AppContext, { params, query, body }: { params: { siteId: string }; query: schemas.SiteSearchQuery; body: schemas.SiteSearchBody }) {
  const site = await siteOf(ctx.db, organizationOf(ctx).organization.id, params.siteId);
  const spaceIds = await siteSpaceIdsForReader(ctx.db, site, await siteReaderOf(ctx), scopeOf(body));
  const titles = new Map((await Promise.all(spaceIds.map((id) => findSpace(ctx.db, id)))).flatMap((space) => (space ? [[space.id, space.title] as const] : [])));
  await Promise.all(spaceIds.map((spaceId) => refreshSearchIndex(indexingDeps(ctx), spaceId)));
  const pages = groupByPage(await searchSections(ctx.db, spaceIds, body.query, siteSectionLimit));
  const order = new Map(spaceIds.map((id, index) => [id, index]));
  const page = paginateArray(
    bySpace(pages, (spaceId, seen) => order.get(spaceId) ?? seen),
    (item) => [item.rank, item.spaceId],
    `site-search:${site.id}:${body.query}:${spaceIds.join(',')}`,
    query,
  );
  ctx.body = presentList(page, (item) => presentSpaceHits({ id: item.spaceId, title: titles.get(item.spaceId) ?? '' }, item.pages, ctx.urls));
}

/**
 * The same across the spaces of the organization the caller reaches: a page of `limit` pages of the
 * ranking, grouped by space (0.202.0: a page's `rank` is its place in the whole ranking, "preserved
 * when results are paginated and grouped by space"). `count` is the pages found.
 */
async function searchOrganization(ctx: AppContext, { query }: { query: schemas.SearchQuery }) {
  const { organization, role } = organizationOf(ctx);
  const access = await organizationAccess(ctx.db, organization.id, role, await grantsOf(ctx));
  const spaceIds = [...access.spaces.keys()];
  const pages = await searchPages(contentDeps(ctx), spaceIds, query.query, sectionLimit);
  const page = paginateArray(pages, (item) => [item.rank, `${item.spaceId}:${item.pageId}`], `org-search:${organization.id}:${query.query}`, query);
  const spaces = bySpace(page.items, (_spaceId, seen) => seen);
  ctx.body = presentList({ ...page, items: spaces }, (item) => presentSpaceHits({ id: item.spaceId, title: access.spaces.get(item.spaceId)?.space.title ?? '' }, item.pages, ctx.urls));
}
