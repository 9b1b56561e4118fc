import type { LinkUse } from '../../engine/index.js';
import { paginateArray } from '../../storage/pagination.js';
import { spaceOf, type AppContext, contentDeps } from '../context.js';
import { spaceActions } from '../policies/actions.js';
import { inSpace } from '../policies/index.js';
import { presentUsages, pageLocation, type LocationContext } from '../presenters/links.js';
import { presentList } from '../presenters/list.js';
import { presentOrganization } from '../presenters/organization.js';
import * as schemas from '../schemas/links.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';
import { presentSpaceView } from '../presenters/space.js';
import { revisionView } from '../presenters/revision.js';
import { readSpaceView, readRevisionWithSizes, revisionFile, revisionLinks, revisionPage } from '../../domain/spaces/index.js';

export const linkRoutes = new RouteTable();
const routes = linkRoutes;
const read = inSpace(spaceActions.view);

routes.get('/spaces/:spaceId/links', 'listSpaceLinks', read, handle({ query: schemas.linksQuery }, listSpaceLinks));
routes.get('/spaces/:spaceId/content/page/:pageId/links', 'listPageLinksInSpace', read, handle({ query: schemas.linksQuery }, listPageLinks));
routes.get('/spaces/:spaceId/content/files/:fileId/backlinks', 'listSpaceFileBacklinks', read, handle({ query: schemas.backlinksQuery }, listFileBacklinks));

async function locationContext(ctx: AppContext): Promise<LocationContext> {
  const { space, role, organizationRole } = spaceOf(ctx);
  const view = revisionView(space.id, await readRevisionWithSizes(contentDeps(ctx), space.id), ctx.urls);
  return {
    view,
    space: presentSpaceView(await readSpaceView(contentDeps(ctx), space), role, ctx.urls),
    organization: presentOrganization(ctx.state.organization!, organizationRole, ctx.urls),
    appPrefix: ctx.urls.app(''),
  };
}

/** Usages of the links, one per target, filtered by `status`; `stats` counts them all. */
function presentLinkList(context: LocationContext, uses: LinkUse[], identity: string, query: schemas.LinksQuery) {
  const usages = presentUsages(context, uses);
  const shown = query.status ? usages.filter((usage) => usage.status === query.status) : usages;
  const page = paginateArray(shown, (usage) => [usage.rank, usage.key], `${identity}:${query.status ?? ''}`, query);
  return {
    ...presentList(page, (usage) => usage.usage),
    stats: { total: usages.length, broken: { total: usages.filter((usage) => usage.status === 'broken').length, changeRequest: 0 } },
  };
}

async function listSpaceLinks(ctx: AppContext, { query }: { query: schemas.LinksQuery }) {
  const context = await locationContext(ctx);
  ctx.body = presentLinkList(context, await revisionLinks(context.view.revision), `links:${context.view.revision.commit}`, query);
}

async function listPageLinks(ctx: AppContext, { params, query }: { params: { pageId: string }; query: schemas.LinksQuery }) {
  const context = await locationContext(ctx);
  const page = revisionPage(context.view.revision, params.pageId);
  const uses = (await revisionLinks(context.view.revision)).filter((use) => use.from.id === page.id);
  ctx.body = presentLinkList(context, uses, `page-links:${context.view.revision.commit}:${page.id}`, query);
}

/** The pages that link to a file. */
async function listFileBacklinks(ctx: AppContext, { params, query }: { params: { fileId: string }; query: schemas.BacklinksQuery }) {
  const context = await locationContext(ctx);
  const file = revisionFile(context.view.revision, params.fileId);
  const pages = [...new Map((await revisionLinks(context.view.revision)).filter((use) => use.ref.kind === 'file' && use.ref.file === file.id).map((use) => [use.from.id, use.from])).values()];
  const page = paginateArray(pages, (item) => [item.path, item.id], `backlinks:${context.view.revision.commit}:${file.id}`, query);
  ctx.body = presentList(page, (item) => pageLocation(context, item));
}
