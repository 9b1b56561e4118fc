import type { RevisionPage } from '../../engine/index.js';
import {
  applyTemplate,
  dereferenceReusableContents,
  documentSourceOf,
  pageMetaLinks,
  readParentRevisionWithSizes,
  readRevisionWithSizes,
  readStableMarkdowns,
  readReusableContentDocument,
  readSpaceFile,
  readPageDocuments,
  readPageDocument,
  reusableContentOf,
  builtInTemplate,
  changesBetween,
  revisionFile,
  revisionPage,
  revisionPageAtPath,
} from '../../domain/spaces/index.js';
import { applyTemplateToChangeRequestById } from '../../domain/changeRequests/index.js';
import { computeDocument, computeRevision, type ComputedRevisionSource } from '../../domain/openapi/index.js';
import { paginateArray } from '../../storage/pagination.js';
import { callerOf, contentDeps, spaceOf, type AppContext } from '../context.js';
import { JsonCache } from '../jsonCache.js';
import { spaceActions } from '../policies/actions.js';
import { inSpace, inSpaceOrSignedDownload } from '../policies/index.js';
import { presentRevisionChanges } from '../presenters/changeRequestChanges.js';
import { presentList } from '../presenters/list.js';
import { presentPageMetaLinks } from '../presenters/pageMetaLinks.js';
import {
  presentComputedRevision,
  presentFile,
  presentPage,
  presentPageDocument,
  presentReusableContent,
  presentReusableContentDocument,
  presentPagesJson,
  presentRevisionJson,
  revisionView,
  type RevisionView,
} from '../presenters/revision.js';
import * as schemas from '../schemas/spaces.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const contentRoutes = new RouteTable();
const routes = contentRoutes;
const read = inSpace(spaceActions.view);

routes.get('/spaces/:spaceId/content', 'getCurrentRevision', read, handle({ query: schemas.contentQuery }, getRevision));
routes.get('/spaces/:spaceId/content/pages', 'listPages', read, handle({ query: schemas.contentQuery }, listPages));
routes.get('/spaces/:spaceId/content/page/:pageId', 'getPageById', read, handle({ query: schemas.pageQuery }, getPage));
routes.get('/spaces/:spaceId/content/path/*pagePath', 'getPageByPath', read, handle({ query: schemas.pageQuery }, getPageByPath));
routes.light('getCurrentRevision', 'listPages', 'getPageById', 'getPageByPath');
routes.get('/spaces/:spaceId/content/files', 'listFiles', read, handle({ query: schemas.filesQuery }, listFiles));
routes.get('/spaces/:spaceId/content/files/:fileId', 'getFileById', read, handle({ query: schemas.contentQuery }, getFile));
routes.get('/spaces/:spaceId/revisions/:revisionId', 'getRevisionById', read, handle({ query: schemas.contentQuery }, getRevision));
routes.get('/spaces/:spaceId/revisions/:revisionId/changes', 'getRevisionSemanticChanges', read, handle({ query: schemas.revisionChangesQuery }, getRevisionChanges));
routes.get('/spaces/:spaceId/revisions/:revisionId/pages', 'listPagesInRevisionById', read, handle({ query: schemas.contentQuery }, listPages));
routes.get('/spaces/:spaceId/revisions/:revisionId/page/:pageId', 'getPageInRevisionById', read, handle({ query: schemas.pageQuery }, getPage));
routes.get('/spaces/:spaceId/revisions/:revisionId/page/:pageId/document', 'getPageDocumentInRevisionById', read, handle({ query: schemas.pageDocumentQuery }, getPageDocument));
routes.post(
  '/spaces/:spaceId/content/computed/document',
  'getComputedDocument',
  inSpace(spaceActions.view, { readByPost: true }),
  handle({ query: schemas.computedDocumentQuery, body: schemas.computedDocumentBody }, getComputedDocument),
);
routes.post('/spaces/:spaceId/content/computed/revision', 'getComputedRevision', inSpace(spaceActions.view, { readByPost: true }), handle({ body: schemas.computedRevisionBody }, getComputedRevision));
routes.get('/spaces/:spaceId/revisions/:revisionId/page/:pageId/meta-links', 'listRevisionPageMetaLinks', read, handle({}, getPageMetaLinks));
routes.get('/spaces/:spaceId/content/page/:pageId/meta-links', 'listSpacePageMetaLinks', read, handle({}, getPageMetaLinks));
routes.get('/spaces/:spaceId/revisions/:revisionId/path/*pagePath', 'getPageInRevisionByPath', read, handle({ query: schemas.pageQuery }, getPageByPath));
routes.get('/spaces/:spaceId/content/reusable-contents/:reusableContentId', 'getReusableContentById', read, handle({ query: schemas.contentQuery }, getReusableContent));
routes.get('/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId', 'getReusableContentInRevisionById', read, handle({ query: schemas.contentQuery }, getReusableContent));
routes.get(
  '/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId/document',
  'getReusableContentDocumentInRevisionById',
  read,
  handle({ query: schemas.pageDocumentQuery }, getReusableContentDocument),
);
routes.get('/spaces/:spaceId/documents/:documentId', 'getDocumentById', read, handle({ query: schemas.documentQuery }, getDocument));
routes.get('/spaces/:spaceId/revisions/:revisionId/files', 'listFilesInRevisionById', read, handle({ query: schemas.filesQuery }, listFiles));
routes.get('/spaces/:spaceId/revisions/:revisionId/files/:fileId', 'getFileInRevisionById', read, handle({ query: schemas.contentQuery }, getFile));
routes.get('/spaces/:spaceId/revisions/:revisionId/files/:fileId/download', 'quire:downloadFile', inSpaceOrSignedDownload(spaceActions.view), handle({ query: schemas.downloadQuery }, download));
routes.post('/spaces/:spaceId/content/template', 'applyTemplateToSpace', inSpace(spaceActions.edit), handle({ body: schemas.applyTemplate }, applyTemplateRoute));

