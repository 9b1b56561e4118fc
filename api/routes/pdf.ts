import { changeRequestOf } from '../../domain/changeRequests/index.js';
import { pdfExportBytes, pdfExportState, requestChangeRequestPdf, requestSpacePdf } from '../../domain/pdf/index.js';
import { contentDeps, jobDeps, spaceOf, type AppContext } from '../context.js';
import { notFound, unprocessable, unavailable } from '../errors.js';
import { spaceActions } from '../policies/actions.js';
import { inSpace, inSpaceOrSignedDownload } from '../policies/index.js';
import * as schemas from '../schemas/pdf.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

// PDFs of a space's content and of a change request's, rendered by a job (docs/decisions/jobs.md).
export const pdfRoutes = new RouteTable();
const routes = pdfRoutes;
const space = '/spaces/:spaceId';
const changeRequest = `${space}/change-requests/:changeRequestId`;

routes.get(`${space}/pdf`, 'getSpacePDF', inSpace(spaceActions.view), handle({ query: schemas.pdfQuery }, requestOfSpace));
routes.get(`${space}/pdf/:exportId`, 'quire:downloadSpacePDF', inSpaceOrSignedDownload(spaceActions.view), handle({ query: schemas.pdfDownloadQuery }, download));
routes.get(`${changeRequest}/pdf`, 'getChangeRequestPDF', inSpace(spaceActions.view), handle({ query: schemas.pdfQuery }, requestPdf));
routes.get(`${changeRequest}/pdf/:exportId`, 'quire:downloadChangeRequestPDF', inSpaceOrSignedDownload(spaceActions.view), handle({ query: schemas.pdfDownloadQuery }, download));

/** How long a client is told to wait before asking for a PDF still being rendered. */
const retryAfterSeconds = 2;

/** `{url}` at once: the URL serves the PDF once its job has rendered it (see docs/decisions/jobs.md). */
async function requestPdf(ctx: AppContext, { params, query }: { params: { changeRequestId: string }; query: schemas.PdfQuery }) {
  const { space } = spaceOf(ctx);
  const found = await changeRequestOf(ctx, space, params.changeRequestId);
  const { exportId } = await requestChangeRequestPdf(jobDeps(ctx), space, found, { only: query.only, page: query.page });
  ctx.body = { url: ctx.urls.signedApi(`/spaces/${space.id}/change-requests/${params.changeRequestId}/pdf/${exportId}`) };
}

/** The same for the space's current revision. */
async function requestOfSpace(ctx: AppContext, { query }: { query: schemas.PdfQuery }) {
  const { space } = spaceOf(ctx);
  const { exportId } = await requestSpacePdf(jobDeps(ctx), space, { only: query.only, page: query.page });
  ctx.body = { url: ctx.urls.signedApi(`/spaces/${space.id}/pdf/${exportId}`) };
}

async function download(ctx: AppContext, { params }: { params: { exportId: string; changeRequestId?: string } }) {
  const { space } = spaceOf(ctx);
  const exported = await pdfExportState(contentDeps(ctx), space.id, params.exportId);
  if (exported.state === 'unknown') throw notFound(`PDF ${params.exportId} not found in space ${space.id}`);
  if (exported.state === 'failed') throw unprocessable(`The PDF could not be rendered: ${exported.reason}`);
  if (exported.state === 'pending') {
    ctx.set('Retry-After', String(retryAfterSeconds));
    throw unavailable(`The PDF is not ready yet: it is being rendered. Try again in ${retryAfterSeconds} seconds.`);
  }
  const pdf = await pdfExportBytes(contentDeps(ctx), space.id, params.exportId!);
  if (!pdf) throw notFound(`PDF ${params.exportId} not found in space ${space.id}`);
  ctx.set('Cache-Control', 'private, max-age=31536000, immutable');
  ctx.set('Content-Disposition', `inline; filename="${space.id}${params.changeRequestId ? `-${params.changeRequestId}` : ''}.pdf"`);
  ctx.type = 'application/pdf';
  ctx.body = pdf;
}
