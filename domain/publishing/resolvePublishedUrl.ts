import type { Claims } from '../common/conditions.js';
import { visibleStructure } from './siteTokens.js';
import { redirectOfSource } from './siteRedirects.js';
import { movedPagePath, primaryBranch, readBranch, resolveRevision } from '../../engine/index.js';
import { findChangeRequest } from '../../storage/changeRequests.js';
import type { ContentDeps } from '../common/deps.js';
import { invalidInput, missing, notAuthenticated } from '../common/errors.js';
import { keyFingerprint, publishingAuthOf, verifiedVisitorClaims } from './visitorAuth.js';
import { readSitePreview, type SitePreviewGrant } from './sitePreview.js';
import { findSiteByHostname, findSiteByIdCached, isActiveShareKey, type SiteRecord } from '../../storage/sites.js';
import { loadSiteStructureCached, type SiteSectionRecord, type SiteSpaceRecord } from '../../storage/siteStructure.js';

/** What a published URL shows: the site, its section and site space, and the page path left over. */
export interface PublishedPlace {
  site: SiteRecord;
  section?: SiteSectionRecord;
  siteSpace: SiteSpaceRecord;
  /** The page's path below the site space ('' for its first page). */
  pathname: string;
  /** The URL path of the site space (ends with '/'), and of the site. */
  basePath: string;
  siteBasePath: string;
  /** The URL without query, share key or trailing noise: where this content lives. */
  canonicalUrl: string;
  /** No further site segment (a section's or a variant's path) can follow the ones the URL named: upstream's `complete`. */
  complete: boolean;
  /** The share link key the URL carried, for a share-link site. */
  shareKey?: string;
  claims: Claims;
  /** The fingerprint of the publishing key the visitor's JWT was signed with, when one was. */
  visitorKey?: string;
  /** The preview URL's grant, when the URL carried one: the token minted lasts no longer. */
  sitePreview?: SitePreviewGrant;
  /** A change request (its id) or a revision the URL previews (`~/changes/<n>/`, `~/revisions/<id>/`). */
  preview?: { changeRequest: string } | { revision: string };
}

/** Where a URL leads instead: a redirect's destination or a moved page on the site (`content`), or a visitor-auth site's fallback URL (`external`). */
export interface PublishedRedirect {
  redirect: string;
  target: 'content' | 'external';
  /** A site redirect's HTTP status (302, or 307/308 for a permanent one); others are 302. */
  status?: 302 | 307 | 308;
}

/** Who asks: the visitor JWT their site's backend signed, and claims nobody signed (which conditions read as `visitor.claims.unsigned`). */
export interface PublishedVisitor {
  jwt?: string;
  unsignedClaims?: Record<string, unknown>;
  /** When the JWT is wrong or expired: redirect to the fallback URL rather than refuse. */
  redirectOnError?: boolean;
}

const notPublished = (url: string) => missing(`No published content at ${url}`);

/**
 * Which published content a URL shows, the longest published prefix first: the site (this
 * server's `<publicBase>/sites/<id>/`, or the custom hostname recorded on it, under its basename),
 * then a section's path (else the default section), then a site space's path (else the section's
 * default), the rest being the page's path. Sections and site spaces whose condition fails for the
 * visitor's claims are not there. An unpublished site and a share-link site without an active key
 * of its own links (shareKeyOf) are a 404; a visitor-auth site needs a visitor JWT signed with its
 * publishing key (else its fallback URL, or a 401 without one). After the site space's path,
 * `~/changes/<n>/` and `~/revisions/<id>/` preview unpublished content (previewOf). A path that is the
 * source of one of the site's redirects, or where a page was before it moved (git history), answers
 * where it leads instead.
 */
