import { cancelImport, importRunOf, listImports, requestUpload, startImport, type ImportRequest } from '../../domain/imports/index.js';
import { callerOf, grantsOf, jobDeps, organizationOf, type AppContext } from '../context.js';
import { inOrganization } from '../policies/index.js';
import { presentImportRun } from '../presenters/importRun.js';
import { presentList } from '../presenters/list.js';
import * as schemas from '../schemas/imports.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

// Imports (docs/imports.md): a website's pages, or uploaded markdown, HTML and zip files, written
// into a space by a job. 0.202.0 puts the runs under `/org/` (singular), uploads under `/orgs/`.
export const importRoutes = new RouteTable();
const routes = importRoutes;
const runs = '/org/:organizationId/imports';

routes.post('/orgs/:organizationId/storage/upload', 'generateStorageUploadURL', inOrganization('edit'), handle({ body: schemas.uploadRequest }, uploadUrl));
routes.get(runs, 'listImportRuns', inOrganization('read'), handle({ query: schemas.listImports }, list));
routes.post(runs, 'startImportRun', inOrganization(null), handle({ body: schemas.startImport }, start));
routes.get(`${runs}/:importRunId`, 'getImportRun', inOrganization('read'), handle({}, get));
routes.post(`${runs}/:importRunId/cancel`, 'cancelImportRun', inOrganization('edit'), handle({}, cancel));

/** A signed URL to PUT the file's bytes to (api/uploads.ts), and the key an import names it by. */
async function uploadUrl(ctx: AppContext, { body }: { body: schemas.UploadRequestBody }) {
  const { organization } = organizationOf(ctx);
  const upload = await requestUpload(ctx.db, {
    organizationId: organization.id,
    createdBy: callerOf(ctx).id,
    kind: body.kind,
    name: body.file.name,
    contentType: body.file.type,
    size: body.file.size,
  });
  ctx.status = 201;
  ctx.body = { object: 'storage-signed-url' as const, url: ctx.urls.upload(upload.key), key: upload.key };
}

async function list(ctx: AppContext, { query }: { query: schemas.ListImportsQuery }) {
  const { organization } = organizationOf(ctx);
  const { page, limit, ...filter } = query;
  ctx.body = presentList(await listImports(ctx.db, organization.id, filter, { page, limit: limit ?? 50 }), (run) => presentImportRun(run, ctx.urls));
}

/** Any member may import into a space they edit (a guest into one shared with them): the domain checks the space. */
async function start(ctx: AppContext, { body }: { body: schemas.StartImportBody }) {
  const { organization, role } = organizationOf(ctx);
  const caller = { id: callerOf(ctx).id, organizationRole: role, grants: await grantsOf(ctx) };
  const run = await startImport(jobDeps(ctx), caller, organization.id, body as ImportRequest);
  ctx.status = 201;
  ctx.body = presentImportRun(run, ctx.urls);
}

async function get(ctx: AppContext, { params }: { params: { importRunId: string } }) {
  ctx.body = presentImportRun(await importRunOf(ctx.db, organizationOf(ctx).organization.id, params.importRunId), ctx.urls);
}

async function cancel(ctx: AppContext, { params }: { params: { importRunId: string } }) {
  ctx.body = presentImportRun(await cancelImport(ctx.db, organizationOf(ctx).organization.id, params.importRunId), ctx.urls);
}
