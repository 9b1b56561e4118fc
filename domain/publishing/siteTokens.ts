import { jwtVerify, SignJWT } from 'jose';
import { isAncestor, primaryBranch, readBranch, resolveRevision } from '../../engine/index.js';
import { findSiteByIdCached, isActiveShareKey, type SiteRecord } from '../../storage/sites.js';
import { loadSiteStructureCached, type SiteStructure } from '../../storage/siteStructure.js';
import { findChangeRequest } from '../../storage/changeRequests.js';
import { findSpace, type SpaceRecord } from '../../storage/spaces.js';
import { evaluateCondition, type Claims } from '../common/conditions.js';
import type { ContentDeps } from '../common/deps.js';
import { instanceKey } from '../common/instanceKeys.js';
import { findSitePublishingAuth } from '../../storage/sitePublishingAuth.js';
import { keyFingerprint } from './visitorAuth.js';
import type { PublishedPlace } from './resolvePublishedUrl.js';

/** What a site API token says: for which site (and the place it was minted for) and which visitor. */
export interface SiteToken {
  kind: 'site';
  site: string;
  siteSpace: string;
  space: string;
  organization: string;
  /** The visitor's claims: their conditions decide which sections and site spaces the token reads. */
  claims: Claims;
  shareKey?: string;
  /** The fingerprint of the publishing key that signed the visitor's JWT: a regenerated key stops the token. */
  visitorKey?: string;
  /** The change request (id) or revision the token was minted to preview, in its `space`. */
  changeRequest?: string;
  revision?: string;
  /** Minted from a preview URL: reads the site published or not, until the preview's hour is up. */
  sitePreview?: true;
}

/** How long a site token lives: the renderer asks for a new one with each URL lookup. */
const lifetimeSeconds = 3600;
/**
 * Tokens are issued as of the start of a 15-minute window, so lookups of one place within a
 * window get the very same token (HS256 signs alike): GitBook's renderer keys its cache of
 * rendered pages by the token, which a fresh one per lookup would never let it reuse. A token
 * has 45 to 60 minutes to live.
 */
const issueWindowSeconds = 900;
const issuer = 'quire';

const keyOf = (deps: Pick<ContentDeps, 'db' | 'dataDir'>) => instanceKey(deps, 'site-tokens');

/** A signed JWT (HS256, the instance's key) for the content a URL lookup found; the renderer decodes it without checking. */
export async function mintSiteToken(deps: Pick<ContentDeps, 'db' | 'dataDir'>, place: PublishedPlace): Promise<string> {
  const token: SiteToken = {
    kind: 'site',
    site: place.site.id,
    siteSpace: place.siteSpace.id,
    space: place.siteSpace.spaceId,
    organization: place.site.organizationId,
    claims: place.claims,
    ...(place.shareKey ? { shareKey: place.shareKey } : {}),
    ...(place.visitorKey ? { visitorKey: place.visitorKey } : {}),
    ...(place.preview ?? {}),
    ...(place.sitePreview ? { sitePreview: true as const } : {}),
  };
  const issuedAt = Math.floor(Date.now() / 1000 / issueWindowSeconds) * issueWindowSeconds;
  const expires = Math.min(place.sitePreview?.expiresAt ?? Infinity, issuedAt + lifetimeSeconds);
  return new SignJWT({ ...token })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expires)
    .sign(await keyOf(deps));
}

/** Whether a bearer token has a JWT's shape (three base64url parts): read as a site token, not looked up as a user's. */
export const looksLikeJwt = (token: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);

/** The site token's claims, or null when its signature, issuer, kind or expiry is wrong. */
export async function readSiteToken(deps: Pick<ContentDeps, 'db' | 'dataDir'>, jwt: string): Promise<SiteToken | null> {
  const secret = await keyOf(deps); // outside the try: a database that is down is a 503, not a bad token
  try {
    const { payload } = await jwtVerify(jwt, secret, { issuer, algorithms: ['HS256'] });
    if (payload.kind !== 'site' || typeof payload.site !== 'string' || typeof payload.organization !== 'string') return null;
    return payload as unknown as SiteToken;
  } catch {
    return null;
  }
}

/**
 * The site a token reads (a preview's token: whatever the site's state, until it expires), while
 * it is published, its share link active (a share-link site) and
 * the publishing key that signed its visitor's JWT unchanged (a visitor-auth site, or signed
 * claims); undefined otherwise.
 */
