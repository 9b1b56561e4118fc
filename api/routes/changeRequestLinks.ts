import { changeRequestOf, readChangeRequestRevision } from '../../domain/changeRequests/index.js';
import { paginateArray } from '../../storage/pagination.js';
import { contentDeps, spaceOf, type AppContext } from '../context.js';
import { spaceActions } from '../policies/actions.js';
import { inSpace } from '../policies/index.js';
import { presentRevisionChanges } from '../presenters/changeRequestChanges.js';
import { pageLocation, presentUsages, type LocationContext } from '../presenters/links.js';
import { presentList } from '../presenters/list.js';
import { presentOrganization } from '../presenters/organization.js';
import * as schemas from '../schemas/changeRequestContent.js';
import { handle, type PathParams } from '../validate.js';
import { RouteTable } from './table.js';
import { presentSpaceView } from '../presenters/space.js';
import { changesBetween, readSpaceView, revisionFile, revisionLinks, revisionPage } from '../../domain/spaces/index.js';
import { revisionView } from '../presenters/revision.js';

export const changeRequestLinkRoutes = new RouteTable();
const routes = changeRequestLinkRoutes;
const read = inSpace(spaceActions.view);
const base = '/spaces/:spaceId/change-requests/:changeRequestId';

routes.get(`${base}/content/page/:pageId/links`, 'listPageLinksInChangeRequest', read, handle({ query: schemas.listQuery }, listPageLinks));
routes.get(`${base}/content/page/:pageId/backlinks`, 'listChangeRequestPageBacklinks', read, handle({ query: schemas.listQuery }, listPageBacklinks));
routes.get(`${base}/content/files/:fileId/backlinks`, 'listChangeRequestFileBacklinks', read, handle({ query: schemas.listQuery }, listFileBacklinks));
routes.get(`${base}/changes`, 'getChangeRequestChanges', read, handle({ query: schemas.changesQuery }, getChanges));

/** What every route of this file has in its path. */
type Params = PathParams<typeof base>;

async function locationContext(ctx: AppContext, params: Params): Promise<LocationContext> {
  const { space, role, organizationRole } = spaceOf(ctx);
  const changeRequest = await changeRequestOf(contentDeps(ctx), space, params.changeRequestId);
  return {
    view: revisionView(space.id, await readChangeRequestRevision(contentDeps(ctx), changeRequest), ctx.urls),
    space: presentSpaceView(await readSpaceView(contentDeps(ctx), space), role, ctx.urls),
    organization: presentOrganization(ctx.state.organization!, organizationRole, ctx.urls),
    appPrefix: ctx.urls.app(''),
  };
}

/** The links written in a page of the change request, one usage per target. */
async function listPageLinks(ctx: AppContext, { params, query }: { params: Params & { pageId: string }; query: schemas.ListQuery }) {
  const context = await locationContext(ctx, params);
  const page = revisionPage(context.view.revision, params.pageId);
  const usages = presentUsages(
    context,
    (await revisionLinks(context.view.revision)).filter((use) => use.from.id === page.id),
  );
  const listed = paginateArray(usages, (usage) => [usage.rank, usage.key], `cr-page-links:${context.view.revision.commit}:${page.id}`, query);
  ctx.body = {
    ...presentList(listed, (usage) => usage.usage),
    stats: { total: usages.length, broken: { total: usages.filter((usage) => usage.status === 'broken').length, changeRequest: 0 } },
  };
}

/** The pages of the change request that link to a page (to it or to one of its anchors). */
async function listPageBacklinks(ctx: AppContext, { params, query }: { params: Params & { pageId: string }; query: schemas.ListQuery }) {
  const context = await locationContext(ctx, params);
  const page = revisionPage(context.view.revision, params.pageId);
  const linking = (await revisionLinks(context.view.revision)).filter((use) => (use.ref.kind === 'page' || use.ref.kind === 'anchor') && 'page' in use.ref && use.ref.page === page.id);
  const pages = [...new Map(linking.map((use) => [use.from.id, use.from])).values()];
  const listed = paginateArray(pages, (item) => [item.path, item.id], `cr-backlinks:${context.view.revision.commit}:${page.id}`, query);
  ctx.body = presentList(listed, (item) => pageLocation(context, item));
}

async function listFileBacklinks(ctx: AppContext, { params, query }: { params: Params & { fileId: string }; query: schemas.ListQuery }) {
  const context = await locationContext(ctx, params);
  const file = revisionFile(context.view.revision, params.fileId);
  const linking = (await revisionLinks(context.view.revision)).filter((use) => use.ref.kind === 'file' && use.ref.file === file.id);
  const pages = [...new Map(linking.map((use) => [use.from.id, use.from])).values()];
  const listed = paginateArray(pages, (item) => [item.path, item.id], `cr-file-backlinks:${context.view.revision.commit}:${file.id}`, query);
  ctx.body = presentList(listed, (item) => pageLocation(context, item));
}

/** Pages and files added, edited, moved or removed on the branch since its merge base. */
async function getChanges(ctx: AppContext, { params, query }: { params: Params; query: schemas.ChangesQuery }) {
  const { space } = spaceOf(ctx);
  const changeRequest = await changeRequestOf(contentDeps(ctx), space, params.changeRequestId);
  const mergeBase = changeRequest.revisionMergedAncestor ?? changeRequest.revisionInitial;
  const [base, head] = await Promise.all([readChangeRequestRevision(contentDeps(ctx), changeRequest, mergeBase), readChangeRequestRevision(contentDeps(ctx), changeRequest)]);
  const [baseView, headView] = [revisionView(space.id, base, ctx.urls), revisionView(space.id, head, ctx.urls)];
  ctx.body = presentRevisionChanges(changesBetween(baseView.revision, headView.revision), { base: baseView, head: headView }, query.limit);
}
