/**
 * Every action the audit log records (`listOrganizationAuditEventActions`), with its label. The
 * catalogue is closed: recordAudit takes only these, so the list an admin filters by is complete.
 */
export const auditActions = {
  'member.invited': 'Invited people to the organization',
  'member.joined': 'Joined the organization',
  'member.role_changed': "Changed a member's role",
  'member.removed': 'Removed a member (or left)',
  'member.sso_required': 'Made a member sign in with SSO',
  'permission.granted': 'Gave a role on a space, collection or site',
  'permission.revoked': 'Took a role away on a space, collection or site',
  'team.members_changed': 'Added people to a team or removed them',
  'team.deleted': 'Deleted a team (and what it was given)',
  'collection.access_changed': "Changed a collection's default level",
  'space.access_changed': "Changed a space's default level",
  'space.deleted': 'Deleted a space',
  'space.restored': 'Restored a space',
  'space.purged': 'Removed a deleted space for good, after its retention',
  'change_request.merged': 'Merged a change request',
  'git.ref_updated': 'Moved a branch by a git push',
  'site.visibility_changed': "Changed a site's visibility",
  'site.published': 'Published a site',
  'site.unpublished': 'Unpublished a site',
  'saml_provider.created': 'Added a SAML provider',
  'saml_provider.updated': 'Changed a SAML provider',
  'saml_provider.deleted': 'Removed a SAML provider',
  'token.created': 'Created an API token',
  'token.revoked': 'Revoked an API token',
  'user.signed_in': 'Signed in to the app',
} as const;

export type AuditAction = keyof typeof auditActions;
