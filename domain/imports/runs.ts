import { findChangeRequest } from '../../storage/changeRequests.js';
import type { Database } from '../../storage/db.js';
import { findImportRun, findUpload, insertImportRun, listImportRuns, updateImportRun, type ImportRunRecord, type ImportSource, type ImportStatus, type ImportedPage } from '../../storage/imports.js';
import type { MemberRole } from '../../storage/members.js';
import { memberRoles } from '../../storage/members.js';
import type { Grants } from '../../storage/contentGrants.js';
import { findSpace } from '../../storage/spaces.js';
import { findUser } from '../../storage/users.js';
import type { Page, PageRequest } from '../../storage/pagination.js';
import { updateEditedContent, type ContentOperation } from '../changeRequests/index.js';
import type { ContentDeps, JobDeps } from '../common/deps.js';
import { alreadyThere, invalidInput, missing, notAllowed } from '../common/errors.js';
import { log } from '../common/log.js';
import { roleOnSpace } from '../organizations/index.js';
import { revisionPage, readSpaceRevision } from '../spaces/index.js';
import { gatherDocuments } from './gather.js';

export interface ImportRequest {
  source: ImportSource;
  target: { space: string; changeRequest?: string; page?: string };
  site?: string;
}

/**
 * Records an import run and starts its job (startImportRun). The target must be a space of the
 * organization the caller may edit (a change request of it, open; a page of it, to import under);
 * a website is an http(s) URL; files are uploads of the organization that have been sent.
 */
