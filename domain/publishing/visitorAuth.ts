import { createHash } from 'node:crypto';
import { jwtVerify } from 'jose';
import type { SiteRecord } from '../../storage/sites.js';
import {
  ensureSitePublishingAuth,
  findSitePublishingAuth,
  regenerateSitePublishingKey,
  updateSitePublishingAuth,
  type SitePublishingAuthRecord,
  type VisitorAuthBackend,
} from '../../storage/sitePublishingAuth.js';
import type { Claims } from '../common/conditions.js';
import type { ContentDeps } from '../common/deps.js';

type Deps = Pick<ContentDeps, 'db'>;

/** A site's visitor authentication settings, its signing key made the first time they are asked for. */
export const publishingAuthOf = (deps: Deps, site: SiteRecord): Promise<SitePublishingAuthRecord> => ensureSitePublishingAuth(deps.db, site.id);

export async function changePublishingAuth(deps: Deps, site: SiteRecord, changes: { backend: VisitorAuthBackend; fallbackUrl?: string | null }): Promise<SitePublishingAuthRecord> {
  await ensureSitePublishingAuth(deps.db, site.id);
  await updateSitePublishingAuth(deps.db, site.id, changes);
  return (await findSitePublishingAuth(deps.db, site.id))!;
}

export async function regeneratePublishingKey(deps: Deps, site: SiteRecord): Promise<SitePublishingAuthRecord> {
  await ensureSitePublishingAuth(deps.db, site.id);
  await regenerateSitePublishingKey(deps.db, site.id);
  return (await findSitePublishingAuth(deps.db, site.id))!;
}

/** Names a key without revealing it: a site token carries its key's, so a regenerated key stops the tokens minted with the old one. */
export const keyFingerprint = (auth: SitePublishingAuthRecord) => createHash('sha256').update(auth.privateKey).digest('base64url').slice(0, 16);

// Registered JWT claims say how the token is valid, not who the visitor is.
const registeredClaims = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti']);

/** How far ahead a visitor JWT may expire: one that never does (no `exp`) or later than this is refused. */
export const visitorTokenLifetimeSeconds = 7 * 86_400;

/**
 * The claims of a visitor JWT signed (HS256) with the site's publishing key, with an expiry (`exp`)
 * at most visitorTokenLifetimeSeconds ahead and not passed, or null: what the site owners'
 * backend says about the visitor, for conditions to read as `visitor.claims.<name>`.
 */
export async function verifiedVisitorClaims(auth: SitePublishingAuthRecord, jwt: string): Promise<Claims | null> {
  try {
    const { payload } = await jwtVerify(jwt, new TextEncoder().encode(auth.privateKey), { algorithms: ['HS256'], requiredClaims: ['exp'] });
    if (payload.exp! > Date.now() / 1000 + visitorTokenLifetimeSeconds) return null;
    return Object.fromEntries(Object.entries(payload).filter(([name]) => !registeredClaims.has(name) && name !== 'unsigned'));
  } catch {
    return null;
  }
}
