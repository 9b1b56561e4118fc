import type { SiteRedirectRecord } from '../../storage/siteRedirects.js';

/** Upstream's SiteRedirect, field by field. */
export function presentSiteRedirect(redirect: SiteRedirectRecord) {
  return { object: 'site-redirect' as const, id: redirect.id, source: redirect.source, destination: redirect.destination };
}