// What is presented from a commit never changes (but for its signed download URLs, the same for
// a whole signing window): its JSON is kept, within the cache budget.
const presented = new JsonCache('presented revisions');

/** What a presentation is kept under: the commit, `what`, and the signing window. */
const presentedKey = (ctx: AppContext, view: RevisionView, what: string) => `${view.spaceId}:${view.revision.commit}:${what}:${ctx.urls.downloads?.window() ?? 0}`;

/** Answers with JSON built once per commit (and `what`) and signing window, then served from the cache. */
function sendPresented(ctx: AppContext, view: RevisionView, what: string, build: () => unknown) {
  ctx.type = 'application/json';
  ctx.body = presented.get(presentedKey(ctx, view, what), build);
}

/** The revision the path names (`revisionId`), or the space's current one, ready to present. */
async function revisionOfPath(ctx: AppContext): Promise<RevisionView> {
  const { space } = spaceOf(ctx);
  return revisionView(space.id, await readRevisionWithSizes(contentDeps(ctx), space.id, ctx.params.revisionId), ctx.urls);
}

async function getRevision(ctx: AppContext) {
  const view = await revisionOfPath(ctx);
  sendPresented(ctx, view, 'revision', () => presentRevisionJson(view, 'markdown'));
}

async function listPages(ctx: AppContext) {
  const view = await revisionOfPath(ctx);
  sendPresented(ctx, view, 'pages', () => presentPagesJson(view, 'markdown'));
}

async function getPage(ctx: AppContext, { params, query }: { params: { pageId: string }; query: schemas.PageQuery }) {
  const view = await revisionOfPath(ctx);
  const page = revisionPage(view.revision, params.pageId);
  await sendPage(ctx, view, page, query);
}

/** A document page's Document alone, its includes inlined when `dereferenced`; a group or link page has none (404). */
async function getPageDocument(ctx: AppContext, { params, query }: { params: { pageId: string }; query: schemas.PageDocumentQuery }) {
  const view = await revisionOfPath(ctx);
  const page = revisionPage(view.revision, params.pageId, { label: 'Document page', accept: (found) => found.kind === 'document' });
  const dereferenced = query.dereferenced !== false;
  const key = presentedKey(ctx, view, `document:${page.id}:${dereferenced}`);
  ctx.type = 'application/json';
  const cached = presented.peek(key);
  if (cached) return void (ctx.body = cached);
  const read = await readPageDocument(page);
  const document = dereferenced ? await dereferenceReusableContents(view.revision, page.file ?? '', read) : read;
  ctx.body = presented.get(key, () => presentPageDocument(view, page, document));
}

/** A Document computed from the organization's OpenAPI specification (computeDocument): a site token sees public specifications only. */
async function getComputedDocument(ctx: AppContext, { body }: { body: schemas.ComputedDocumentBody }) {
  const { space } = spaceOf(ctx);
  ctx.body = await computeDocument(contentDeps(ctx), space.organizationId, body.source, body.seed, { publicOnly: ctx.state.siteToken !== undefined });
}

/** The pages GitBook generates from an OpenAPI specification (domain/openapi computeRevision), each with its computed document. */
async function getComputedRevision(ctx: AppContext, { body }: { body: schemas.ComputedRevisionBody }) {
  const { space } = spaceOf(ctx);
  const pages = await computeRevision(contentDeps(ctx), space.organizationId, body.source as ComputedRevisionSource, body.seed, { publicOnly: ctx.state.siteToken !== undefined });
  ctx.body = presentComputedRevision(pages, ctx.urls.spaceApp(space.id));
}

/** What the revision changed, against the one before it (its first parent; nothing, for the first). */
async function getRevisionChanges(ctx: AppContext, { query }: { query: schemas.RevisionChangesQuery }) {
  const { space } = spaceOf(ctx);
  const head = await revisionOfPath(ctx);
  const base = revisionView(space.id, await readParentRevisionWithSizes(contentDeps(ctx), space.id, head.revision), ctx.urls);
  ctx.body = presentRevisionChanges(changesBetween(base.revision, head.revision), { base, head }, query.limit);
}

