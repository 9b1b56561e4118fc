import { refreshSearchIndex } from '../../domain/spaces/index.js';
import { paginateArray } from '../../storage/pagination.js';
import { searchSections } from '../../storage/search.js';
import { organizationAccess } from '../../domain/organizations/index.js';
import { contentDeps, organizationOf, spaceOf, type AppContext, grantsOf } from '../context.js';
import { inOrganization, inSpace } from '../policies/index.js';
import { presentList } from '../presenters/list.js';
import { groupByPage, presentPageHits } from '../presenters/search.js';
import * as schemas from '../schemas/search.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const searchRoutes = new RouteTable();
const routes = searchRoutes;

routes.get('/spaces/:spaceId/search', 'searchSpaceContent', inSpace('read'), handle({ query: schemas.search }, searchSpace));
routes.get('/orgs/:organizationId/search', 'searchOrganizationContent', inOrganization(null), handle({ query: schemas.search }, searchOrganization));

/** How many sections one search considers before grouping them by page. */
const sectionLimit = 2000;

/** Pages of the space's current revision that match every word, best first. */
async function searchSpace(ctx: AppContext, { query }: { query: schemas.SearchQuery }) {
  const { space } = spaceOf(ctx);
  await refreshSearchIndex(contentDeps(ctx), space.id);
  const pages = groupByPage(await searchSections(ctx.db, [space.id], query.query, sectionLimit));
  const page = paginateArray(pages, (item) => [item.rank, item.pageId], `search:${space.id}:${query.query}`, query);
  ctx.body = presentList(page, (item) => presentPageHits(item, ctx.urls));
}

/** The same across the spaces of the organization the caller reaches, grouped by space. */
async function searchOrganization(ctx: AppContext, { query }: { query: schemas.SearchQuery }) {
  const { organization, role } = organizationOf(ctx);
  const access = await organizationAccess(ctx.db, organization.id, role, await grantsOf(ctx));
  const spaceIds = [...access.spaces.keys()];
  await Promise.all(spaceIds.map((spaceId) => refreshSearchIndex(contentDeps(ctx), spaceId)));
  const pages = groupByPage(await searchSections(ctx.db, spaceIds, query.query, sectionLimit));
  const bySpace = new Map<string, { spaceId: string; rank: number; pages: typeof pages }>();
  for (const hits of pages) {
    const entry = bySpace.get(hits.spaceId) ?? { spaceId: hits.spaceId, rank: bySpace.size, pages: [] };
    entry.pages.push(hits);
    bySpace.set(hits.spaceId, entry);
  }
  const page = paginateArray([...bySpace.values()], (item) => [item.rank, item.spaceId], `search:${organization.id}:${query.query}`, query);
  ctx.body = presentList(page, (item) => ({
    id: item.spaceId,
    title: access.spaces.get(item.spaceId)?.space.title ?? '',
    pages: item.pages.map((hits) => presentPageHits(hits, ctx.urls)),
  }));
}
