import { countChangeRequests, type ChangeRequestCounts } from '../../storage/changeRequests.js';
import { countOpenComments } from '../../storage/comments.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { ContentDeps } from '../common/deps.js';
import { spaceRevision } from './spaces.js';

/** A space with what its presentation shows beside the record: its revision and its counts. */
export interface SpaceView {
  space: SpaceRecord;
  /** The commit the space's primary branch points at. */
  revision: string;
  changeRequests: ChangeRequestCounts;
  /** Open comments outside change requests. */
  openComments: number;
}

export async function readSpaceView(deps: Pick<ContentDeps, 'db' | 'repositories'>, space: SpaceRecord): Promise<SpaceView> {
  const [revision, changeRequests, openComments] = await Promise.all([
    spaceRevision(deps, space.id),
    countChangeRequests(deps.db, space.id),
    countOpenComments(deps.db, { spaceId: space.id, changeRequestId: null }),
  ]);
  return { space, revision, changeRequests, openComments };
}
