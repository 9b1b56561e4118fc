import { createHash } from 'node:crypto';
import { findPageById, type RevisionPage } from '../../engine/index.js';
import { findChangeRequest, type ChangeRequestRecord } from '../../storage/changeRequests.js';
import { findSpace, type SpaceRecord } from '../../storage/spaces.js';
import { failStoredPdfExport, pdfExportStatus, readPdfExport, requestPdfExport, storePdfExport, type PdfExportStatus } from '../../storage/pdfExports.js';
import { changeRequestState } from '../changeRequests/index.js';
import type { ContentDeps, JobDeps } from '../common/deps.js';
import { invalidInput, missing } from '../common/errors.js';
import type { Chapter } from './bookHtml.js';
import { chapterContent } from './chapterContent.js';
import { renderPdf } from './renderPdf.js';
import { readSpaceRevision } from '../spaces/index.js';
import type { PdfExportInput } from '../common/jobs.js';

/** The job's business id: the same revision and options join one job and reuse one PDF. */
export const pdfOptions = (input: PdfExportInput) => (input.page ? `page-${input.page}` : 'all');
export const pdfExportId = (input: PdfExportInput) =>
  createHash('sha256')
    .update(`${input.spaceId}:${input.changeRequestId ?? 'space'}:${input.revision}:${pdfOptions(input)}`)
    .digest('hex')
    .slice(0, 32);

/**
 * Asks for the PDF of a change request's head revision (or of one of its pages): records the
 * request and starts its job, unless that revision and those options were rendered already.
 */
export async function requestChangeRequestPdf(deps: JobDeps, space: SpaceRecord, changeRequest: ChangeRequestRecord, options: { only: boolean; page?: string }): Promise<{ exportId: string }> {
  if (options.only && !options.page) throw invalidInput('"only" needs "page": the id of the page to export');
  const { revision } = await changeRequestState(deps, changeRequest);
  const page = options.only ? options.page! : null;
  if (page && !findPageById(await readSpaceRevision(deps, space.id, revision), page)) throw missing(`Page ${page} not found in change request ${changeRequest.number}`);
  const input: PdfExportInput = { spaceId: space.id, changeRequestId: changeRequest.id, revision, page };
  const exportId = pdfExportId(input);
  if ((await pdfExportStatus(deps.db, space.id, exportId))?.state === 'ready') return { exportId };
  await requestPdfExport(deps.db, exportId, space.id, input);
  await deps.jobs.startPdfExport(input);
  return { exportId };
}

/**
 * Asks for the PDF of the space's current revision (or of one of its pages), as for a change
 * request: the same revision and options reuse one PDF.
 */
export async function requestSpacePdf(deps: JobDeps, space: SpaceRecord, options: { only: boolean; page?: string }): Promise<{ exportId: string }> {
  if (options.only && !options.page) throw invalidInput('"only" needs "page": the id of the page to export');
  const revision = await readSpaceRevision(deps, space.id);
  const page = options.only ? options.page! : null;
  if (page && !findPageById(revision, page)) throw missing(`Page ${page} not found in space ${space.id}`);
  const input: PdfExportInput = { spaceId: space.id, changeRequestId: null, revision: revision.commit, page };
  const exportId = pdfExportId(input);
  if ((await pdfExportStatus(deps.db, space.id, exportId))?.state === 'ready') return { exportId };
  await requestPdfExport(deps.db, exportId, space.id, input);
  await deps.jobs.startPdfExport(input);
  return { exportId };
}

export type PdfExportState = PdfExportStatus | { state: 'unknown' };

/** Where an export stands: rendered, failed for good, under way, or never asked for. */
export async function pdfExportState(deps: Pick<ContentDeps, 'db'>, spaceId: string, exportId: string): Promise<PdfExportState> {
  if (!/^[0-9a-f]{32}$/.test(exportId)) return { state: 'unknown' };
  return (await pdfExportStatus(deps.db, spaceId, exportId)) ?? { state: 'unknown' };
}

/** The rendered PDF, or undefined when it isn't (see pdfExportState). */
export const pdfExportBytes = (deps: Pick<ContentDeps, 'db'>, spaceId: string, exportId: string): Promise<Buffer | undefined> => readPdfExport(deps.db, spaceId, exportId);

/**
 * The job's work: renders the revision and stores the PDF under its export id (in one statement,
 * so a worker killed mid-way leaves no half PDF, and a retry stores the same one). Kept in the
 * database, any node serves it.
 */
export async function renderChangeRequestPdf(deps: ContentDeps, input: PdfExportInput): Promise<'rendered' | 'there' | 'gone'> {
  const exportId = pdfExportId(input);
  if ((await pdfExportStatus(deps.db, input.spaceId, exportId))?.state === 'ready') return 'there';
  const space = await findSpace(deps.db, input.spaceId);
  const changeRequest = space && input.changeRequestId !== null ? await findChangeRequest(deps.db, space.id, input.changeRequestId) : undefined;
  if (!space || (input.changeRequestId !== null && !changeRequest)) return 'gone';
  const revision = await readSpaceRevision(deps, input.spaceId, input.revision);
  const pages = input.page ? [findPageById(revision, input.page)].filter((page): page is RevisionPage => page !== undefined).map((page) => ({ page, depth: 0 })) : documentPages(revision.pages, 0);
  const repo = deps.repositories.open(input.spaceId);
  const inBook = new Set(pages.map(({ page }) => page.id));
  const chapters: Chapter[] = [];
  for (const { page, depth } of pages) chapters.push({ pageId: page.id, title: page.title, depth, content: await chapterContent(repo, revision, page, inBook) });
  const subtitle = changeRequest ? `Change request #${changeRequest.number}: ${changeRequest.subject} — revision ${input.revision.slice(0, 7)}` : `Revision ${input.revision.slice(0, 7)}`;
  const pdf = await renderPdf({ title: space.title, subtitle, chapters });
  return (await storePdfExport(deps.db, exportId, pdf)) ? 'rendered' : 'gone';
}

/** Records why an export failed for good, so its URL says so instead of "not ready". */
export async function failPdfExport(deps: Pick<ContentDeps, 'db'>, input: PdfExportInput, reason: string): Promise<void> {
  await failStoredPdfExport(deps.db, pdfExportId(input), reason);
}

function documentPages(pages: RevisionPage[], depth: number): Array<{ page: RevisionPage; depth: number }> {
  return pages.flatMap((page) => [...(page.kind === 'document' ? [{ page, depth }] : []), ...documentPages(page.pages, page.kind === 'document' ? depth + 1 : depth)]);
}

export type { PdfExportInput } from '../common/jobs.js';