export async function resolvePublishedUrl(
  deps: Pick<ContentDeps, 'db' | 'repositories' | 'dataDir'>,
  input: {
    url: string;
    publicBase: string;
    visitor?: PublishedVisitor;
    /** Whether the caller may see the space's unpublished content (change requests, any revision). */
    mayPreview?: (spaceId: string) => Promise<boolean>;
  },
): Promise<PublishedPlace | PublishedRedirect> {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw notPublished(input.url);
  }
  // A user name and password in the URL are nobody's business here: never echoed in what is built from it.
  url.username = '';
  url.password = '';
  const found = await siteOfUrl(deps, url, new URL(input.publicBase));
  if (!found) throw notPublished(input.url);
  const { site } = found;
  // A preview URL (getSitePublishingPreviewById) shows the site as it will be: published or not, to anyone holding it for its hour.
  const previewKey = url.searchParams.get('preview') ?? undefined;
  const sitePreview = previewKey ? await readSitePreview(deps, previewKey, site.id) : null;
  if (!site.published && !sitePreview) throw notPublished(input.url);
  const { shareKey, keyInPath } = await shareKeyOf(deps, site, url, found.siteBasePath);
  if (!sitePreview && site.visibility === 'share-link' && !shareKey) throw notPublished(input.url);
  // A key given as the first segment (GitBook's form) stays in the base paths, so the links built on them keep it.
  const siteBasePath = keyInPath ? `${found.siteBasePath}${shareKey!}/` : found.siteBasePath;
  const visitor = await visitorOf(deps, sitePreview ? { ...site, visibility: 'public' } : site, input.visitor ?? {}, url, siteBasePath);
  if ('redirect' in visitor) return visitor;
  const { claims, visitorKey } = visitor;
  const loaded = (await loadSiteStructureCached(deps.db, site.id))!;
  // A redirect's source is matched first: it may be a path nothing else answers any more.
  const source = url.pathname.slice(siteBasePath.length - 1);
  const redirected = source.length > 1 ? await redirectOfSource(deps, site, source, loaded) : undefined;
  if (redirected) {
    // A permanent redirect is 308 on a public site's live pages, 307 elsewhere (a browser keeps a 308: a preview or a shared link is no place for one); others 302.
    const status = redirected.redirect.permanent ? (site.visibility === 'public' && !sitePreview ? 308 : 307) : 302;
    if ('url' in redirected) return { redirect: redirected.url, target: 'external', status };
    const target = new URL(`${siteBasePath}${redirected.segments.map(encodeURIComponent).join('/')}`, url);
    if (shareKey && !keyInPath) target.searchParams.set('share', shareKey);
    if (sitePreview) target.searchParams.set('preview', previewKey!);
    // A redirect to the very path asked for (a wildcard made before its loop was refused) is no redirect.
    if (target.pathname.replace(/\/+$/, '') !== url.pathname.replace(/\/+$/, '')) return { redirect: target.toString(), target: 'content', status };
  }
  const structure = visibleStructure(loaded, claims);
  const segments = url.pathname.slice(siteBasePath.length).split('/').filter(Boolean).map(decodeSegment);
  let taken = 0;
  const sections = structure.sections;
  let section: SiteSectionRecord | undefined;
  // Complete: the URL named every site segment it could (section, variant) or none could follow;
  // a lookup that fell back to a default while others exist may be one of a longer URL's.
  let complete = true;
  if (sections.length > 0) {
    section = sections.find((candidate) => !candidate.isDefault && candidate.path === segments[0]);
    if (section) taken += 1;
    else {
      section = sections.find((candidate) => candidate.isDefault) ?? sections[0];
      complete &&= !sections.some((candidate) => candidate !== section);
    }
  }
  const siteSpaces = structure.siteSpaces.filter((siteSpace) => siteSpace.sectionId === (section?.id ?? null));
  let siteSpace = siteSpaces.find((candidate) => !candidate.isDefault && candidate.path === segments[taken]);
  if (siteSpace) taken += 1;
  else {
    siteSpace = siteSpaces.find((candidate) => candidate.isDefault) ?? siteSpaces[0];
    complete &&= !siteSpaces.some((candidate) => candidate !== siteSpace);
  }
  if (!siteSpace) throw notPublished(input.url);

  const canonicalPrefix = segments
    .slice(0, taken)
    .map((segment) => `${encodeURIComponent(segment)}/`)
    .join('');
  // A site preview URL's holder sees the site as its editor would: its spaces' change requests and revisions too.
  const previewed = await previewOf(deps, siteSpace.spaceId, segments.slice(taken), sitePreview ? { mayPreview: async () => true } : input);
  if (previewed === null) throw notPublished(input.url);
  if (previewed) taken += 3;
  const prefix = segments
    .slice(0, taken)
    .map((segment) => `${encodeURIComponent(segment)}/`)
    .join('');
  const basePath = `${siteBasePath}${prefix}`;
  const pathname = segments.slice(taken).join('/');
  // A page moved or renamed since keeps answering at its old path: with a redirect to where it is now.
  const repo = deps.repositories.open(siteSpace.spaceId);
  const head = !pathname ? null : previewed ? previewed.commit : await readBranch(repo, primaryBranch);
  const moved = head ? await movedPagePath(repo, head, pathname) : undefined;
  if (moved !== undefined) {
    const target = new URL(`${basePath}${moved.split('/').map(encodeURIComponent).join('/')}`, url);
    if (shareKey && !keyInPath) target.searchParams.set('share', shareKey);
    if (sitePreview) target.searchParams.set('preview', previewKey!);
    return { redirect: target.toString(), target: 'content' };
  }
  // A preview's canonical URL is the published page's.
  const canonical = new URL(`${found.siteBasePath}${canonicalPrefix}${segments.slice(taken).map(encodeURIComponent).join('/')}`, url);
  return {
    site,
    section,
    siteSpace,
    pathname,
    basePath,
    siteBasePath,
    canonicalUrl: canonical.toString(),
    complete,
    ...(shareKey ? { shareKey } : {}),
    claims,
    ...(visitorKey ? { visitorKey } : {}),
    ...(previewed ? { preview: previewed.preview } : {}),
    ...(sitePreview ? { sitePreview } : {}),
  };
}

