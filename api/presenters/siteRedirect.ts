import type { BulkOutcome } from '../../domain/publishing/index.js';
import type { SiteRedirectRecord } from '../../storage/siteRedirects.js';

/** 0.202.0's SiteRedirect, field by field; Quire keeps no draft redirects. */
export function presentSiteRedirect(redirect: SiteRedirectRecord) {
  return {
    object: 'site-redirect' as const,
    id: redirect.id,
    source: redirect.source,
    draft: false,
    captureWildcard: redirect.captureWildcard,
    permanent: redirect.permanent,
    destination: redirect.destination,
    createdAt: redirect.createdAt,
    ...(redirect.updatedAt ? { updatedAt: redirect.updatedAt } : {}),
  };
}

/** bulkUpsertSiteRedirects' results, one per redirect sent, in their order. */
export function presentBulkOutcomes(outcomes: BulkOutcome[]) {
  return { results: outcomes.map((outcome) => ({ ...outcome, draft: false })) };
}
