import type { MemberRole } from '../../storage/members.js';

/**
 * The role each kind of action needs, declared once: the route policies require these, and the
 * presenters' `permissions` flags are computed from the same table, so what a response says a
 * caller may do is what the routes let them do.
 */
export const spaceActions = {
  view: 'read',
  comment: 'comment',
  edit: 'edit',
  review: 'review',
  merge: 'edit',
  /** The space's settings, its place, its deletion. */
  admin: 'admin',
} as const satisfies Record<string, MemberRole>;

/**
 * Comments of a space and of its change requests: `post` comments, replies and reactions; authors
 * edit, delete, resolve and reopen their own; `resolve` resolves and reopens anyone's; `moderate`
 * edits and deletes anyone's.
 */
export const commentActions = {
  view: spaceActions.view,
  post: spaceActions.comment,
  resolve: spaceActions.edit,
  moderate: spaceActions.admin,
} as const satisfies Record<string, MemberRole>;

/** Fields of a space that are settings: changing them needs `spaceActions.admin`, not edit. */
export const spaceSettings = ['editMode', 'defaultLevel', 'mergeRules', 'language'] as const;

export const collectionActions = {
  view: 'read',
  admin: 'admin',
} as const satisfies Record<string, MemberRole>;

/** Organization role needed to add spaces and collections (where they land: see requirements). */
export const organizationActions = {
  create: 'create',
  admin: 'admin',
} as const satisfies Record<string, MemberRole>;

/**
 * Docs sites are the organization's: members who read see them, creators build their structure
 * (sections, groups, site spaces) and create sites, admins change settings, publish, delete, and
 * hold the share links and the adaptive schema.
 */
export const siteActions = {
  view: 'read',
  edit: 'create',
  admin: 'admin',
} as const satisfies Record<string, MemberRole>;

/**
 * OpenAPI specifications are the organization's: members who read see them and their versions,
 * creators add them and change their source, admins change their visibility and delete them.
 */
export const openAPIActions = {
  view: 'read',
  edit: 'create',
  admin: 'admin',
} as const satisfies Record<string, MemberRole>;

/**
 * Translations are the organization's: members who read see them; creators (who can make the
 * target space a run creates) add them, change their instructions and run them; admins delete them.
 */
export const translationActions = {
  view: 'read',
  edit: 'create',
  admin: 'admin',
} as const satisfies Record<string, MemberRole>;

/**
 * Support conversations and what Quire derives from them: admins post them (upstream's
 * `ingestConversations` permission); members who edit content read them, issues and clusters,
 * to see what the documentation lacks.
 */
export const conversationActions = {
  view: 'edit',
  ingest: 'admin',
} as const satisfies Record<string, MemberRole>;