/**
 * The share link key a URL of a share-link site carries, if it is one of the site's active links:
 * a `share` parameter (the form `urls.published` gives, which Quire's own renderer moves into a
 * cookie), or the first path segment below the site's base (GitBook's form,
 * `docs.example.com/<key>/<path>`: its renderer drops the query before it looks a URL up).
 */
async function shareKeyOf(deps: Pick<ContentDeps, 'db'>, site: SiteRecord, url: URL, siteBasePath: string): Promise<{ shareKey?: string; keyInPath: boolean }> {
  const parameter = url.searchParams.get('share');
  if (parameter) return (await isActiveShareKey(deps.db, site.id, parameter)) ? { shareKey: parameter, keyInPath: false } : { keyInPath: false };
  if (site.visibility !== 'share-link') return { keyInPath: false };
  // Taken as written: a key is base64url, which no escape spells, and the base paths are cut by its length.
  const segment = url.pathname.slice(siteBasePath.length).split('/')[0] ?? '';
  return looksLikeShareKey(segment) && (await isActiveShareKey(deps.db, site.id, segment)) ? { shareKey: segment, keyInPath: true } : { keyInPath: false };
}

/** What a share link's key looks like (24 random bytes, base64url, as storage makes them): a path segment of another shape is never looked up as one. */
export const looksLikeShareKey = (segment: string) => /^[A-Za-z0-9_-]{32}$/.test(segment);

/**
 * `~/changes/<number or id>/` or `~/revisions/<commit>/` right after the site space's path: the
 * change request's head or the revision, for a caller who may see the space's unpublished content
 * (a member who reads the space, or whoever holds a preview URL of the site).
 * Undefined when the URL previews nothing; null when it names a preview the caller can't have
 * (no such change request or revision, or not theirs to see: the same 404 for both).
 */
async function previewOf(
  deps: Pick<ContentDeps, 'db' | 'repositories'>,
  spaceId: string,
  rest: string[],
  input: { mayPreview?: (spaceId: string) => Promise<boolean> },
): Promise<{ preview: NonNullable<PublishedPlace['preview']>; commit: string } | null | undefined> {
  const [tilde, kind, reference] = rest;
  if (tilde !== '~' || (kind !== 'changes' && kind !== 'revisions') || !reference) return undefined;
  if (!input.mayPreview || !(await input.mayPreview(spaceId))) return null;
  const repo = deps.repositories.open(spaceId);
  if (kind === 'changes') {
    const changeRequest = await findChangeRequest(deps.db, spaceId, reference);
    const commit = changeRequest ? await readBranch(repo, changeRequest.branch) : null;
    return changeRequest && commit ? { preview: { changeRequest: changeRequest.id }, commit } : null;
  }
  if (!/^[0-9a-f]{40}$/.test(reference)) return null;
  try {
    return { preview: { revision: reference }, commit: await resolveRevision(repo, reference) };
  } catch {
    return null;
  }
}

