import type { Grants } from '../../storage/contentGrants.js';
import type { MemberRole } from '../../storage/members.js';
import type { SiteSpaceRecord, SiteStructure } from '../../storage/siteStructure.js';
import type { SiteRecord } from '../../storage/sites.js';
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
