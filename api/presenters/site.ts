import type { AdaptiveSchemaRecord, ShareLinkRecord, SiteRecord } from '../../storage/sites.js';
import { sitePermissions, type RoleOrGuest } from '../policies/roles.js';
import type { AppContext } from '../context.js';
import type { Urls } from '../urls.js';

/** Where the published site lives on this server (served as a clear 404 page until rendering arrives). */
export const publishedSiteUrl = (urls: Urls, siteId: string) => `${urls.base}/sites/${siteId}/`;

/**
 * The URL of a published site, section or site space: absent while the site is unpublished, and
 * for a share-link site unless the request carried an active key of one of its links.
 */
export function publishedUrl(urls: Urls, site: SiteRecord, shareKey: string | undefined, segments: string[]): string | undefined {
  if (!site.published) return undefined;
  if (site.visibility === 'share-link' && !shareKey) return undefined;
  const url = publishedSiteUrl(urls, site.id) + segments.map((segment) => `${encodeURIComponent(segment)}/`).join('');
  return site.visibility === 'share-link' && shareKey ? `${url}?share=${encodeURIComponent(shareKey)}` : url;
}

/** A space's `urls.published`, from its place on a published site (domain/sites: publishedPlaceOfSpace). */
export function spacePublishedUrl(urls: Urls, place: { siteId: string; segments: string[]; shareKey?: string }): string {
  const url = publishedSiteUrl(urls, place.siteId) + place.segments.map((segment) => `${encodeURIComponent(segment)}/`).join('');
  return place.shareKey ? `${url}?share=${encodeURIComponent(place.shareKey)}` : url;
}

/** Who reads a site: a site token's visitor, or a member with their organization role (null: a guest). */
export const siteReaderOf = (ctx: AppContext): RoleOrGuest | 'visitor' => (ctx.state.siteToken ? 'visitor' : (ctx.state.role ?? null));

/**
 * A site in 0.146.0's shape with 0.202.0's additions (`appliedType`, `defaultLevel`, `permissions`,
 * `urls.preview`), which GitBook's renderer is built on. `reader`: the caller's organization role,
 * or `'visitor'` for a site token.
 */
export function presentSite(site: SiteRecord, urls: Urls, reader: RoleOrGuest | 'visitor') {
  const siteUrl = publishedSiteUrl(urls, site.id);
  return {
    object: 'site' as const,
    id: site.id,
    type: site.type,
    appliedType: site.type,
    title: site.title,
    ...(site.hostname ? { hostname: site.hostname } : {}),
    ...(site.basename ? { basename: site.basename } : {}),
    ...(site.proxyOrigin ? { proxy: { origin: site.proxyOrigin, target: siteUrl } } : {}),
    visibility: site.visibility,
    defaultLevel: 'inherit' as const,
    permissions: sitePermissions(reader),
    published: site.published,
    siteSpaces: site.siteSpaceCount,
    createdAt: site.createdAt,
    adaptiveContent: { enabled: site.adaptiveContent },
    agentsContext: site.agentsContext,
    features: [],
    urls: {
      location: urls.api(`/orgs/${site.organizationId}/sites/${site.id}`),
      app: urls.app(`/o/${site.organizationId}/sites/${site.id}`),
      ...(site.published ? { published: siteUrl } : {}),
      // Where the site is shown: unpublished, it needs the key getSitePublishingPreviewById adds.
      preview: siteUrl,
    },
  };
}

export function presentShareLink(site: SiteRecord, link: ShareLinkRecord, urls: Urls) {
  return {
    object: 'share-link' as const,
    id: link.id,
    createdAt: link.createdAt,
    ...(link.name !== null ? { name: link.name } : {}),
    active: link.active,
    urls: { published: `${publishedSiteUrl(urls, site.id)}?share=${encodeURIComponent(link.key)}` },
  };
}

export function presentAdaptiveSchema(schema: AdaptiveSchemaRecord) {
  return { object: 'site-adaptive-schema' as const, jsonSchema: schema.jsonSchema, updatedAt: schema.updatedAt };
}
