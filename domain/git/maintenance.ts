import { looseObjectCount, repackRepository } from '../../engine/index.js';
import { listLiveSpaceIds } from '../../storage/spaces.js';
import type { ContentDeps } from '../common/deps.js';
import { log } from '../common/log.js';

export interface RepackOutcome {
  spaceId: string;
  looseBefore: number;
  looseAfter: number;
  ms: number;
}

/**
 * Packs one space's repository now: Quire's writes leave loose objects only, and clones of a
 * loose repository were measured 4–5× slower than of a packed one.
 */
export async function repackSpace(deps: Pick<ContentDeps, 'repositories'>, spaceId: string): Promise<RepackOutcome> {
  const started = performance.now();
  const { looseBefore, looseAfter } = await repackRepository(deps.repositories.open(spaceId).gitdir);
  return { spaceId, looseBefore, looseAfter, ms: Math.round(performance.now() - started) };
}

/**
 * Every live space whose repository holds at least `threshold` loose objects, repacked one after
 * another; `progress` is called between spaces (a job's heartbeat). A space that fails is logged
 * and left for the next run.
 */
export async function repackSpacesOverThreshold(deps: Pick<ContentDeps, 'db' | 'repositories'>, threshold: number, progress: () => void = () => undefined): Promise<RepackOutcome[]> {
  const repacked: RepackOutcome[] = [];
  const storage = deps.repositories.storage; // the spaces whose repositories are on this node
  for (let after = '', ids = await listLiveSpaceIds(deps.db, storage, after, 500); ids.length > 0; after = ids[ids.length - 1]!, ids = await listLiveSpaceIds(deps.db, storage, after, 500)) {
    for (const spaceId of ids) {
      progress();
      if ((await looseObjectCount(deps.repositories.open(spaceId).gitdir)) < threshold) continue;
      try {
        repacked.push(await repackSpace(deps, spaceId));
      } catch (error) {
        log.warn('repacking a space failed; the next run tries again', { spaceId, error: (error as Error).message });
      }
    }
  }
  return repacked;
}
