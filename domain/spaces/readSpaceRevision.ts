import { readRevision, type Revision } from '../../engine/readRevision.js';
import { primaryBranch } from '../../engine/repository.js';
import { resolveRevision } from '../../engine/resolveRevision.js';
import { openSpaceRepository } from '../../engine/spaceRepositories.js';
import type { ContentDeps } from '../shared/deps.js';

/**
 * A space's revision, to answer a request with: the commit `ref` names (a commit id of the space,
 * or a branch), or its primary branch's head. Throws the engine's RevisionNotFoundError for
 * anything else.
 */
export async function readSpaceRevision(deps: Pick<ContentDeps, 'dataDir'>, spaceId: string, ref: string = primaryBranch): Promise<Revision> {
  const repo = openSpaceRepository(deps.dataDir, spaceId);
  return readRevision(repo, await resolveRevision(repo, ref, { sameTurn: true }));
}
