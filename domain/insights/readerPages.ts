import { findPageById } from '../../engine/index.js';
import { loadSiteStructureCached } from '../../storage/siteStructure.js';
import type { ContentDeps } from '../common/deps.js';
import { readSpaceRevision } from '../spaces/index.js';

/**
 * The space and page a reader's beacon names, when the page is one of the site's spaces' current
 * pages: anyone may send a beacon, and only the site's own pages are counted.
 */
export async function pageOfSite(
  deps: Pick<ContentDeps, 'db' | 'repositories'>,
  siteId: string,
  space: string | undefined,
  page: string | undefined,
): Promise<{ space: string; page: string } | undefined> {
  if (!space || !page) return undefined;
  const structure = await loadSiteStructureCached(deps.db, siteId);
  if (!structure?.siteSpaces.some((siteSpace) => siteSpace.spaceId === space)) return undefined;
  const revision = await readSpaceRevision(deps, space).catch(() => undefined);
  return revision && findPageById(revision, page) ? { space, page } : undefined;
}
