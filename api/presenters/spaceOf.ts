import { spaceRevision } from '../../domain/spaces.js';
import type { MemberRole } from '../../storage/members.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { AppContext } from '../context.js';
import { presentSpace } from './space.js';

/** A space as the API shows it, with its current revision read from its repository. */
export async function presentSpaceOf(ctx: AppContext, space: SpaceRecord, role: MemberRole | undefined) {
  return presentSpace(space, await spaceRevision(ctx.config.dataDir, space.id), role, ctx.urls);
}
