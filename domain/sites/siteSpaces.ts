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
 * Reads the spaces the site shows, with the caller's role on each and their revision. A space in
 * the bin is left out (its site spaces with it) until it is restored.
 */
export async function readSiteSpaces(
  deps: Pick<ContentDeps, 'db' | 'repositories'>,
  site: SiteRecord,
  structure: SiteStructure,
  organizationRole: MemberRole | null,
  /** Only these site spaces will be shown (one section's, say): the others' spaces aren't read. */
  wanted: (siteSpace: SiteSpaceRecord) => boolean = () => true,
): Promise<SiteSpacesView> {
  const ids = [...new Set(structure.siteSpaces.filter(wanted).map((siteSpace) => siteSpace.spaceId))];
  // A few spaces are looked up one by one; more, through one reading of the organization's access.
  const access = ids.length > 4 ? await organizationAccess(deps.db, site.organizationId, organizationRole) : undefined;
  const found = new Map<string, Omit<ShownSpace, 'revision'>>();
  await Promise.all(
    ids.map(async (id) => {
      const reachable = access?.spaces.get(id);
      const space = reachable?.space ?? (await findSpace(deps.db, id));
      if (!space) return;
      const role = access ? reachable?.role : await roleOnSpace(deps.db, organizationRole, space);
      found.set(id, { space, role });
    }),
  );
  const revisions = await primaryRevisions(deps, [...found.keys()]);
  const spaces = new Map<string, ShownSpace>([...found].map(([id, shown]) => [id, { ...shown, revision: revisions.get(id)! }]));
  const shown = { ...structure, siteSpaces: structure.siteSpaces.filter((siteSpace) => wanted(siteSpace) && spaces.has(siteSpace.spaceId)) };
  return { structure: shown, spaces };
}
