import type { Database, Queryable } from '../../storage/db.js';
import { insertSiteSpace, listPublishedPlacesOfSpace, loadSiteStructure, setDefaultSection, setDefaultSiteSpace } from '../../storage/siteStructure.js';
import {
  deleteSite,
  findAdaptiveSchema,
  findSite,
  findSiteByHostname,
  insertSite,
  isActiveShareKey,
  updateSite,
  type AgentsContext,
  type SiteRecord,
  type SiteType,
  type SiteVisibility,
} from '../../storage/sites.js';
import { findSpace, type SpaceRecord } from '../../storage/spaces.js';
import { ConditionError, parseCondition } from '../common/conditions.js';
import { alreadyThere, invalidInput, missing } from '../common/errors.js';
import type { ContentDeps } from '../common/deps.js';
import { announceToRenderer } from '../common/rendererRevalidation.js';
import { undeclaredClaims } from './siteAdaptiveSchema.js';
import { positionAtEnd } from './sitePositions.js';
import { readableSpace } from '../organizations/index.js';
import { recordAudit, type Actor } from '../audit/index.js';

/** The site of the organization, or 404 as upstream answers it. */
export async function siteOf(db: Queryable, organizationId: string, siteId: string): Promise<SiteRecord> {
  const site = await findSite(db, organizationId, siteId);
  if (!site) throw missing(`Site ${siteId} not found`);
  return site;
}

/** A live space of the organization, named by the request field `field`. */
export async function spaceOfOrganization(db: Queryable, organizationId: string, spaceId: string, field: string): Promise<SpaceRecord> {
  const space = await findSpace(db, spaceId);
  if (!space || space.organizationId !== organizationId) throw invalidInput(`"${field}" ${spaceId} is not a space of the organization`);
  return space;
}

/**
 * Refuses spaces the user can't read, with the message a space of another organization gets: a
 * site shows its spaces to its readers, so only someone who reads a space may put it on one.
 */
export async function assertReadableSpaces(db: Database, organizationId: string, spaceIds: string[], readerId: string, field: string): Promise<void> {
  for (const spaceId of spaceIds) {
    if (!(await readableSpace(db, organizationId, spaceId, readerId))) throw invalidInput(`"${field}" ${spaceId} is not a space of the organization`);
  }
}

