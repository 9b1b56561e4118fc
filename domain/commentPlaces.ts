import { primaryBranch } from '../engine/repository.js';
import type { CommentPlace } from './comments.js';

/** The comments of a space itself (not of its change requests), posted against its primary branch. */
export function spaceCommentPlace(spaceId: string): CommentPlace {
  return { spaceId, changeRequestId: null, ref: primaryBranch, label: 'space' };
}
