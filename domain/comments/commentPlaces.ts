import { primaryBranch } from '../../engine/index.js';
import { getChangeRequest } from '../../storage/changeRequests.js';
import type { Queryable } from '../../storage/db.js';
import type { CommentPlace } from './comments.js';

/** The comments of a space itself (not of its change requests), posted against its primary branch. */
export function spaceCommentPlace(spaceId: string): CommentPlace {
  return { spaceId, changeRequestId: null, ref: primaryBranch, label: 'space' };
}

/** The comments of a change request of the space (by id or number), posted against its branch. */
export async function changeRequestCommentPlace(db: Queryable, spaceId: string, idOrNumber: string): Promise<CommentPlace> {
  const changeRequest = await getChangeRequest(db, spaceId, idOrNumber);
  return { spaceId, changeRequestId: changeRequest.id, ref: changeRequest.branch, label: 'change request' };
}
