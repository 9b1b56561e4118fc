import type { MemberRole } from '../../storage/members.js';
import { collectionActions, organizationActions, spaceActions } from './actions.js';
import { atLeast, type RoleOrGuest } from './roles.js';

/** The Space `permissions` of a caller with this role: what the routes' policies (spaceActions) let them do. */
export function spacePermissions(role: MemberRole | undefined) {
  const has = (needed: MemberRole) => role !== undefined && atLeast(role, needed);
  return {
    view: has(spaceActions.view),
    access: has(spaceActions.view),
    admin: has(spaceActions.admin),
    viewInviteLinks: has(spaceActions.admin),
    edit: has(spaceActions.edit),
    triggerGitSync: has(spaceActions.edit),
    comment: has(spaceActions.comment),
    merge: has(spaceActions.merge),
    review: has(spaceActions.review),
    installIntegration: has(spaceActions.admin),
  };
}

/** The Collection `permissions`; `create`: the create role inside it, as adding a space there requires. */
export function collectionPermissions(role: MemberRole | undefined, organizationRole: RoleOrGuest) {
  const has = (needed: MemberRole) => role !== undefined && atLeast(role, needed);
  return {
    view: has(collectionActions.view),
    admin: has(collectionActions.admin),
    viewInviteLinks: has(collectionActions.admin),
    create: has(organizationActions.create) && atLeast(organizationRole, organizationActions.create),
  };
}