export async function startImport(
  deps: JobDeps,
  caller: { id: string; organizationRole: MemberRole | null; grants: Grants },
  organizationId: string,
  request: ImportRequest,
): Promise<ImportRunRecord> {
  const space = await findSpace(deps.db, request.target.space);
  if (!space || space.organizationId !== organizationId) throw missing(`Space ${request.target.space} not found`);
  const role = await roleOnSpace(deps.db, caller.organizationRole, space, caller.grants);
  if (!role) throw missing(`Space ${request.target.space} not found`);
  if (memberRoles.indexOf(role) > memberRoles.indexOf('edit')) throw notAllowed(`Importing into space ${space.id} needs the edit role on it; you have ${role}`);
  if (request.target.changeRequest !== undefined) {
    const changeRequest = await findChangeRequest(deps.db, space.id, request.target.changeRequest);
    if (!changeRequest) throw missing(`Change request ${request.target.changeRequest} not found in space ${space.id}`);
    if (changeRequest.status !== 'open' && changeRequest.status !== 'draft')
      throw alreadyThere(`Change request ${request.target.changeRequest} is ${changeRequest.status}: nothing can be imported into it`);
  }
  if (request.target.page !== undefined && !request.target.changeRequest) revisionPage(await readSpaceRevision(deps, space.id), request.target.page, { label: '"target.page"' });
  if (request.source.type === 'website') {
    if (!/^https?:\/\//i.test(request.source.url) || !URL.canParse(request.source.url)) throw invalidInput('"source.url" must be an http or https URL');
  } else {
    for (const key of request.source.files) {
      const upload = await findUpload(deps.db, organizationId, key);
      if (!upload) throw invalidInput(`"source.files": ${key} is no upload of this organization`);
      if (!upload.uploaded) throw invalidInput(`"source.files": ${key} has not been sent to its upload URL yet`);
    }
  }
  const run = await insertImportRun(deps.db, { organizationId, target: request.target, siteId: request.site, source: request.source, createdBy: caller.id });
  try {
    await deps.jobs.startImport({ runId: run.id, organizationId, spaceId: space.id });
  } catch (error) {
    await updateImportRun(deps.db, run.id, ['pending'], { status: 'failed', reason: 'the job could not be started' });
    throw error;
  }
  return run;
}

export async function importRunOf(db: Database, organizationId: string, id: string): Promise<ImportRunRecord> {
  const run = await findImportRun(db, organizationId, id);
  if (!run) throw missing(`Import run ${id} not found`);
  return run;
}

/** `active` (0.202.0's filter): the runs pending or under way. */
export function listImports(
  db: Database,
  organizationId: string,
  filter: { space?: string; changeRequest?: string; site?: string; status?: ImportStatus | 'active' },
  request: PageRequest,
): Promise<Page<ImportRunRecord>> {
  const { status, ...rest } = filter;
  const statuses: ImportStatus[] | undefined = status === 'active' ? ['pending', 'in-progress'] : status && [status];
  return listImportRuns(db, organizationId, { ...rest, status: statuses }, request);
}

/** Stops a run still pending or under way: its job sees it between pages and writes nothing more. A finished run is a 400. */
export async function cancelImport(db: Database, organizationId: string, id: string): Promise<ImportRunRecord> {
  const run = await importRunOf(db, organizationId, id);
  if (!(await updateImportRun(db, run.id, ['pending', 'in-progress'], { status: 'cancelled', completed: true }))) {
    throw invalidInput(`Import run ${id} is ${(await importRunOf(db, organizationId, id)).status}: only a pending or running import can be cancelled`);
  }
  return importRunOf(db, organizationId, id);
}

/** Pages written per commit: the content API's own limit. */
const batchSize = 50;

/**
 * The job's work: reads the source's pages and writes them into the target, 50 to a commit, as
 * the run's creator (into the change request when one is named, else the space's content as a
 * live edit, under the page named if any), reporting each page on the run. A run cancelled
 * meanwhile stops between commits; one that can't be done fails with the reason.
 */
export async function performImport(deps: ContentDeps, input: { runId: string; organizationId: string }, heartbeat: () => void = () => undefined): Promise<ImportStatus> {
  const run = await findImportRun(deps.db, input.organizationId, input.runId);
  if (!run || !(await updateImportRun(deps.db, run.id, ['pending'], { status: 'in-progress', started: true }))) return run?.status ?? 'failed';
  const stillWanted = async () => {
    heartbeat();
    return (await findImportRun(deps.db, run.organizationId, run.id))?.status === 'in-progress';
  };
  try {
    const space = await findSpace(deps.db, run.target.space);
    const author = await findUser(deps.db, run.createdBy);
    if (!space || !author) throw invalidInput('The target space or the person who started the import is gone');
    const changeRequest = run.target.changeRequest ? await findChangeRequest(deps.db, space.id, run.target.changeRequest) : undefined;
    if (run.target.changeRequest && !changeRequest) throw invalidInput(`Change request ${run.target.changeRequest} is gone`);
    const { documents, truncated } = await gatherDocuments(deps.db, run.organizationId, run.source, stillWanted);
    if (documents.length === 0) throw invalidInput('The source holds no page Quire can import (HTML or markdown)');
    const pages: ImportedPage[] = [];
    for (let start = 0; start < documents.length; start += batchSize) {
      if (!(await stillWanted())) return 'cancelled';
      const batch = documents.slice(start, start + batchSize);
      const operations: ContentOperation[] = batch.map((document) => ({
        operation: 'insert_page',
        title: document.title,
        document: { markdown: document.markdown },
        ...(run.target.page ? { into: run.target.page } : {}),
      }));
      const update = await updateEditedContent(deps, { edited: { space, changeRequest: changeRequest ?? null }, operations, author });
      const created = update.outcomes.filter((outcome) => outcome.kind === 'created');
      created.forEach((outcome, index) => pages.push({ id: outcome.pageId, type: 'page', status: 'complete', ...(batch[index]?.sourceURL ? { sourceURL: batch[index]!.sourceURL } : {}) }));
      await updateImportRun(deps.db, run.id, ['in-progress'], { pages });
    }
    const done = await updateImportRun(deps.db, run.id, ['in-progress'], {
      status: 'completed',
      completed: true,
      pages,
      ...(truncated ? { reason: 'The source held more pages than an import takes (200): the first ones were imported' } : {}),
    });
    return done ? 'completed' : 'cancelled';
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log.warn('an import failed', { runId: run.id, reason });
    await updateImportRun(deps.db, run.id, ['in-progress'], { status: 'failed', reason: reason.slice(0, 1000), completed: true });
    return 'failed';
  }
}
