import { findPageById, findPageByPath } from '../../engine/index.js';
import { loadSiteStructureCached, type SiteStructure } from '../../storage/siteStructure.js';
import {
  deleteSiteRedirect,
  findSiteRedirect,
  findSiteRedirectBySource,
  siteRedirectsBySource,
  insertSiteRedirect,
  updateSiteRedirect,
  type RedirectDestination,
  type RedirectOptions,
  type SiteRedirectRecord,
} from '../../storage/siteRedirects.js';
import type { SiteRecord } from '../../storage/sites.js';
import type { ContentDeps } from '../common/deps.js';
import { invalidInput, missing } from '../common/errors.js';
import { readSpaceRevision } from '../spaces/index.js';

type Deps = Pick<ContentDeps, 'db' | 'repositories'>;

/** A destination as written: one of the stored kinds, or a page named by its path in a space of the site (0.202.0's `path`). */
export type RedirectInputDestination = RedirectDestination | { kind: 'path'; spaceId: string; path: string };

/** Whether a source ends in a wildcard (`/docs/*`, `/old*`): it then matches every path it starts. */
export const isWildcard = (source: string) => source.endsWith('*');

/**
 * The destination to store: a `path` one is resolved now to the page it names, in the first site
 * space of the site showing that space; any other must name a section, a site space or a page
 * of a site space's current revision of this site, or be an http(s) URL.
 */
