import { countChangeRequests, type ChangeRequestCounts } from '../../storage/changeRequests.js';
import { countOpenComments } from '../../storage/comments.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { ContentDeps } from '../common/deps.js';
import { spaceRevision } from './spaces.js';
import { primaryRevisions } from './primaryHead.js';

/** A space with what its presentation shows beside the record: its revision and its counts. */
export interface SpaceView {
  space: SpaceRecord;
  /** The commit the space's primary branch points at. */
  revision: string;
  changeRequests: ChangeRequestCounts;
  /** Open comments outside change requests. */
  openComments: number;
}

/** A space's view; `revision` as a list read it (primaryRevisions), else from its repository. */
export async function readSpaceView(deps: Pick<ContentDeps, 'db' | 'repositories'>, space: SpaceRecord, revision?: string): Promise<SpaceView> {
  const [head, changeRequests, openComments] = await Promise.all([
    revision ?? spaceRevision(deps, space.id),
    countChangeRequests(deps.db, space.id),
    countOpenComments(deps.db, { spaceId: space.id, changeRequestId: null }),
  ]);
  return { space, revision: head, changeRequests, openComments };
}

/** The views of a list of spaces: their revisions as recorded, no repository opened (see primaryRevisions). */
export async function readSpaceViews(deps: Pick<ContentDeps, 'db' | 'repositories'>, spaces: readonly SpaceRecord[]): Promise<SpaceView[]> {
  const revisions = await primaryRevisions(
    deps,
    spaces.map((space) => space.id),
  );
  return Promise.all(spaces.map((space) => readSpaceView(deps, space, revisions.get(space.id))));
}