async function getReusableContent(ctx: AppContext, { params }: { params: { reusableContentId: string } }) {
  const view = await revisionOfPath(ctx);
  ctx.body = presentReusableContent(reusableContentOf(view.revision, params.reusableContentId));
}

/** A reusable content's Document; with `dereferenced`, the includes inside it inlined too. */
async function getReusableContentDocument(ctx: AppContext, { params, query }: { params: { reusableContentId: string }; query: schemas.PageDocumentQuery }) {
  const view = await revisionOfPath(ctx);
  const content = reusableContentOf(view.revision, params.reusableContentId);
  const read = await readReusableContentDocument(content);
  const document = query.dereferenced !== false ? await dereferenceReusableContents(view.revision, content.path, read) : read;
  ctx.body = presentReusableContentDocument(view, content, document);
}

/** A Document by its id (its markdown blob's) among the current revision's pages and reusable contents. */
async function getDocument(ctx: AppContext, { params }: { params: { documentId: string } }) {
  const view = await revisionOfPath(ctx);
  const found = documentSourceOf(view.revision, params.documentId);
  ctx.body =
    found.kind === 'page'
      ? presentPageDocument(view, found.page, await readPageDocument(found.page))
      : presentReusableContentDocument(view, found.content, await readReusableContentDocument(found.content));
}

/** A document or group page by its path (`guides/install`); links have no path to find them by. */
async function getPageByPath(ctx: AppContext, { params, query }: { params: { pagePath: string }; query: schemas.PageQuery }) {
  const view = await revisionOfPath(ctx);
  const wanted = params.pagePath.replace(/^\/+|\/+$/g, ''); // the router has decoded it (`%2F` or `/`)
  const page = revisionPageAtPath(view.revision, wanted);
  await sendPage(ctx, view, page, query);
}

/** A page's canonical and alternate links (0.202.0), from its frontmatter's `metaLinks`. */
async function getPageMetaLinks(ctx: AppContext, { params }: { params: { pageId: string } }) {
  const view = await revisionOfPath(ctx);
  const page = revisionPage(view.revision, params.pageId, { accept: (found) => found.kind !== 'link' });
  ctx.body = presentPageMetaLinks(pageMetaLinks(view.revision, page));
}

/** A page as markdown (its references as stored or stable), or as Documents read in the worker pool when its presentation isn't cached yet. */
async function sendPage(ctx: AppContext, view: RevisionView, page: RevisionPage, query: schemas.PageQuery) {
  const stable = query.format === 'markdown' && query['format.markdown.refs'] === 'stable';
  const key = presentedKey(ctx, view, `page:${page.id}:${query.format}${stable ? ':stable' : ''}`);
  ctx.type = 'application/json';
  const cached = presented.peek(key);
  if (cached) return void (ctx.body = cached);
  const documents = query.format === 'document' ? await readPageDocuments(page) : undefined;
  const markdowns = stable ? await readStableMarkdowns(view.revision, page) : undefined;
  ctx.body = presented.get(key, () => presentPage(view, page, query.format, documents, markdowns));
}

async function listFiles(ctx: AppContext, { query }: { query: schemas.FilesQuery }) {
  const view = await revisionOfPath(ctx);
  const page = paginateArray(view.revision.files, (file) => [file.name, file.id], `files:${view.revision.commit}`, query);
  ctx.body = presentList(page, (file) => presentFile(view, file));
}

async function getFile(ctx: AppContext, { params }: { params: { fileId: string } }) {
  const view = await revisionOfPath(ctx);
  ctx.body = presentFile(view, revisionFile(view.revision, params.fileId));
}

/** Types a browser would run as a page or script if shown inline: served as attachments. */
const activeTypes = /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|text\/javascript|application\/javascript)\b/;

/** A file's bytes, with its content type: what `downloadURL` points at. */
async function download(ctx: AppContext, { params }: { params: { fileId: string } }) {
  const { space } = spaceOf(ctx);
  const view = await revisionOfPath(ctx);
  const file = revisionFile(view.revision, params.fileId);
  const { contentType } = presentFile(view, file);
  ctx.set('Cache-Control', 'private, max-age=31536000, immutable');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Disposition', `${activeTypes.test(contentType) ? 'attachment' : 'inline'}; filename*=UTF-8''${encodeURIComponent(file.name)}`);
  ctx.type = contentType;
  ctx.body = Buffer.from(await readSpaceFile(contentDeps(ctx), space.id, file.oid));
}

/**
 * Replaces the space's content with a built-in template's, as one new commit on the primary
 * branch, or on the branch of the change request named (201).
 */
async function applyTemplateRoute(ctx: AppContext, { body }: { body: schemas.ApplyTemplateBody }) {
  const { space } = spaceOf(ctx);
  const template = builtInTemplate(body.id);
  if (body.changeRequestId) await applyTemplateToChangeRequestById(contentDeps(ctx), { space, changeRequestId: body.changeRequestId, template, author: callerOf(ctx) });
  else await applyTemplate(contentDeps(ctx), { space, template, author: callerOf(ctx) });
  ctx.status = 201;
  ctx.body = ''; // no content, as upstream: Koa would otherwise write the status text
}
