import type { CustomHostname } from '../../domain/sites/index.js';
import type { OrganizationRecord } from '../../storage/organizations.js';
import type { Urls } from '../urls.js';

/** `CustomHostname`: a site's own hostname and whether DNS sends it here (`live`). */
export function presentCustomHostname(found: CustomHostname, urls: Urls) {
  return {
    object: 'custom-hostname' as const,
    hostname: found.hostname,
    target: { type: 'site' as const, site: found.site.id },
    isActive: found.status === 'live',
    status: found.status,
    urls: { location: urls.api(`/custom-hostnames/${encodeURIComponent(found.hostname)}`) },
  };
}

/** `Subdomain`: the organization holding it. */
export function presentSubdomain(organization: OrganizationRecord) {
  return {
    object: 'subdomain' as const,
    subdomain: organization.hostname!,
    target: { type: 'organization' as const, organization: organization.id },
    isActive: true,
  };
}
