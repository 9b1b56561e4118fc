import { spaceRevision } from '../../domain/spaces/index.js';
import { countChangeRequests } from '../../storage/changeRequests.js';
import { countOpenComments } from '../../storage/comments.js';
import type { MemberRole } from '../../storage/members.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { AppContext } from '../context.js';
import { presentSpace } from './space.js';

/** A space as the API shows it, with its current revision read from its repository. */
export async function presentSpaceOf(ctx: AppContext, space: SpaceRecord, role: MemberRole | undefined) {
  const [revision, changeRequests, openComments] = await Promise.all([
    spaceRevision(ctx.config.dataDir, space.id),
    countChangeRequests(ctx.db, space.id),
    countOpenComments(ctx.db, { spaceId: space.id, changeRequestId: null }),
  ]);
  return presentSpace(space, revision, role, ctx.urls, changeRequests, openComments);
}
