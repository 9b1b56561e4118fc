import { jwtVerify, SignJWT } from 'jose';
import { loadSiteStructureCached } from '../../storage/siteStructure.js';
import type { SiteRecord } from '../../storage/sites.js';
import type { ContentDeps } from '../common/deps.js';
import { invalidInput } from '../common/errors.js';
import { instanceKey } from '../common/instanceKeys.js';
import type { Customization } from '../sites/index.js';

/** How long a preview URL works: upstream's hour. */
export const previewLifetimeSeconds = 3600;
const issuer = 'quire';
const audience = 'site-preview';

const keyOf = (deps: Pick<ContentDeps, 'db' | 'dataDir'>) => instanceKey(deps, 'site-previews');

/** What a preview URL grants: the site, published or not, whatever its visibility, until `expiresAt` (seconds). */
export interface SitePreviewGrant {
  site: string;
  expiresAt: number;
  /** Unsaved customization the preview shows over the site's (the app's live preview). */
  customization?: Customization;
}

/**
 * A preview of the site, for an hour: the key that goes in the URL's `preview` query parameter,
 * and the path segments of the site space to open (the default one when none is named).
 */
export async function mintSitePreview(
  deps: Pick<ContentDeps, 'db' | 'dataDir'>,
  site: SiteRecord,
  siteSpaceId: string | undefined,
  customization?: Customization,
): Promise<{ key: string; segments: string[] }> {
  const structure = (await loadSiteStructureCached(deps.db, site.id))!;
  let segments: string[] = [];
  if (siteSpaceId !== undefined) {
    const siteSpace = structure.siteSpaces.find((candidate) => candidate.id === siteSpaceId);
    if (!siteSpace) throw invalidInput(`"siteSpace" ${siteSpaceId} is not a site space of site ${site.id}`);
    const section = siteSpace.sectionId === null ? undefined : structure.sections.find((candidate) => candidate.id === siteSpace.sectionId);
    segments = [...(section && !section.isDefault ? [section.path] : []), ...(siteSpace.isDefault ? [] : [siteSpace.path])];
  }
  const key = await new SignJWT({ site: site.id, ...(customization ? { customization } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(`${previewLifetimeSeconds}s`)
    .sign(await keyOf(deps));
  return { key, segments };
}

/** The grant of a preview key for this site, or null when it is another site's, forged or expired. */
export async function readSitePreview(deps: Pick<ContentDeps, 'db' | 'dataDir'>, key: string, siteId: string): Promise<SitePreviewGrant | null> {
  const secret = await keyOf(deps); // outside the try: a database that is down is a 503, not a bad key
  try {
    const { payload } = await jwtVerify(key, secret, { issuer, audience, algorithms: ['HS256'] });
    if (payload.site !== siteId || typeof payload.exp !== 'number') return null;
    const customization = typeof payload.customization === 'object' && payload.customization !== null ? (payload.customization as Customization) : undefined;
    return { site: siteId, expiresAt: payload.exp, ...(customization ? { customization } : {}) };
  } catch {
    return null;
  }
}
