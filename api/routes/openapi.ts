import { createOpenAPISpec, normalizeSlug, putOpenAPISpec, removeOpenAPISpec, setSpecVisibility } from '../../domain/openapi/index.js';
import { getOpenAPISpec, getOpenAPIVersion, listOpenAPISpecs, listOpenAPIVersions, readOpenAPIFilesystem, readOpenAPIRawText, type OpenAPISpecRecord } from '../../storage/openapi.js';
import { siteTokenShowsSpec } from '../../domain/publishing/index.js';
import { contentDeps, jobDeps, organizationOf, type AppContext, pathParam } from '../context.js';
import { notFound } from '../errors.js';
import { openAPIActions } from '../policies/actions.js';
import { inOrganization } from '../policies/index.js';
import { presentList } from '../presenters/list.js';
import { fileListClient, presentOpenAPIContent, presentOpenAPIRawContent, presentOpenAPISpec, presentOpenAPIVersion, type OpenAPIFilesystemForm } from '../presenters/openapi.js';
import * as schemas from '../schemas/openapi.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const openAPIRoutes = new RouteTable();
const routes = openAPIRoutes;
const { view, edit, admin } = openAPIActions;
const spec = '/orgs/:organizationId/openapi/:specSlug';
// Published pages show OpenAPI blocks: a site token of the organization reads its public specs, and the latest content of those its site's pages name (specOf).
const readByPublishedPages = { siteToken: 'organization' } as const;

routes.get('/orgs/:organizationId/openapi', 'listOpenAPISpecs', inOrganization(view), handle({ query: schemas.listSpecs }, list));
routes.post('/orgs/:organizationId/openapi', 'createOpenAPISpec', inOrganization(edit), handle({ body: schemas.createSpec }, create));
routes.get(spec, 'getOpenAPISpecBySlug', inOrganization(view, readByPublishedPages), handle({}, get));
routes.put(spec, 'createOrUpdateOpenAPISpecBySlug', inOrganization(edit), handle({ params: schemas.specParams, body: schemas.putSpec }, put));
routes.patch(spec, 'updateOpenAPISpecBySlug', inOrganization(admin), handle({ body: schemas.updateSpec }, update));
routes.delete(spec, 'deleteOpenAPISpecBySlug', inOrganization(admin), handle({}, remove));
routes.get(`${spec}/versions`, 'listOpenAPISpecVersions', inOrganization(view, readByPublishedPages), handle({ query: schemas.listVersions }, listVersions));
routes.get(`${spec}/versions/latest`, 'getLatestOpenAPISpecVersion', inOrganization(view, readByPublishedPages), handle({}, latest));
routes.get(`${spec}/versions/latest/content`, 'getLatestOpenAPISpecVersionContent', inOrganization(view, readByPublishedPages), handle({}, latestContent));
routes.get(`${spec}/versions/latest/content/raw`, 'getLatestOpenAPISpecVersionContentRaw', inOrganization(view, readByPublishedPages), handle({}, latestRawContent));
routes.get(`${spec}/versions/:versionId`, 'getOpenAPISpecVersionById', inOrganization(view, readByPublishedPages), handle({}, version));
routes.get(`${spec}/versions/:versionId/content`, 'getOpenAPISpecVersionContentById', inOrganization(view, readByPublishedPages), handle({}, versionContent));

/**
 * The path's spec. A site token reads a public one; of a private one, only the latest content, and
 * only when its site's pages name it in a block (what GitBook's renderer fetches to draw the
 * block): not its source, errors or earlier versions. Any other is as absent.
 */
async function specOf(ctx: AppContext, reading: 'latest content' | 'anything' = 'anything'): Promise<OpenAPISpecRecord> {
  const found = await getOpenAPISpec(ctx.db, organizationOf(ctx).organization.id, normalizeSlug(pathParam(ctx, 'specSlug')));
  const token = ctx.state.siteToken;
  if (token && found.visibility !== 'public' && !(reading === 'latest content' && (await siteTokenShowsSpec(contentDeps(ctx), token, found)))) {
    throw notFound(`OpenAPI specification "${found.slug}" not found`);
  }
  return found;
}

async function list(ctx: AppContext, { query }: { query: schemas.ListSpecsQuery }) {
  const { organization, role } = organizationOf(ctx);
  ctx.body = presentList(await listOpenAPISpecs(ctx.db, organization.id, query), (item) => presentOpenAPISpec(item, role, ctx.urls));
}

