import type { SitePublishingAuthRecord } from '../../storage/sitePublishingAuth.js';

/** Upstream's SitePublishingAuth: the key is shown, to the site's admins only (the route's policy). */
export function presentSitePublishingAuth(auth: SitePublishingAuthRecord) {
  return { object: 'publishing-auth' as const, backend: auth.backend, privateKey: auth.privateKey, ...(auth.fallbackUrl ? { fallbackURL: auth.fallbackUrl } : {}) };
}
