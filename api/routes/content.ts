import { commitChanges } from '../../engine/commitChanges.js';
import { fileSizes, findPageById, findPageByPath, isCommit, listPaths, readFileBytes, readRevision } from '../../engine/readRevision.js';
import { primaryBranch, readBranch } from '../../engine/repository.js';
import { openSpaceRepository } from '../../engine/spaceRepositories.js';
import { findTemplate, templateChanges } from '../../engine/templates.js';
import { paginateArray } from '../../storage/pagination.js';
import { authorOf } from '../commands/spaces.js';
import { refreshSearchIndex } from '../commands/searchIndex.js';
import { callerOf, spaceOf, type AppContext } from '../context.js';
import { HttpError, badRequest, notFound } from '../errors.js';
import { inSpace } from '../policies/index.js';
import { presentList } from '../presenters/list.js';
import { presentFile, presentPage, presentPagesJson, presentRevisionJson, revisionView, type PageFormat, type RevisionView } from '../presenters/revision.js';
import type { PageQuery } from '../schemas/common.js';
import * as schemas from '../schemas/spaces.js';
import { validate } from '../validate.js';
import { JsonCache } from '../jsonCache.js';
import { RouteTable } from './table.js';

export const contentRoutes = new RouteTable();
const routes = contentRoutes;
const read = inSpace('read');

routes.get('/spaces/:spaceId/content', 'getCurrentRevision', read, validate({ query: schemas.contentQuery }), getRevision);
routes.get('/spaces/:spaceId/content/pages', 'listPages', read, validate({ query: schemas.contentQuery }), listPages);
routes.get('/spaces/:spaceId/content/page/:pageId', 'getPageById', read, validate({ query: schemas.pageQuery }), getPage);
routes.get('/spaces/:spaceId/content/path/*pagePath', 'getPageByPath', read, validate({ query: schemas.pageQuery }), getPageByPath);
routes.get('/spaces/:spaceId/content/files', 'listFiles', read, validate({ query: schemas.filesQuery }), listFiles);
routes.get('/spaces/:spaceId/content/files/:fileId', 'getFileById', read, validate({ query: schemas.contentQuery }), getFile);
routes.get('/spaces/:spaceId/revisions/:revisionId', 'getRevisionById', read, validate({ query: schemas.contentQuery }), getRevision);
routes.get('/spaces/:spaceId/revisions/:revisionId/pages', 'listPagesInRevisionById', read, validate({ query: schemas.contentQuery }), listPages);
routes.get('/spaces/:spaceId/revisions/:revisionId/page/:pageId', 'getPageInRevisionById', read, validate({ query: schemas.pageQuery }), getPage);
routes.get('/spaces/:spaceId/revisions/:revisionId/files', 'listFilesInRevisionById', read, validate({ query: schemas.filesQuery }), listFiles);
routes.get('/spaces/:spaceId/revisions/:revisionId/files/:fileId', 'getFileInRevisionById', read, validate({ query: schemas.contentQuery }), getFile);
routes.get('/spaces/:spaceId/revisions/:revisionId/files/:fileId/download', 'quire:downloadFile', read, download);
routes.post('/spaces/:spaceId/content/template', 'applyTemplateToSpace', inSpace('edit'), validate({ body: schemas.applyTemplate }), applyTemplate);

/** The revision of the path (`revisionId`), or the space's current one; a commit of this space only. */
export async function revisionOfPath(ctx: AppContext): Promise<RevisionView> {
  const { space } = spaceOf(ctx);
  const repo = openSpaceRepository(ctx.config.dataDir, space.id);
  let commit = ctx.params.revisionId;
  if (commit === undefined) commit = (await readBranch(repo, primaryBranch)) ?? '';
  else if (!/^[0-9a-f]{40}$/.test(commit) || !(await isCommit(repo, commit))) throw notFound(`Revision ${commit} not found in space ${space.id}`);
  const revision = await readRevision(repo, commit);
  return revisionView(space.id, revision, ctx.urls, await fileSizes(repo, revision.files));
}

const formatOf = (ctx: AppContext) => (ctx.state.query.format as PageFormat | undefined) ?? 'markdown';

// What is presented from a commit never changes: its JSON is kept, up to 128 MB.
const presented = new JsonCache(128 * 1024 * 1024);

