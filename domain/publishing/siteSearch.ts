import type { SiteStructure, SiteSpaceRecord } from '../../storage/siteStructure.js';
import { searchSections } from '../../storage/search.js';
import type { ContentDeps } from '../common/deps.js';
import { invalidInput } from '../common/errors.js';
import type { Revision, RevisionPage } from '../../engine/index.js';
import { readSpaceRevision, refreshSearchIndex } from '../spaces/index.js';
import type { VisibleSiteSpace } from './publishedPages.js';
import type { Claims } from '../common/conditions.js';
import type { Database } from '../../storage/db.js';
import type { MemberRole } from '../../storage/members.js';
import type { Grants } from '../../storage/contentGrants.js';
import { loadSiteStructure } from '../../storage/siteStructure.js';
import { organizationAccess } from '../organizations/index.js';
import { answerQuestion, type Answer } from '../answers/index.js';
import { visibleStructure } from './siteTokens.js';

/**
 * Where a site search looks (upstream's SiteSearchScope, and the deprecated `mode` forms it
 * replaced), or the site spaces that show one space (a deprecated `spaceId`).
 */
export type SiteSearchScope =
  | { mode: 'default'; currentSiteSpace?: string; restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces' }
  | { mode: 'specific'; siteSpaceIds: string[] }
  | { mode: 'all' }
  | { mode: 'space'; spaceId: string };

/**
 * The site spaces a search covers, in the site's order, from the structure the caller sees:
 * `default`, each section's default site space (the root's without sections), plus
 * `currentSiteSpace` (with GitBook's renderer's `restrictTo`, which no spec has yet: that site
 * space alone, or the others); `specific`, those named (each must be a site space the caller
 * sees: a 400 otherwise); `all`, every one; `space`, those showing that space (a 400 if none does).
 */
export function siteSpacesInScope(structure: SiteStructure, scope: SiteSearchScope): SiteSpaceRecord[] {
  const known = new Map(structure.siteSpaces.map((siteSpace) => [siteSpace.id, siteSpace]));
  const wanted = (ids: string[], field: string) => {
    for (const id of ids) if (!known.has(id)) throw invalidInput(`"${field}" names ${id}, which is not a site space of this site`);
    return new Set(ids);
  };
  if (scope.mode === 'all') return structure.siteSpaces;
  if (scope.mode === 'space') {
    const showing = structure.siteSpaces.filter((siteSpace) => siteSpace.spaceId === scope.spaceId);
    if (!showing.length) throw invalidInput(`"spaceId" names ${scope.spaceId}, which no site space of this site shows`);
    return showing;
  }
  if (scope.mode === 'specific') {
    const ids = wanted(scope.siteSpaceIds, 'siteSpaceIds');
    return structure.siteSpaces.filter((siteSpace) => ids.has(siteSpace.id));
  }
  const current = scope.currentSiteSpace === undefined ? new Set<string>() : wanted([scope.currentSiteSpace], 'currentSiteSpace');
  if (scope.restrictTo === 'currentSiteSpace') return structure.siteSpaces.filter((siteSpace) => current.has(siteSpace.id));
  const others = scope.restrictTo === 'otherSiteSpaces';
  return structure.siteSpaces.filter((siteSpace) => (siteSpace.isDefault || current.has(siteSpace.id)) && !(others && current.has(siteSpace.id)));
}

/** A page found by a reader's search: its best sections first. */
export interface FoundPage {
  siteSpace: VisibleSiteSpace;
  pageId: string;
  title: string;
  path: string;
  ancestors: string[];
  sections: Array<{ id: string; title: string; excerpt: string }>;
}

/**
 * What a visitor's search of the site finds: every site space they see (conditions applied, hidden
 * site spaces left out), its index brought up to date first, pages in order of their best section.
 */
export async function searchPublishedSite(deps: Pick<ContentDeps, 'db' | 'repositories'>, siteSpaces: VisibleSiteSpace[], query: string, limit: number): Promise<FoundPage[]> {
  const bySpace = new Map(siteSpaces.map((siteSpace) => [siteSpace.spaceId, siteSpace]));
  await Promise.all([...bySpace.keys()].map((spaceId) => refreshSearchIndex(deps, spaceId)));
  // Hidden pages (and the pages under them) are left out, as the sidebar, llms.txt and the sitemap leave them.
  const unlisted = new Map(await Promise.all([...bySpace.keys()].map(async (spaceId) => [spaceId, unlistedPages(await readSpaceRevision(deps, spaceId))] as const)));
  const pages = new Map<string, FoundPage>();
  for (const hit of await searchSections(deps.db, [...bySpace.keys()], query, limit)) {
    if (unlisted.get(hit.spaceId)?.has(hit.pageId)) continue;
    const key = `${hit.spaceId}:${hit.pageId}`;
    const page = pages.get(key) ?? { siteSpace: bySpace.get(hit.spaceId)!, pageId: hit.pageId, title: hit.pageTitle, path: hit.pagePath, ancestors: hit.ancestors, sections: [] };
    page.sections.push({ id: hit.sectionId, title: hit.sectionTitle, excerpt: hit.excerpt() });
    pages.set(key, page);
  }
  return [...pages.values()];
}

/**
 * A visitor's question answered from the site spaces they see (docs/ask.md), hidden pages left
 * out as the search leaves them out.
 */
export async function answerOnSite(deps: Pick<ContentDeps, 'db' | 'repositories'>, site: { organizationId: string }, siteSpaces: VisibleSiteSpace[], question: string): Promise<Answer> {
  const spaceIds = [...new Set(siteSpaces.map((siteSpace) => siteSpace.spaceId))];
  await Promise.all(spaceIds.map((spaceId) => refreshSearchIndex(deps, spaceId)));
  const unlisted = new Map(await Promise.all(spaceIds.map(async (spaceId) => [spaceId, unlistedPages(await readSpaceRevision(deps, spaceId))] as const)));
  return answerQuestion(deps, spaceIds, question, { keep: (hit) => !unlisted.get(hit.spaceId)?.has(hit.pageId), organizationId: site.organizationId });
}

const unlistedByRevision = new WeakMap<Revision, Set<string>>();

/** The ids of a revision's hidden pages and of every page under them: what a site lists nowhere. */
function unlistedPages(revision: Revision): Set<string> {
  let unlisted = unlistedByRevision.get(revision);
  if (!unlisted) {
    const found = new Set<string>();
    const visit = (pages: RevisionPage[], hidden: boolean) => {
      for (const page of pages) {
        const pageHidden = hidden || page.meta.hidden === true;
        if (pageHidden) found.add(page.id);
        visit(page.pages, pageHidden);
      }
    };
    visit(revision.pages, false);
    unlisted = found;
    unlistedByRevision.set(revision, unlisted);
  }
  return unlisted;
}

/** Who reads a site through the API: a site token's visitor (with their claims), or a member with their role and grants. */
export type SiteReader = { claims: Claims } | { member: { organizationRole: MemberRole | null; grants: Grants } };

/**
 * The spaces of the site the reader sees, in the site's order, within `scope`: a site token's
 * visitor, the site spaces its claims' conditions let through; a member, those of spaces they reach.
 */
export async function siteSpaceIdsForReader(db: Database, site: { id: string; organizationId: string }, reader: SiteReader, scope: SiteSearchScope): Promise<string[]> {
  const loaded = await loadSiteStructure(db, site.id);
  let structure = 'claims' in reader ? visibleStructure(loaded, reader.claims) : loaded;
  if ('member' in reader) {
    const access = await organizationAccess(db, site.organizationId, reader.member.organizationRole, reader.member.grants);
    structure = { ...structure, siteSpaces: structure.siteSpaces.filter((siteSpace) => access.spaces.has(siteSpace.spaceId)) };
  }
  return [...new Set(siteSpacesInScope(structure, scope).map((siteSpace) => siteSpace.spaceId))];
}
