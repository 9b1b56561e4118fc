import type { PublishedPlace } from '../../domain/publishing/index.js';

/** Upstream's PublishedSiteContent, field by field. */
export function presentPublishedContent(place: PublishedPlace, apiToken: string) {
  return {
    site: place.site.id,
    ...(place.section ? { siteSection: place.section.id } : {}),
    siteSpace: place.siteSpace.id,
    space: place.siteSpace.spaceId,
    ...(place.preview ?? {}),
    pathname: place.pathname,
    basePath: place.basePath,
    siteBasePath: place.siteBasePath,
    apiToken,
    organization: place.site.organizationId,
    ...(place.shareKey ? { shareKey: place.shareKey } : {}),
    complete: place.complete,
    canonicalUrl: place.canonicalUrl,
  };
}
