import type { SamlProviderRecord } from '../../storage/samlProviders.js';
import type { TeamRecord } from '../../storage/teams.js';
import type { RoleOrGuest } from '../policies/roles.js';
import { parseCertificate, providerIsUsable } from '../../domain/organizations/index.js';
import type { Urls } from '../urls.js';
import { presentTeam } from './team.js';

/**
 * A provider is `active` once its sign-in URL is https (http for loopback), it has an entity id, and
 * its certificate parses as X.509 and is valid today; `certificateExpiresAt` (Quire's) says until
 * when. Until then `ssoURL` reads `about:blank`: the upstream schema requires a URI there.
 */
export function presentSamlProvider(provider: SamlProviderRecord, defaultTeam: TeamRecord | undefined, callerRole: RoleOrGuest, urls: Urls) {
  const complete = providerIsUsable(provider);
  const certificate = provider.certificate ? parseCertificate(provider.certificate) : undefined;
  return {
    object: 'saml-provider' as const,
    id: provider.id,
    label: provider.label,
    ssoURL: provider.ssoURL ?? 'about:blank',
    entityID: provider.entityID ?? '',
    certificate: provider.certificate ?? '',
    ...(certificate && !('problem' in certificate) ? { certificateExpiresAt: certificate.expiresAt.toISOString() } : {}),
    ...(defaultTeam ? { defaultTeam: presentTeam(defaultTeam, { role: callerRole }) } : {}),
    defaultRole: provider.defaultRole,
    createdAt: provider.createdAt,
    status: complete ? ('active' as const) : ('pending' as const),
    service: {
      acsURL: urls.samlAcs(provider.organizationId, provider.id),
      startURL: urls.samlStart(provider.organizationId, provider.id),
      entityID: urls.samlEntity(provider.organizationId, provider.id),
    },
    urls: { location: urls.samlProvider(provider.organizationId, provider.id) },
  };
}

export function presentSsoLogin(provider: SamlProviderRecord, urls: Urls) {
  return { id: provider.id, label: provider.label, startURL: urls.samlStart(provider.organizationId, provider.id) };
}