/** 201 with the spec `pending`: processing runs as a job (see docs/decisions/jobs.md). */
async function create(ctx: AppContext, { body }: { body: schemas.CreateSpecBody }) {
  const { organization, role } = organizationOf(ctx);
  const created = await createOpenAPISpec(jobDeps(ctx), organization.id, body.slug, body.source);
  ctx.status = 201;
  ctx.body = presentOpenAPISpec(created, role, ctx.urls);
}

async function get(ctx: AppContext) {
  ctx.body = presentOpenAPISpec(await specOf(ctx), organizationOf(ctx).role, ctx.urls);
}

/** 201 when the slug was new, 200 when its source was replaced; processed again either way. */
async function put(ctx: AppContext, { params, body }: { params: schemas.SpecParams; body: schemas.PutSpecBody }) {
  const { organization, role } = organizationOf(ctx);
  const { spec: saved, created } = await putOpenAPISpec(jobDeps(ctx), organization.id, params.specSlug, body.source);
  ctx.status = created ? 201 : 200;
  ctx.body = presentOpenAPISpec(saved, role, ctx.urls);
}

async function update(ctx: AppContext, { body }: { body: schemas.UpdateSpecBody }) {
  const current = await specOf(ctx);
  await setSpecVisibility(ctx.db, current.id, body.visibility);
  ctx.body = presentOpenAPISpec(await specOf(ctx), organizationOf(ctx).role, ctx.urls);
}

async function remove(ctx: AppContext) {
  await removeOpenAPISpec(ctx, await specOf(ctx));
  ctx.status = 204;
}

async function listVersions(ctx: AppContext, { query }: { query: schemas.ListVersionsQuery }) {
  const current = await specOf(ctx);
  ctx.body = presentList(await listOpenAPIVersions(ctx.db, current.id, query), (item) => presentOpenAPIVersion(current, item, ctx.urls));
}

async function latestOf(ctx: AppContext, reading: 'latest content' | 'anything' = 'anything') {
  const current = await specOf(ctx, reading);
  if (current.lastVersionId === null) throw notFound(`OpenAPI specification "${current.slug}" has no version yet (processingState: ${current.processingState})`);
  return { current, found: await getOpenAPIVersion(ctx.db, current.id, current.lastVersionId) };
}

async function latest(ctx: AppContext) {
  const { current, found } = await latestOf(ctx);
  ctx.body = presentOpenAPIVersion(current, found, ctx.urls);
}

async function latestContent(ctx: AppContext) {
  const { current, found } = await latestOf(ctx, 'latest content');
  // A private spec's source URL (which may carry a credential) stays with the organization.
  const source = ctx.state.siteToken && current.visibility !== 'public' ? 'api' : 'origin';
  ctx.body = presentOpenAPIContent(current, found, await readOpenAPIFilesystem(ctx.db, found.id), ctx.urls, filesystemForm(ctx), source);
}

/** The latest version's entry file as it was submitted (fetched from its URL, or uploaded). */
async function latestRawContent(ctx: AppContext) {
  const { current, found } = await latestOf(ctx, 'latest content');
  const raw = await readOpenAPIRawText(ctx.db, found.id);
  if (!raw) throw notFound(`OpenAPI specification "${current.slug}": its latest version was processed before Quire kept the submitted text; process it again to keep it`);
  ctx.body = presentOpenAPIRawContent(raw);
}

async function version(ctx: AppContext, { params }: { params: { versionId: string } }) {
  const current = await specOf(ctx);
  ctx.body = presentOpenAPIVersion(current, await getOpenAPIVersion(ctx.db, current.id, params.versionId), ctx.urls);
}

async function versionContent(ctx: AppContext, { params }: { params: { versionId: string } }) {
  const current = await specOf(ctx);
  const found = await getOpenAPIVersion(ctx.db, current.id, params.versionId);
  ctx.body = presentOpenAPIContent(current, found, await readOpenAPIFilesystem(ctx.db, found.id), ctx.urls, filesystemForm(ctx));
}

/** The answer depends on the client: caches must keep one per User-Agent. */
function filesystemForm(ctx: AppContext): OpenAPIFilesystemForm {
  ctx.vary('User-Agent');
  return fileListClient.test(ctx.get('user-agent')) ? 'file list' : 'object';
}