/**
 * The visitor's claims: those of a JWT signed with the site's publishing key, beside the unsigned
 * ones. A visitor-auth site admits only a valid JWT: without one the visitor is sent to the
 * fallback URL (with the path they asked for as `location`, for the backend to send them back);
 * a wrong or expired one is refused unless the caller asked to be redirected on error. On other
 * sites a JWT that fails counts for nothing: the visitor is anonymous.
 */
async function visitorOf(
  deps: Pick<ContentDeps, 'db'>,
  site: SiteRecord,
  visitor: PublishedVisitor,
  url: URL,
  siteBasePath: string,
): Promise<{ claims: Claims; visitorKey?: string } | PublishedRedirect> {
  if (visitor.unsignedClaims && JSON.stringify(visitor.unsignedClaims).length > maxClaimsCharacters) {
    throw invalidInput(`"visitor.unsignedClaims" is longer than ${maxClaimsCharacters} characters as JSON: a site token carries them, so they stay small`);
  }
  const unsigned = visitor.unsignedClaims ? { unsigned: visitor.unsignedClaims } : {};
  if (visitor.jwt === undefined && site.visibility !== 'visitor-auth') return { claims: unsigned };
  const auth = await publishingAuthOf(deps, site);
  const signed = visitor.jwt === undefined || visitor.jwt.length > maxVisitorTokenCharacters ? null : await verifiedVisitorClaims(auth, visitor.jwt);
  if (signed) return { claims: { ...signed, ...unsigned }, visitorKey: keyFingerprint(auth) };
  if (site.visibility !== 'visitor-auth') return { claims: unsigned };
  if (visitor.jwt !== undefined && !visitor.redirectOnError) throw notAuthenticated(`The visitor token is wrong or expired for site ${site.id}: sign one with the site's publishing key`);
  if (!auth.fallbackUrl) throw notAuthenticated(`Site ${site.id} admits authenticated visitors only (a JWT signed with its publishing key), and has no fallback URL to send others to`);
  const fallback = new URL(auth.fallbackUrl);
  fallback.searchParams.set('location', `/${url.pathname.slice(siteBasePath.length)}`);
  return { redirect: fallback.toString(), target: 'external' };
}

/** The unsigned claims one lookup may bring (as JSON): 100 claims of 10 KB once minted a 1.3 MB site token. */
const maxClaimsCharacters = 4096;
/** The longest visitor JWT read: a site's backend signs a few claims, not megabytes. */
const maxVisitorTokenCharacters = 8192;

/** The share key a URL carries as its first path segment below its site's base (shareKeyOf), if it is an active one of a share-link site. */
export async function shareKeyInPath(deps: Pick<ContentDeps, 'db'>, url: string, publicBase: string): Promise<string | undefined> {
  const parsed = new URL(url);
  const found = await siteOfUrl(deps, parsed, new URL(publicBase));
  if (!found || found.site.visibility !== 'share-link' || parsed.searchParams.has('share')) return undefined;
  const { shareKey, keyInPath } = await shareKeyOf(deps, found.site, parsed, found.siteBasePath);
  return keyInPath ? shareKey : undefined;
}

/** The site a URL is on (this server's `/sites/<id>/`, or a custom hostname and basename recorded on a site), published or not, and its base path. */
export function siteOfPublishedUrl(deps: Pick<ContentDeps, 'db'>, url: string, publicBase: string): Promise<{ site: SiteRecord; siteBasePath: string } | undefined> {
  return siteOfUrl(deps, new URL(url), new URL(publicBase));
}

async function siteOfUrl(deps: Pick<ContentDeps, 'db'>, url: URL, base: URL): Promise<{ site: SiteRecord; siteBasePath: string } | undefined> {
  const basePath = base.pathname.replace(/\/+$/, '');
  if (url.host === base.host) {
    const match = new RegExp(`^${escapeRegExp(basePath)}/sites/([A-Za-z0-9_-]+)(?:/|$)`).exec(url.pathname);
    if (!match) return undefined;
    const site = await findSiteByIdCached(deps.db, match[1]!);
    return site && { site, siteBasePath: `${basePath}/sites/${site.id}/` };
  }
  const site = await findSiteByHostname(deps.db, url.hostname);
  if (!site) return undefined;
  const basename = site.basename ? `/${site.basename.replace(/^\/+|\/+$/g, '')}` : '';
  if (basename && url.pathname !== basename && !url.pathname.startsWith(`${basename}/`)) return undefined;
  return { site, siteBasePath: `${basename}/` };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