/** A URL path segment from a title: lower-case words joined by hyphens. */
export function slugOf(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** `base`, or `base-2`, `base-3`… : the first that no sibling uses. */
export function uniquePath(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n += 1) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * A condition as stored: parsed (400 with the position of a syntax error) and, when the site has
 * an adaptive schema, reading only the claims it declares. null removes; undefined leaves alone.
 */
export async function checkedCondition(db: Queryable, siteId: string, condition: string | null | undefined): Promise<string | null | undefined> {
  if (condition === undefined || condition === null) return condition;
  if (condition.trim() === '') return null;
  try {
    parseCondition(condition);
  } catch (error) {
    if (error instanceof ConditionError) throw invalidInput(`Invalid "condition": ${error.message}`);
    throw error;
  }
  const schema = await findAdaptiveSchema(db, siteId);
  const unknown = schema ? undeclaredClaims(condition, schema.jsonSchema) : [];
  if (unknown.length) throw invalidInput(`Invalid "condition": ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not declared by the site’s adaptive schema`);
  return condition;
}

export interface NewSite {
  organizationId: string;
  type: SiteType;
  title: string;
  visibility: SiteVisibility;
  spaceIds: string[];
}

/** A site with the given spaces at its root, the first of them its default. */
export async function createSite(db: Database, input: NewSite, readerId: string): Promise<string> {
  await assertReadableSpaces(db, input.organizationId, input.spaceIds, readerId, 'spaces');
  return db.transaction(async (tx) => {
    const spaces = [];
    for (const spaceId of input.spaceIds) spaces.push(await spaceOfOrganization(tx, input.organizationId, spaceId, 'spaces'));
    const siteId = await insertSite(tx, input);
    const paths: string[] = [];
    for (const [index, space] of spaces.entries()) {
      const path = uniquePath(slugOf(space.title, 'space'), paths);
      paths.push(path);
      await insertSiteSpace(tx, { siteId, sectionId: null, spaceId: space.id, path, condition: null, hidden: false, isDefault: index === 0, position: positionAtEnd([]) + index });
    }
    return siteId;
  });
}

export interface SiteUpdate {
  title?: string;
  visibility?: SiteVisibility;
  basename?: string;
  hostname?: string | null;
  adaptiveContent?: { enabled: boolean };
  agentsContext?: AgentsContext;
  defaultSiteSpace?: string;
  defaultSiteSection?: string;
  proxy?: string | null;
}

/** The site's settings; a new default section first, then a default site space at the root or in the default section. */
export async function updateSiteSettings(deps: Pick<ContentDeps, 'db' | 'jobs'>, actor: Actor, site: SiteRecord, update: SiteUpdate): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const before = (await findSite(tx, site.organizationId, site.id)) ?? site;
    if (update.hostname) {
      // One site per hostname: a reader's request on it must find one site.
      const holder = await findSiteByHostname(tx, update.hostname);
      if (holder && holder.id !== site.id) throw alreadyThere(`"hostname" ${update.hostname} is already the custom hostname of another site`);
    }
    if (update.visibility !== undefined && update.visibility !== before.visibility) {
      await recordAudit(tx, actor, site.organizationId, { action: 'site.visibility_changed', target: siteTarget(site), payload: { from: before.visibility, to: update.visibility } });
    }
    const structure = await loadSiteStructure(tx, site.id);
    if (update.defaultSiteSection !== undefined) {
      if (!structure.sections.some((section) => section.id === update.defaultSiteSection)) {
        throw invalidInput(`"defaultSiteSection" ${update.defaultSiteSection} is not a section of the site`);
      }
      await setDefaultSection(tx, site.id, update.defaultSiteSection);
    }
    if (update.defaultSiteSpace !== undefined) {
      const defaultSection = update.defaultSiteSection ?? structure.sections.find((section) => section.isDefault)?.id ?? null;
      const siteSpace = structure.siteSpaces.find((candidate) => candidate.id === update.defaultSiteSpace);
      if (!siteSpace || siteSpace.sectionId !== defaultSection) {
        throw invalidInput(`"defaultSiteSpace" ${update.defaultSiteSpace} is not a site space ${defaultSection ? 'of the default section' : 'at the root'} of the site`);
      }
      await setDefaultSiteSpace(tx, site.id, defaultSection, siteSpace.id);
    }
    await updateSite(tx, site.id, {
      title: update.title,
      visibility: update.visibility,
      basename: update.basename,
      hostname: update.hostname,
      proxyOrigin: update.proxy,
      adaptiveContent: update.adaptiveContent?.enabled,
      agentsContext: update.agentsContext,
    });
  });
  announceSiteChange(deps, site.id);
}

/**
 * Publishes or unpublishes a site, and tells a configured renderer its pages changed (never failing
 * the change: the announcement is a job of its own).
 */
export async function setSitePublished(deps: Pick<ContentDeps, 'db' | 'jobs'>, actor: Actor, site: SiteRecord, published: boolean): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const before = await findSite(tx, site.organizationId, site.id);
    await updateSite(tx, site.id, { published });
    // Publishing a published site changes nothing, and records nothing.
    if (before?.published !== published) await recordAudit(tx, actor, site.organizationId, { action: published ? 'site.published' : 'site.unpublished', target: siteTarget(site) });
  });
  announceSiteChange(deps, site.id);
}

const siteTarget = (site: SiteRecord) => ({ type: 'site', id: site.id, label: site.title });

/** A change of what a site shows (its settings, structure, publication), for a renderer's caches. */
export function announceSiteChange(deps: Pick<ContentDeps, 'jobs'>, siteId: string): void {
  announceToRenderer(deps, { siteId });
}

/**
 * Where a space is published: its first place on a published site that the caller may link to
 * (a share-link site only with an active key of that site's own links). The path segments below
 * the site's URL, and the key to carry; undefined when nowhere.
 */
export async function publishedPlaceOfSpace(db: Queryable, spaceId: string, shareKey: string | undefined): Promise<{ siteId: string; segments: string[]; shareKey?: string } | undefined> {
  for (const place of await listPublishedPlacesOfSpace(db, spaceId)) {
    const segments = [...(place.sectionPath !== null && !place.sectionIsDefault ? [place.sectionPath] : []), ...(place.siteSpaceIsDefault ? [] : [place.siteSpacePath])];
    if (place.visibility !== 'share-link') return { siteId: place.siteId, segments };
    if (shareKey !== undefined && (await isActiveShareKey(db, place.siteId, shareKey))) return { siteId: place.siteId, segments, shareKey };
  }
  return undefined;
}

/** Deletes a site of the organization; false when there was none. */
export function removeSite(db: Database, organizationId: string, siteId: string): Promise<boolean> {
  return db.transaction((tx) => deleteSite(tx, organizationId, siteId));
}
