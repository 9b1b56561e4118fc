import { revisionLinks, type LinkUse } from '../../engine/pageLinks.js';
import { allPages } from '../../engine/allPages.js';
import { paginateArray } from '../../storage/pagination.js';
import { spaceOf, type AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { inSpace } from '../policies/index.js';
import { presentUsages, pageLocation, type LinkStatus, type LocationContext } from '../presenters/links.js';
import { presentList } from '../presenters/list.js';
import { presentOrganization } from '../presenters/organization.js';
import { pagination } from '../schemas/common.js';
import type { PageQuery } from '../schemas/common.js';
import { validate } from '../validate.js';
import { revisionOfPath } from './content.js';
import { present as presentSpace } from './spaces.js';
import { RouteTable } from './table.js';

export const linkRoutes = new RouteTable();
const routes = linkRoutes;

const linksQuery = {
  type: 'object',
  properties: { ...pagination, status: { enum: ['ok', 'broken', 'in-app'] } },
  additionalProperties: false,
} as const;
const backlinksQuery = { type: 'object', properties: { ...pagination }, additionalProperties: false } as const;

routes.get('/spaces/:spaceId/links', 'listSpaceLinks', inSpace('read'), validate({ query: linksQuery }), listSpaceLinks);
routes.get('/spaces/:spaceId/content/page/:pageId/links', 'listPageLinksInSpace', inSpace('read'), validate({ query: linksQuery }), listPageLinks);
routes.get('/spaces/:spaceId/content/files/:fileId/backlinks', 'listSpaceFileBacklinks', inSpace('read'), validate({ query: backlinksQuery }), listFileBacklinks);

async function locationContext(ctx: AppContext): Promise<LocationContext> {
  const { space, role, organizationRole } = spaceOf(ctx);
  const view = await revisionOfPath(ctx);
  return {
    view,
    space: await presentSpace(ctx, space, role),
    organization: presentOrganization(ctx.state.organization!, organizationRole, ctx.urls),
    appPrefix: ctx.urls.app(''),
  };
}

/** Usages of the links, one per target, filtered by `status`; `stats` counts them all. */
function presentLinkList(ctx: AppContext, context: LocationContext, uses: LinkUse[], identity: string) {
  const query = ctx.state.query as unknown as PageQuery & { status?: LinkStatus };
  const usages = presentUsages(context, uses);
  const shown = query.status ? usages.filter((usage) => usage.status === query.status) : usages;
  const page = paginateArray(shown, (usage) => [usage.rank, usage.key], `${identity}:${query.status ?? ''}`, query);
  return {
    ...presentList(page, (usage) => usage.usage),
    stats: { total: usages.length, broken: { total: usages.filter((usage) => usage.status === 'broken').length, changeRequest: 0 } },
  };
}

async function listSpaceLinks(ctx: AppContext) {
  const context = await locationContext(ctx);
  ctx.body = presentLinkList(ctx, context, revisionLinks(context.view.revision), `links:${context.view.revision.commit}`);
}

async function listPageLinks(ctx: AppContext) {
  const context = await locationContext(ctx);
  const page = allPages(context.view.revision.pages).find((candidate) => candidate.id === ctx.params.pageId);
  if (!page) throw notFound(`Page ${ctx.params.pageId} not found in revision ${context.view.revision.commit}`);
  const uses = revisionLinks(context.view.revision).filter((use) => use.from.id === page.id);
  ctx.body = presentLinkList(ctx, context, uses, `page-links:${context.view.revision.commit}:${page.id}`);
}

/** The pages that link to a file. */
async function listFileBacklinks(ctx: AppContext) {
  const context = await locationContext(ctx);
  const file = context.view.revision.files.find((candidate) => candidate.id === ctx.params.fileId);
  if (!file) throw notFound(`File ${ctx.params.fileId} not found in revision ${context.view.revision.commit}`);
  const pages = [
    ...new Map(
      revisionLinks(context.view.revision)
        .filter((use) => use.ref.kind === 'file' && use.ref.file === file.id)
        .map((use) => [use.from.id, use.from]),
    ).values(),
  ];
  const page = paginateArray(pages, (item) => [item.path, item.id], `backlinks:${context.view.revision.commit}:${file.id}`, ctx.state.query as unknown as PageQuery);
  ctx.body = presentList(page, (item) => pageLocation(context, item));
}
