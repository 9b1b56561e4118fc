import { changeRequestOf, type ContentOperation, updateChangeRequestContent, readChangeRequestView, readChangeRequestRevision } from '../../domain/changeRequests/index.js';
import { paginateArray } from '../../storage/pagination.js';
import { callerOf, contentDeps, spaceOf, type AppContext } from '../context.js';
import { spaceActions } from '../policies/actions.js';
import { inSpace } from '../policies/index.js';
import { presentContentUpdate } from '../presenters/changeRequestContent.js';
import { presentList } from '../presenters/list.js';
import { presentFile, presentPage, presentPagesJson, presentReusableContent, presentRevisionJson, revisionView } from '../presenters/revision.js';
import * as schemas from '../schemas/changeRequestContent.js';
import * as spaceSchemas from '../schemas/spaces.js';
import { handle, type PathParams } from '../validate.js';
import { RouteTable } from './table.js';
import { presentChangeRequestView } from '../presenters/changeRequest.js';
import { pageMetaLinks, readPageDocuments, readStableMarkdowns, reusableContentOf, revisionFile, revisionPage, revisionPageAtPath } from '../../domain/spaces/index.js';
import { presentPageMetaLinks } from '../presenters/pageMetaLinks.js';

export const changeRequestContentRoutes = new RouteTable();
const routes = changeRequestContentRoutes;
const read = inSpace(spaceActions.view);
const base = '/spaces/:spaceId/change-requests/:changeRequestId';

routes.post(`${base}/content`, 'updateChangeRequestContent', inSpace(spaceActions.edit), handle({ query: schemas.updateContentQuery, body: schemas.updateContent }, updateContent));
routes.get(`${base}/content`, 'getRevisionOfChangeRequestById', read, handle({ query: spaceSchemas.contentQuery }, getRevision));
routes.get(`${base}/content/pages`, 'listPagesInChangeRequest', read, handle({ query: spaceSchemas.contentQuery }, listPages));
routes.get(`${base}/content/page/:pageId`, 'getPageInChangeRequestById', read, handle({ query: spaceSchemas.pageQuery }, getPage));
routes.get(`${base}/content/page/:pageId/meta-links`, 'listChangeRequestPageMetaLinks', read, handle({}, getPageMetaLinks));
routes.get(`${base}/content/path/*pagePath`, 'getPageInChangeRequestByPath', read, handle({ query: spaceSchemas.pageQuery }, getPageByPath));
routes.get(`${base}/content/files`, 'listFilesInChangeRequestById', read, handle({ query: spaceSchemas.filesQuery }, listFiles));
routes.get(`${base}/content/files/:fileId`, 'getFileInChangeRequestById', read, handle({ query: spaceSchemas.contentQuery }, getFile));
routes.get(`${base}/content/reusable-contents/:reusableContentId`, 'getReusableContentInChangeRequestById', read, handle({ query: spaceSchemas.contentQuery }, getReusableContent));

/** What every route of this file has in its path. */
type Params = PathParams<typeof base>;

/** The change request of the path, and its branch head ready to present. */
async function viewOf(ctx: AppContext, params: Params) {
  const { space } = spaceOf(ctx);
  const changeRequest = await changeRequestOf(contentDeps(ctx), space, params.changeRequestId);
  return { changeRequest, view: revisionView(space.id, await readChangeRequestRevision(contentDeps(ctx), changeRequest), ctx.urls) };
}

/** A batch of 1–50 changes as one commit on the change request's branch; `compat=false` also lists what it touched. */
async function updateContent(ctx: AppContext, { params, query, body }: { params: Params; query: schemas.UpdateContentQuery; body: schemas.UpdateContentBody }) {
  const { space } = spaceOf(ctx);
  const changeRequest = await changeRequestOf(contentDeps(ctx), space, params.changeRequestId);
  const update = await updateChangeRequestContent(contentDeps(ctx), { space, changeRequest, operations: body.changes as ContentOperation[], author: callerOf(ctx) });
  const presented = presentChangeRequestView(await readChangeRequestView(contentDeps(ctx), changeRequest), ctx.urls);
  ctx.body = query.compat
    ? presented
    : presentContentUpdate(presented, changeRequest, update, revisionView(space.id, await readChangeRequestRevision(contentDeps(ctx), changeRequest, update.commit), ctx.urls), ctx.urls);
}

async function getRevision(ctx: AppContext, { params }: { params: Params }) {
  const { view } = await viewOf(ctx, params);
  ctx.type = 'application/json';
  ctx.body = presentRevisionJson(view, 'markdown');
}

async function listPages(ctx: AppContext, { params }: { params: Params }) {
  const { view } = await viewOf(ctx, params);
  ctx.type = 'application/json';
  ctx.body = presentPagesJson(view, 'markdown');
}

async function getPage(ctx: AppContext, { params, query }: { params: Params & { pageId: string }; query: spaceSchemas.PageQuery }) {
  const { view } = await viewOf(ctx, params);
  const page = revisionPage(view.revision, params.pageId);
  ctx.body = presentPage(view, page, query.format, query.format === 'document' ? await readPageDocuments(page) : undefined, await stableMarkdowns(view.revision, page, query));
}

async function getPageByPath(ctx: AppContext, { params, query }: { params: Params & { pagePath: string }; query: spaceSchemas.PageQuery }) {
  const { view } = await viewOf(ctx, params);
  const wanted = params.pagePath.replace(/^\/+|\/+$/g, '');
  const page = revisionPageAtPath(view.revision, wanted);
  ctx.body = presentPage(view, page, query.format, query.format === 'document' ? await readPageDocuments(page) : undefined, await stableMarkdowns(view.revision, page, query));
}

async function listFiles(ctx: AppContext, { params, query }: { params: Params; query: spaceSchemas.FilesQuery }) {
  const { view } = await viewOf(ctx, params);
  const page = paginateArray(view.revision.files, (file) => [file.name, file.id], `files:${view.revision.commit}`, query);
  ctx.body = presentList(page, (file) => presentFile(view, file));
}

async function getFile(ctx: AppContext, { params }: { params: Params & { fileId: string } }) {
  const { view } = await viewOf(ctx, params);
  ctx.body = presentFile(view, revisionFile(view.revision, params.fileId));
}

async function getReusableContent(ctx: AppContext, { params }: { params: Params & { reusableContentId: string } }) {
  const { view } = await viewOf(ctx, params);
  ctx.body = presentReusableContent(reusableContentOf(view.revision, params.reusableContentId));
}

/** With `format.markdown.refs=stable`, the page's markdown naming content by id. */
const stableMarkdowns = (revision: Parameters<typeof readStableMarkdowns>[0], page: Parameters<typeof readStableMarkdowns>[1], query: spaceSchemas.PageQuery) =>
  query.format === 'markdown' && query['format.markdown.refs'] === 'stable' ? readStableMarkdowns(revision, page) : Promise.resolve(undefined);

/** The page's canonical and alternate links (its `meta-links`), on the change request's branch. */
async function getPageMetaLinks(ctx: AppContext, { params }: { params: Params & { pageId: string } }) {
  const { view } = await viewOf(ctx, params);
  const page = revisionPage(view.revision, params.pageId, { accept: (found) => found.kind !== 'link' });
  ctx.body = presentPageMetaLinks(pageMetaLinks(view.revision, page));
}
