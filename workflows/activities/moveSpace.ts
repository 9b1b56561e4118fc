import type { ContentDeps } from '../../domain/common/deps.js';
import { abandonSpaceMove, copySpaceForMove, freezeSpaceForMove, releaseMovedSpace, switchSpaceStorage, thawMovedSpace, type SpaceMove } from '../../domain/storages/index.js';
import { heartbeating } from './heartbeat.js';

/** The steps of a space's move between storages: each run by the worker of the storage the workflow names. */
export function spaceMoveActivities(deps: ContentDeps) {
  return {
    freezeSpaceForMove: (move: SpaceMove) => freezeSpaceForMove(deps, move),
    copySpaceForMove: heartbeating((move: SpaceMove) => copySpaceForMove(deps, move)),
    switchSpaceStorage: (move: SpaceMove, copied: Record<string, string>) => switchSpaceStorage(deps, move, copied),
    thawMovedSpace: (move: SpaceMove) => thawMovedSpace(deps, move),
    abandonSpaceMove: (move: SpaceMove, side: 'source' | 'target') => abandonSpaceMove(deps, move, side),
    releaseMovedSpace: async (move: SpaceMove) => releaseMovedSpace(deps, move),
  };
}
