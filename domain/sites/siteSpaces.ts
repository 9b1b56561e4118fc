import type { Grants } from '../../storage/contentGrants.js';
import type { MemberRole } from '../../storage/members.js';
import { loadSiteStructureCached, type SiteSpaceRecord, type SiteStructure } from '../../storage/siteStructure.js';
import { findSiteByIdCached, type SiteRecord } from '../../storage/sites.js';
import type { Database } from '../../storage/db.js';
import { findSpace, type SpaceRecord } from '../../storage/spaces.js';
import { organizationAccess, roleOnSpace } from '../organizations/index.js';
import type { ContentDeps } from '../common/deps.js';
import { primaryRevisions } from '../spaces/index.js';

/** A space a site shows, with the caller's role on it and its revision. */
export interface ShownSpace {
  space: SpaceRecord;
  role: MemberRole | undefined;
  revision: string;
}

/** A site's structure cut to the site spaces shown, and the spaces they show. */
export interface SiteSpacesView {
  structure: SiteStructure;
  spaces: Map<string, ShownSpace>;
}

/**
 * Who reads a site's spaces: a member (their organization role and grants), whose view leaves out
 * the spaces they can't reach, as their search does; or a site token, whose structure is already
 * cut to what its visitor may see (visibleStructure).
 */
export type SiteSpacesReader = { member: { role: MemberRole | null; grants: Grants } } | { siteToken: true };

/**
 * Reads the spaces the site shows, with the caller's role on each and their revision. A space in
 * the bin is left out (its site spaces with it) until it is restored, and so is one of another
 * organization (a transfer removes its site spaces; this keeps any left from showing).
 */
export async function readSiteSpaces(
  deps: Pick<ContentDeps, 'db' | 'repositories'>,
  site: SiteRecord,
  structure: SiteStructure,
  reader: SiteSpacesReader,
  /** Only these site spaces will be shown (one section's, say): the others' spaces aren't read. */
  wanted: (siteSpace: SiteSpaceRecord) => boolean = () => true,
): Promise<SiteSpacesView> {
  const ids = [...new Set(structure.siteSpaces.filter(wanted).map((siteSpace) => siteSpace.spaceId))];
  const { role, grants } = 'member' in reader ? reader.member : { role: null, grants: undefined };
  // A few spaces are looked up one by one; more, through one reading of the organization's access.
  const access = ids.length > 4 ? await organizationAccess(deps.db, site.organizationId, role, grants) : undefined;
  const found = new Map<string, Omit<ShownSpace, 'revision'>>();
  await Promise.all(
    ids.map(async (id) => {
      const reachable = access?.spaces.get(id);
      const space = reachable?.space ?? (await findSpace(deps.db, id));
      if (!space || space.organizationId !== site.organizationId) return;
      const spaceRole = access ? reachable?.role : await roleOnSpace(deps.db, role, space, grants);
      if ('member' in reader && spaceRole === undefined) return;
      found.set(id, { space, role: spaceRole });
    }),
  );
  const revisions = await primaryRevisions(deps, [...found.keys()]);
  const spaces = new Map<string, ShownSpace>([...found].map(([id, shown]) => [id, { ...shown, revision: revisions.get(id)! }]));
  const shown = { ...structure, siteSpaces: structure.siteSpaces.filter((siteSpace) => wanted(siteSpace) && spaces.has(siteSpace.spaceId)) };
  return { structure: shown, spaces };
}

/**
 * Whether a role given on the site counts for this caller (docs/permissions.md, Sites): the site
 * must be one of the organization's, and the caller must read every space it shows. A site's
 * previews, share links, publication and visitor tokens show all of its spaces: a grant on the
 * site must not reach a space the caller can't read.
 */
export async function siteGrantApplies(db: Database, organizationId: string, siteId: string, reader: { organizationRole: MemberRole | null; grants: Grants }): Promise<boolean> {
  const site = await findSiteByIdCached(db, siteId);
  if (!site || site.organizationId !== organizationId) return false;
  const structure = await loadSiteStructureCached(db, site.id);
  if (!structure || structure.siteSpaces.length === 0) return true;
  const access = await organizationAccess(db, organizationId, reader.organizationRole, reader.grants);
  return structure.siteSpaces.every((siteSpace) => access.spaces.has(siteSpace.spaceId));
}
