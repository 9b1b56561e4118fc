import type { MemberRole } from '../../storage/members.js';
import { siteActions } from './actions.js';

/** Organization roles from most to least powerful; a guest (null) is below them all. */
const rank: Record<MemberRole, number> = { admin: 6, create: 5, review: 4, edit: 3, comment: 2, read: 1 };

export type RoleOrGuest = MemberRole | null;

export function atLeast(role: RoleOrGuest, needed: RoleOrGuest): boolean {
  return (role === null ? 0 : rank[role]) >= (needed === null ? 0 : rank[needed]);
}

export const describeRole = (role: RoleOrGuest) => (role === null ? 'guest' : role);

/**
 * The Organization `permissions` object for a caller with this role (see docs/permissions.md);
 * undefined: the caller is not a member.
 */
export function organizationPermissions(role: RoleOrGuest | undefined) {
  const has = (needed: RoleOrGuest) => role !== undefined && atLeast(role, needed);
  return {
    view: has(null),
    // 0.202.0: whether the organization opens in the app, as it does for every member.
    access: has(null),
    admin: has('admin'),
    ownTeam: has('read'),
    createContent: has('create'),
    createOpenAPISpec: has('create'),
    ingestConversations: has('admin'),
    viewBilling: has('admin'),
    listMembers: has('read'),
    listTeams: has('read'),
    listIntegrations: has('read'),
    listInstallations: has('admin'),
    installIntegration: has('admin'),
  };
}

export function teamPermissions(role: RoleOrGuest, isTeamOwner: boolean) {
  return { admin: atLeast(role, 'admin') || isTeamOwner, view: atLeast(role, 'read') };
}

/**
 * A site's `permissions` (0.202.0) for a member with this role, from the rules of the site routes
 * (docs/permissions.md: reading the adaptive schema is a view, changing it an admin's); a site
 * token's reader (`'visitor'`) views the site and nothing more.
 */
export function sitePermissions(role: RoleOrGuest | 'visitor') {
  const has = (needed: MemberRole) => role !== 'visitor' && atLeast(role, needed);
  return {
    view: role === 'visitor' || has(siteActions.view),
    access: has(siteActions.view),
    edit: has(siteActions.edit),
    create: has(siteActions.edit),
    admin: has(siteActions.admin),
    installIntegration: has(siteActions.admin),
    viewAdaptiveSchema: has(siteActions.view),
    editAdaptiveSchema: has(siteActions.admin),
  };
}
