import { fileSizes } from '../../engine/fileSizes.js';
import { openSpaceRepository } from '../../engine/spaceRepositories.js';
import { readSpaceRevision } from '../../domain/spaces/index.js';
import type { ChangeRequestRecord } from '../../storage/changeRequests.js';
import type { AppContext } from '../context.js';
import { revisionView, type RevisionView } from './revision.js';

/** The head of a change request's branch, or another commit of its space, ready to present as the space routes do. */
export async function changeRequestRevisionView(ctx: AppContext, changeRequest: ChangeRequestRecord, ref = changeRequest.branch): Promise<RevisionView> {
  const revision = await readSpaceRevision(ctx.config, changeRequest.spaceId, ref);
  return revisionView(changeRequest.spaceId, revision, ctx.urls, await fileSizes(openSpaceRepository(ctx.config.dataDir, changeRequest.spaceId), revision));
}