/** Answers with JSON built once per commit (and `what`), then served from the cache. */
function sendPresented(ctx: AppContext, view: RevisionView, what: string, build: () => unknown) {
  ctx.type = 'application/json';
  ctx.body = presented.get(`${view.spaceId}:${view.revision.commit}:${what}`, build);
}

async function getRevision(ctx: AppContext) {
  const view = await revisionOfPath(ctx);
  sendPresented(ctx, view, 'revision', () => presentRevisionJson(view, 'markdown'));
}

async function listPages(ctx: AppContext) {
  const view = await revisionOfPath(ctx);
  sendPresented(ctx, view, 'pages', () => presentPagesJson(view, 'markdown'));
}

async function getPage(ctx: AppContext) {
  const view = await revisionOfPath(ctx);
  const page = findPageById(view.revision, ctx.params.pageId ?? '');
  if (!page) throw notFound(`Page ${ctx.params.pageId} not found in revision ${view.revision.commit}`);
  const format = formatOf(ctx);
  sendPresented(ctx, view, `page:${page.id}:${format}`, () => presentPage(view, page, format));
}

/** A document or group page by its path (`guides/install`); links have no path to find them by. */
async function getPageByPath(ctx: AppContext) {
  const view = await revisionOfPath(ctx);
  const wanted = (ctx.params.pagePath ?? '').replace(/^\/+|\/+$/g, ''); // the router has decoded it (`%2F` or `/`)
  const page = findPageByPath(view.revision, wanted);
  if (!page) throw notFound(`Page at path "${wanted}" not found in revision ${view.revision.commit}`);
  const format = formatOf(ctx);
  sendPresented(ctx, view, `page:${page.id}:${format}`, () => presentPage(view, page, format));
}

async function listFiles(ctx: AppContext) {
  const view = await revisionOfPath(ctx);
  const page = paginateArray(view.revision.files, (file) => [file.name, file.id], `files:${view.revision.commit}`, ctx.state.query as unknown as PageQuery);
  ctx.body = presentList(page, (file) => presentFile(view, file));
}

function fileOfPath(view: RevisionView, fileId: string | undefined) {
  const file = view.revision.files.find((candidate) => candidate.id === fileId);
  if (!file) throw notFound(`File ${fileId} not found in revision ${view.revision.commit}`);
  return file;
}

async function getFile(ctx: AppContext) {
  const view = await revisionOfPath(ctx);
  ctx.body = presentFile(view, fileOfPath(view, ctx.params.fileId));
}

/** A file's bytes, with its content type: what `downloadURL` points at. */
async function download(ctx: AppContext) {
  const { space } = spaceOf(ctx);
  const view = await revisionOfPath(ctx);
  const file = fileOfPath(view, ctx.params.fileId);
  ctx.set('Cache-Control', 'private, max-age=31536000, immutable');
  ctx.type = presentFile(view, file).contentType;
  ctx.body = Buffer.from(await readFileBytes(openSpaceRepository(ctx.config.dataDir, space.id), file.oid));
}

/**
 * Replaces the space's content with a built-in template's, as one new commit on the primary
 * branch (201). Change requests arrive with their own issue: until then none can be named.
 */
async function applyTemplate(ctx: AppContext) {
  const { space } = spaceOf(ctx);
  if (space.editMode === 'locked') throw new HttpError(423, `Space ${space.id} is locked: unlock it (editMode "live") to change its content`);
  const body = ctx.request.body as { id: string; changeRequestId?: string };
  if (body.changeRequestId) throw notFound(`Change request ${body.changeRequestId} not found in space ${space.id}`);
  const template = findTemplate(body.id);
  if (!template) throw badRequest(`Unknown template "${body.id}"`);
  const repo = openSpaceRepository(ctx.config.dataDir, space.id);
  const head = await readBranch(repo, primaryBranch);
  const existing = head ? await listPaths(repo, head) : [];
  const added = templateChanges(template);
  const addedPaths = new Set(added.map((change) => change.path));
  await commitChanges({
    repo,
    branch: primaryBranch,
    base: head,
    changes: [...existing.filter((path) => !addedPaths.has(path)).map((path) => ({ path, remove: true as const })), ...added],
    message: `Apply the ${template.title} template`,
    author: authorOf(callerOf(ctx)),
  });
  void refreshSearchIndex({ db: ctx.db, dataDir: ctx.config.dataDir }, space.id);
  ctx.status = 201;
  ctx.body = ''; // no content, as upstream: Koa would otherwise write the status text
}
