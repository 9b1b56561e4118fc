import type { OrganizationRecord } from '../../storage/organizations.js';
import { organizationPermissions, type RoleOrGuest } from '../policies/roles.js';
import type { Urls } from '../urls.js';

/** A self-hosted Quire has every feature: it reports the top plan and no trial or billing. */
const selfHostedPlan = 'enterprise_2024';

export function presentOrganization(organization: OrganizationRecord, callerRole: RoleOrGuest | undefined, urls: Urls) {
  return {
    object: 'organization' as const,
    id: organization.id,
    title: organization.title,
    createdAt: organization.createdAt,
    emailDomains: organization.emailDomains,
    ...(organization.hostname ? { hostname: organization.hostname } : {}),
    type: organization.type,
    ...(organization.useCase ? { useCase: organization.useCase } : {}),
    ...(organization.communityType ? { communityType: organization.communityType } : {}),
    defaultRole: organization.defaultRole,
    ...(organization.defaultContent ? { defaultContent: organization.defaultContent } : {}),
    sso: organization.sso,
    ai: organization.ai,
    inviteLinks: organization.inviteLinks,
    plan: selfHostedPlan,
    mergeRules: organization.mergeRules,
    urls: {
      location: urls.organization(organization.id),
      app: urls.organizationApp(organization.id),
      ...(organization.logo ? { logo: organization.logo } : {}),
    },
    trial: { status: 'notapplicable', count: 0 },
    permissions: organizationPermissions(callerRole),
  };
}
