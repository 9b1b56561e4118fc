import { changeRequestState } from '../../domain/changeRequests/index.js';
import type { ChangeRequestRecord } from '../../storage/changeRequests.js';
import { countOpenComments } from '../../storage/comments.js';
import { findUser, type UserRecord } from '../../storage/users.js';
import type { AppContext } from '../context.js';
import { presentChangeRequest } from './changeRequest.js';

/** A change request as the API shows it, its revision read from its branch and its creator loaded. */
export async function presentChangeRequestOf(ctx: AppContext, changeRequest: ChangeRequestRecord) {
  const [state, creator, openComments] = await Promise.all([
    changeRequestState(ctx.config, changeRequest),
    findUser(ctx.db, changeRequest.createdBy),
    countOpenComments(ctx.db, { spaceId: changeRequest.spaceId, changeRequestId: changeRequest.id }),
  ]);
  return presentChangeRequest(changeRequest, state, creator ?? formerUser(changeRequest.createdBy), ctx.urls, openComments);
}

/** A creator whose account is gone still has an id to show. */
function formerUser(id: string): UserRecord {
  return { id, displayName: 'Former user', email: '', emailVerified: false, photoURL: null, createdAt: '' };
}
