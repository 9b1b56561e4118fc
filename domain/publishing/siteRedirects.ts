import { findPageById } from '../../engine/index.js';
import { loadSiteStructureCached, type SiteStructure } from '../../storage/siteStructure.js';
import { deleteSiteRedirect, findSiteRedirect, siteRedirectsBySource, insertSiteRedirect, updateSiteRedirect, type RedirectDestination, type SiteRedirectRecord } from '../../storage/siteRedirects.js';
import type { SiteRecord } from '../../storage/sites.js';
import type { ContentDeps } from '../common/deps.js';
import { invalidInput, missing } from '../common/errors.js';
import { readSpaceRevision } from '../spaces/index.js';

/** A destination must name a section, a site space, or a page of a site space's current revision, of this site. */
async function assertDestination(deps: Pick<ContentDeps, 'db' | 'repositories'>, site: SiteRecord, destination: RedirectDestination): Promise<void> {
  if ((await destinationSegments(deps, site, destination)) === null) {
    const named =
      destination.kind === 'site-section'
        ? `site section ${destination.siteSectionId}`
        : destination.kind === 'site-space'
          ? `site space ${destination.siteSpaceId}`
          : `page ${destination.pageId} of site space ${destination.siteSpaceId}`;
    throw invalidInput(`"destination" names ${named}, which is not on site ${site.id}`);
  }
}

export async function createSiteRedirect(deps: Pick<ContentDeps, 'db' | 'repositories'>, site: SiteRecord, input: { source: string; destination: RedirectDestination }): Promise<SiteRedirectRecord> {
  await assertDestination(deps, site, input.destination);
  return insertSiteRedirect(deps.db, site.id, input);
}

export async function siteRedirectOf(deps: Pick<ContentDeps, 'db'>, site: SiteRecord, id: string): Promise<SiteRedirectRecord> {
  const found = await findSiteRedirect(deps.db, site.id, id);
  if (!found) throw missing(`Redirect ${id} not found on site ${site.id}`);
  return found;
}

export async function changeSiteRedirect(
  deps: Pick<ContentDeps, 'db' | 'repositories'>,
  site: SiteRecord,
  id: string,
  changes: { source?: string; destination?: RedirectDestination },
): Promise<SiteRedirectRecord> {
  await siteRedirectOf(deps, site, id);
  if (changes.destination) await assertDestination(deps, site, changes.destination);
  return (await updateSiteRedirect(deps.db, site.id, id, changes)) ?? (await siteRedirectOf(deps, site, id));
}

export async function removeSiteRedirect(deps: Pick<ContentDeps, 'db'>, site: SiteRecord, id: string): Promise<void> {
  if (!(await deleteSiteRedirect(deps.db, site.id, id))) throw missing(`Redirect ${id} not found on site ${site.id}`);
}

/** The redirect of a source path, with the path segments (below the site's URL) it leads to; undefined when none leads anywhere. */
export async function redirectOfSource(
  deps: Pick<ContentDeps, 'db' | 'repositories'>,
  site: SiteRecord,
  source: string,
  structure?: SiteStructure,
): Promise<{ redirect: SiteRedirectRecord; segments: string[] } | undefined> {
  const redirect = (await siteRedirectsBySource(deps.db, site.id)).get(source.replace(/\/+$/, '') || '/');
  if (!redirect) return undefined;
  const segments = await destinationSegments(deps, site, redirect.destination, structure);
  return segments ? { redirect, segments } : undefined;
}

/**
 * Where a destination lives below the site's URL: a section's path (none for the default one),
 * then a site space's (none for its section's default), then a page's; null when it is gone.
 */
async function destinationSegments(deps: Pick<ContentDeps, 'db' | 'repositories'>, site: SiteRecord, destination: RedirectDestination, loaded?: SiteStructure): Promise<string[] | null> {
  const structure = loaded ?? (await loadSiteStructureCached(deps.db, site.id))!;
  const sectionSegments = (sectionId: string | null) => {
    const section = sectionId === null ? undefined : structure.sections.find((candidate) => candidate.id === sectionId);
    return section && !section.isDefault ? [section.path] : [];
  };
  if (destination.kind === 'site-section') {
    return structure.sections.some((section) => section.id === destination.siteSectionId) ? sectionSegments(destination.siteSectionId) : null;
  }
  const siteSpace = structure.siteSpaces.find((candidate) => candidate.id === destination.siteSpaceId);
  if (!siteSpace) return null;
  const base = [...sectionSegments(siteSpace.sectionId), ...(siteSpace.isDefault ? [] : [siteSpace.path])];
  if (destination.kind === 'site-space') return base;
  const page = findPageById(await readSpaceRevision(deps, siteSpace.spaceId), destination.pageId);
  if (!page || page.kind === 'link') return null;
  return [...base, ...page.path.split('/').filter(Boolean)];
}
