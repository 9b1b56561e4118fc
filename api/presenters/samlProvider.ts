import type { SamlProviderRecord } from '../../storage/samlProviders.js';
import type { TeamRecord } from '../../storage/teams.js';
import type { RoleOrGuest } from '../policies/roles.js';
import type { Urls } from '../urls.js';
import { presentTeam } from './team.js';

/**
 * A provider is `active` once it knows the identity provider's URL, entity id and certificate.
 * Until then `ssoURL` reads `about:blank`: the upstream schema requires a URI there.
 */
export function presentSamlProvider(provider: SamlProviderRecord, defaultTeam: TeamRecord | undefined, callerRole: RoleOrGuest, urls: Urls) {
  const complete = Boolean(provider.ssoURL && provider.entityID && provider.certificate);
  return {
    object: 'saml-provider' as const,
    id: provider.id,
    label: provider.label,
    ssoURL: provider.ssoURL ?? 'about:blank',
    entityID: provider.entityID ?? '',
    certificate: provider.certificate ?? '',
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