export async function siteOfToken(deps: Pick<ContentDeps, 'db'>, token: SiteToken): Promise<SiteRecord | undefined> {
  const site = await findSiteByIdCached(deps.db, token.site);
  if (!site || site.organizationId !== token.organization) return undefined;
  if (token.sitePreview) return site;
  if (!site.published) return undefined;
  if (site.visibility === 'share-link' && !(token.shareKey && (await isActiveShareKey(deps.db, site.id, token.shareKey)))) return undefined;
  if (site.visibility === 'visitor-auth' || token.visitorKey !== undefined) {
    const auth = await findSitePublishingAuth(deps.db, site.id);
    if (!auth || token.visitorKey !== keyFingerprint(auth)) return undefined;
  }
  return site;
}

/**
 * A site's structure as a visitor with these claims sees it: sections and site spaces whose
 * condition fails are absent (a site space of an absent section too).
 */
export function visibleStructure(structure: SiteStructure, claims: Claims): SiteStructure {
  const visible = (condition: string | null) => {
    if (condition === null) return true;
    try {
      return evaluateCondition(condition, { visitor: { claims } });
    } catch {
      return false;
    }
  };
  const sections = structure.sections.filter((section) => visible(section.condition));
  const kept = new Set(sections.map((section) => section.id));
  return { ...structure, sections, siteSpaces: structure.siteSpaces.filter((siteSpace) => visible(siteSpace.condition) && (siteSpace.sectionId === null || kept.has(siteSpace.sectionId))) };
}

/**
 * The space a site token may read, or undefined: a space shown by one of the site's site spaces
 * whose section and own conditions hold for the token's claims, while the site is published and,
 * for a share-link site, while the token's share link is active. Checked on every request, so an
 * unpublished site or a revoked link stops its tokens at once.
 */
export async function spaceReadableBySiteToken(deps: Pick<ContentDeps, 'db'>, token: SiteToken, spaceId: string): Promise<SpaceRecord | undefined> {
  const site = await siteOfToken(deps, token);
  if (!site) return undefined;
  const structure = visibleStructure((await loadSiteStructureCached(deps.db, site.id))!, token.claims ?? {});
  if (!structure.siteSpaces.some((siteSpace) => siteSpace.spaceId === spaceId)) return undefined;
  const space = await findSpace(deps.db, spaceId);
  return space && space.organizationId === site.organizationId ? space : undefined;
}

/** Whether the token was minted to preview this change request (by id or number) of the space. */
export async function tokenPreviewsChangeRequest(deps: Pick<ContentDeps, 'db'>, token: SiteToken, spaceId: string, idOrNumber: string): Promise<boolean> {
  if (token.changeRequest === undefined || token.space !== spaceId) return false;
  return (await findChangeRequest(deps.db, spaceId, idOrNumber))?.id === token.changeRequest;
}

/**
 * Whether a site token reads this revision of the space: published content (isPublishedRevision),
 * the revision it was minted to preview, or a commit of the history of the change request it previews.
 */
export async function siteTokenReadsRevision(deps: Pick<ContentDeps, 'db' | 'repositories'>, token: SiteToken, space: SpaceRecord, revisionId: string): Promise<boolean> {
  if (await isPublishedRevision(deps, space, revisionId)) return true;
  if (token.space !== space.id) return false;
  if (token.revision !== undefined) return token.revision === revisionId;
  if (token.changeRequest === undefined || !/^[0-9a-f]{40}$/.test(revisionId)) return false;
  const changeRequest = await findChangeRequest(deps.db, space.id, token.changeRequest);
  const head = changeRequest ? await readBranch(deps.repositories.open(space.id), changeRequest.branch) : null;
  if (!head) return false;
  try {
    return head === revisionId || (await isAncestor(deps.repositories.open(space.id).gitdir, revisionId, head));
  } catch {
    return false;
  }
}

/** Whether a revision reference is published content of the space: its primary branch's head or a commit of its history. */
export async function isPublishedRevision(deps: Pick<ContentDeps, 'repositories'>, space: SpaceRecord, revisionId: string): Promise<boolean> {
  const repo = deps.repositories.open(space.id);
  const head = await readBranch(repo, primaryBranch, { sameTurn: true });
  if (!head) return false;
  if (revisionId === head || revisionId === primaryBranch) return true;
  if (!/^[0-9a-f]{40}$/.test(revisionId)) return false;
  try {
    return await isAncestor(repo.gitdir, await resolveRevision(repo, revisionId), head);
  } catch {
    return false;
  }
}