async function checkedDestination(deps: Deps, site: SiteRecord, destination: RedirectInputDestination): Promise<RedirectDestination> {
  if (destination.kind === 'path') {
    const structure = (await loadSiteStructureCached(deps.db, site.id))!;
    const siteSpace = structure.siteSpaces.find((candidate) => candidate.spaceId === destination.spaceId);
    if (!siteSpace) throw invalidInput(`"destination.spaceId" ${destination.spaceId} is not shown on site ${site.id}`);
    const page = findPageByPath(await readSpaceRevision(deps, siteSpace.spaceId), destination.path.replace(/^\/+|\/+$/g, ''));
    if (!page || page.kind === 'link') throw invalidInput(`"destination.path" ${destination.path} is no page of space ${destination.spaceId}`);
    return { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: page.id };
  }
  if (destination.kind === 'external') {
    // `format: uri` lets through what the URL parser refuses (a port past 65535): refused here, never at redirect time.
    if (!/^https?:\/\//i.test(destination.url) || !URL.canParse(destination.url)) throw invalidInput('"destination.url" must be an http or https URL');
    return destination;
  }
  if ((await destinationSegments(deps, site, destination)) === null) {
    const named =
      destination.kind === 'site-section'
        ? `site section ${destination.siteSectionId}`
        : destination.kind === 'site-space'
          ? `site space ${destination.siteSpaceId}`
          : `page ${destination.pageId} of site space ${destination.siteSpaceId}`;
    throw invalidInput(`"destination" names ${named}, which is not on site ${site.id}`);
  }
  return destination;
}

function checkedOptions(source: string | undefined, options: Partial<RedirectOptions>): void {
  if (options.captureWildcard && source !== undefined && !isWildcard(source)) throw invalidInput('"captureWildcard" needs a source ending in "*": there is nothing to capture');
}

export interface RedirectInput extends Partial<RedirectOptions> {
  source: string;
  destination: RedirectInputDestination;
}

export async function createSiteRedirect(deps: Deps, site: SiteRecord, input: RedirectInput): Promise<SiteRedirectRecord> {
  checkedOptions(input.source, input);
  const destination = await checkedDestination(deps, site, input.destination);
  await assertNoLoop(deps, site, input.source, destination);
  return insertSiteRedirect(deps.db, site.id, { ...input, destination });
}

/** A wildcard whose destination lies under its own prefix would send a reader round in circles: refused. */
async function assertNoLoop(deps: Deps, site: SiteRecord, source: string, destination: RedirectDestination): Promise<void> {
  if (!isWildcard(source) || destination.kind === 'external') return;
  const target = `/${((await destinationSegments(deps, site, destination)) ?? []).join('/')}`;
  const prefix = source.slice(0, -1);
  if (`${target}/`.startsWith(prefix) || target.startsWith(prefix)) throw invalidInput(`"destination" is itself under ${source}: the redirect would lead back to itself`);
}

export async function siteRedirectOf(deps: Pick<ContentDeps, 'db'>, site: SiteRecord, id: string): Promise<SiteRedirectRecord> {
  const found = await findSiteRedirect(deps.db, site.id, id);
  if (!found) throw missing(`Redirect ${id} not found on site ${site.id}`);
  return found;
}

export async function changeSiteRedirect(deps: Deps, site: SiteRecord, id: string, changes: Partial<RedirectInput>): Promise<SiteRedirectRecord> {
  const current = await siteRedirectOf(deps, site, id);
  checkedOptions(changes.source ?? current.source, { captureWildcard: changes.captureWildcard ?? current.captureWildcard });
  const { destination: input, ...rest } = changes;
  const destination = input ? await checkedDestination(deps, site, input) : undefined;
  await assertNoLoop(deps, site, changes.source ?? current.source, destination ?? current.destination);
  return (await updateSiteRedirect(deps.db, site.id, id, { ...rest, ...(destination ? { destination } : {}) })) ?? (await siteRedirectOf(deps, site, id));
}

export async function removeSiteRedirect(deps: Pick<ContentDeps, 'db'>, site: SiteRecord, id: string): Promise<void> {
  if (!(await deleteSiteRedirect(deps.db, site.id, id))) throw missing(`Redirect ${id} not found on site ${site.id}`);
}

/** One entry of bulkUpsertSiteRedirects, and what became of it. */
export type BulkRedirect = ({ source: string; intent?: 'live' | 'draft'; destination: RedirectInputDestination | null } & Partial<RedirectOptions>) | { source: string; intent: 'publish' };
export type BulkOutcome = { status: 'created' | 'updated'; source: string; id: string } | { status: 'deleted'; source: string } | { status: 'error'; source: string; error: string };

/**
 * Creates, updates or deletes (`destination: null`) each redirect by its source, one after the
 * other, each on its own: one that fails says why and the others still apply. Quire keeps no
 * draft redirects, so the `draft` and `publish` intents are errors.
 */
export async function upsertSiteRedirects(deps: Deps, site: SiteRecord, entries: BulkRedirect[]): Promise<BulkOutcome[]> {
  const outcomes: BulkOutcome[] = [];
  for (const entry of entries) {
    try {
      if (entry.intent === 'draft' || entry.intent === 'publish') throw invalidInput('Quire has no draft redirects: send the redirect live');
      const existing = await findSiteRedirectBySource(deps.db, site.id, entry.source);
      if (entry.destination === null) {
        if (!existing) throw missing(`Site ${site.id} has no redirect from ${entry.source}`);
        await removeSiteRedirect(deps, site, existing.id);
        outcomes.push({ status: 'deleted', source: entry.source });
      } else if (existing) {
        const updated = await changeSiteRedirect(deps, site, existing.id, { ...entry, destination: entry.destination });
        outcomes.push({ status: 'updated', source: entry.source, id: updated.id });
      } else {
        const created = await createSiteRedirect(deps, site, { ...entry, destination: entry.destination });
        outcomes.push({ status: 'created', source: entry.source, id: created.id });
      }
    } catch (error) {
      if (!(error instanceof Error) || !('code' in error)) throw error;
      outcomes.push({ status: 'error', source: entry.source, error: error.message });
    }
  }
  return outcomes;
}

/** Where a redirect leads: path segments below the site's URL, or an external URL; a wildcard's match carried on when asked. */
export type RedirectTarget = { redirect: SiteRedirectRecord } & ({ segments: string[] } | { url: string });

/**
 * The redirect of a source path, and where it leads; undefined when none matches or its
 * destination is gone. An exact source wins; then the longest wildcard source the path starts with.
 */
export async function redirectOfSource(deps: Deps, site: SiteRecord, path: string, structure?: SiteStructure): Promise<RedirectTarget | undefined> {
  const redirects = await siteRedirectsBySource(deps.db, site.id);
  const source = path.replace(/\/+$/, '') || '/';
  let redirect = redirects.get(source);
  let matched = '';
  if (!redirect) {
    for (const candidate of redirects.values()) {
      if (!isWildcard(candidate.source)) continue;
      const prefix = candidate.source.slice(0, -1);
      if ((path.startsWith(prefix) || `${path}/` === prefix) && (!redirect || prefix.length > redirect.source.length - 1)) {
        redirect = candidate;
        matched = path.startsWith(prefix) ? path.slice(prefix.length) : '';
      }
    }
  }
  if (!redirect) return undefined;
  const carried = redirect.captureWildcard ? matched.split('/').filter(Boolean) : [];
  if (redirect.destination.kind === 'external') {
    const url = new URL(redirect.destination.url);
    // The match is still percent-encoded as the request had it: decoded first, so it is encoded once.
    if (carried.length) url.pathname = `${url.pathname.replace(/\/+$/, '')}/${carried.map((segment) => encodeURIComponent(decodeURIComponentSafely(segment))).join('/')}`;
    return { redirect, url: url.toString() };
  }
  const segments = await destinationSegments(deps, site, redirect.destination, structure);
  return segments ? { redirect, segments: [...segments, ...carried.map(decodeURIComponentSafely)] } : undefined;
}

const decodeURIComponentSafely = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/**
 * Where a destination lives below the site's URL: a section's path (none for the default one),
 * then a site space's (none for its section's default), then a page's; null when it is gone.
 */
async function destinationSegments(deps: Deps, site: SiteRecord, destination: Exclude<RedirectDestination, { kind: 'external' }>, loaded?: SiteStructure): Promise<string[] | null> {
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
