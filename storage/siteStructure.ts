import type { Database, Queryable } from './db.js';
import { newId } from './ids.js';

export interface SiteSectionRecord {
  id: string;
  siteId: string;
  groupId: string | null;
  title: string;
  description: string | null;
  path: string;
  condition: string | null;
  icon: string | null;
  isDefault: boolean;
  position: number;
}

export interface SiteSectionGroupRecord {
  id: string;
  siteId: string;
  parentId: string | null;
  title: string;
  icon: string | null;
  position: number;
}

export interface SiteSpaceRecord {
  id: string;
  siteId: string;
  sectionId: string | null;
  spaceId: string;
  path: string;
  condition: string | null;
  hidden: boolean;
  isDefault: boolean;
  position: number;
}

/** Everything a site is made of, each list in its order (position, then id). */
export interface SiteStructure {
  sections: SiteSectionRecord[];
  groups: SiteSectionGroupRecord[];
  siteSpaces: SiteSpaceRecord[];
}

interface SectionRow {
  id: string;
  site_id: string;
  group_id: string | null;
  title: string;
  description: string | null;
  path: string;
  condition: string | null;
  icon: string | null;
  is_default: number;
  position: number;
}
interface GroupRow {
  id: string;
  site_id: string;
  parent_id: string | null;
  title: string;
  icon: string | null;
  position: number;
}
interface SiteSpaceRow {
  id: string;
  site_id: string;
  section_id: string | null;
  space_id: string;
  path: string;
  condition: string | null;
  hidden: number;
  is_default: number;
  position: number;
}

const toSection = (row: SectionRow): SiteSectionRecord => ({
  id: row.id,
  siteId: row.site_id,
  groupId: row.group_id,
  title: row.title,
  description: row.description,
  path: row.path,
  condition: row.condition,
  icon: row.icon,
  isDefault: row.is_default === 1,
  position: row.position,
});
const toGroup = (row: GroupRow): SiteSectionGroupRecord => ({ id: row.id, siteId: row.site_id, parentId: row.parent_id, title: row.title, icon: row.icon, position: row.position });
const toSiteSpace = (row: SiteSpaceRow): SiteSpaceRecord => ({
  id: row.id,
  siteId: row.site_id,
  sectionId: row.section_id,
  spaceId: row.space_id,
  path: row.path,
  condition: row.condition,
  hidden: row.hidden === 1,
  isDefault: row.is_default === 1,
  position: row.position,
});

export async function loadSiteStructure(db: Queryable, siteId: string): Promise<SiteStructure> {
  const [sections, groups, siteSpaces] = await Promise.all([
    db.all<SectionRow>('SELECT * FROM site_sections WHERE site_id = ? ORDER BY position, id', [siteId]),
    db.all<GroupRow>('SELECT * FROM site_section_groups WHERE site_id = ? ORDER BY position, id', [siteId]),
    db.all<SiteSpaceRow>('SELECT * FROM site_spaces WHERE site_id = ? ORDER BY position, id', [siteId]),
  ]);
  return { sections: sections.map(toSection), groups: groups.map(toGroup), siteSpaces: siteSpaces.map(toSiteSpace) };
}

/** loadSiteStructure through the read cache (every URL lookup and site token check reads it). */
export function loadSiteStructureCached(db: Database, siteId: string): Promise<SiteStructure | undefined> {
  return db.cached(`site-structure:${siteId}`, ['site_sections', 'site_section_groups', 'site_spaces'], () => loadSiteStructure(db, siteId));
}

export async function insertSection(db: Queryable, input: Omit<SiteSectionRecord, 'id'>): Promise<SiteSectionRecord> {
  const section = { id: newId(), ...input };
  await db.run(`INSERT INTO site_sections (id, site_id, group_id, title, description, path, condition, icon, is_default, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
    section.id,
    section.siteId,
    section.groupId,
    section.title,
    section.description,
    section.path,
    section.condition,
    section.icon,
    section.isDefault ? 1 : 0,
    section.position,
  ]);
  return section;
}

export async function insertGroup(db: Queryable, input: Omit<SiteSectionGroupRecord, 'id'>): Promise<SiteSectionGroupRecord> {
  const group = { id: newId(), ...input };
  await db.run('INSERT INTO site_section_groups (id, site_id, parent_id, title, icon, position) VALUES (?, ?, ?, ?, ?, ?)', [
    group.id,
    group.siteId,
    group.parentId,
    group.title,
    group.icon,
    group.position,
  ]);
  return group;
}

export async function insertSiteSpace(db: Queryable, input: Omit<SiteSpaceRecord, 'id'>): Promise<SiteSpaceRecord> {
  const siteSpace = { id: newId(), ...input };
  await db.run('INSERT INTO site_spaces (id, site_id, section_id, space_id, path, condition, hidden, is_default, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
    siteSpace.id,
    siteSpace.siteId,
    siteSpace.sectionId,
    siteSpace.spaceId,
    siteSpace.path,
    siteSpace.condition,
    siteSpace.hidden ? 1 : 0,
    siteSpace.isDefault ? 1 : 0,
    siteSpace.position,
  ]);
  return siteSpace;
}

type Changes = Record<string, string | number | boolean | null | undefined>;

/** Sets the given columns (undefined: left alone) of one row of a structure table. */
async function updateRow(db: Queryable, table: string, id: string, changes: Changes): Promise<void> {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return;
  await db.run(`UPDATE ${table} SET ${entries.map(([column]) => `${column} = ?`).join(', ')} WHERE id = ?`, [
    ...entries.map(([, value]) => (typeof value === 'boolean' ? (value ? 1 : 0) : value)),
    id,
  ]);
}

export const updateSection = (
  db: Queryable,
  id: string,
  changes: { title?: string; description?: string | null; path?: string; condition?: string | null; icon?: string | null; groupId?: string | null; position?: number },
) =>
  updateRow(db, 'site_sections', id, {
    title: changes.title,
    description: changes.description,
    path: changes.path,
    condition: changes.condition,
    icon: changes.icon,
    group_id: changes.groupId,
    position: changes.position,
  });

export const updateGroup = (db: Queryable, id: string, changes: { title?: string; icon?: string | null; parentId?: string | null; position?: number }) =>
  updateRow(db, 'site_section_groups', id, { title: changes.title, icon: changes.icon, parent_id: changes.parentId, position: changes.position });

export const updateSiteSpace = (db: Queryable, id: string, changes: { path?: string; condition?: string | null; spaceId?: string; hidden?: boolean; position?: number }) =>
  updateRow(db, 'site_spaces', id, { path: changes.path, condition: changes.condition, space_id: changes.spaceId, hidden: changes.hidden, position: changes.position });

/** Rewrites the positions of one set of siblings (rare: when repeated moves wore a gap down). */
export async function renumber(db: Queryable, items: Array<{ table: 'site_sections' | 'site_section_groups' | 'site_spaces'; id: string; position: number }>): Promise<void> {
  for (const item of items) await db.run(`UPDATE ${item.table} SET position = ? WHERE id = ?`, [item.position, item.id]);
}

/** Makes this section the site's one default. */
/** Moves the site spaces at the root of a site into a section (the first section a site gets gathers them). */
export async function gatherRootSiteSpaces(db: Queryable, siteId: string, sectionId: string): Promise<void> {
  await db.run('UPDATE site_spaces SET section_id = ? WHERE site_id = ? AND section_id IS NULL', [sectionId, siteId]);
}

export async function setDefaultSection(db: Queryable, siteId: string, sectionId: string): Promise<void> {
  await db.run('UPDATE site_sections SET is_default = CASE WHEN id = ? THEN 1 ELSE 0 END WHERE site_id = ?', [sectionId, siteId]);
}

/** Makes this site space the one default of its section (or of the site's root). */
export async function setDefaultSiteSpace(db: Queryable, siteId: string, sectionId: string | null, siteSpaceId: string): Promise<void> {
  await db.run('UPDATE site_spaces SET is_default = CASE WHEN id = ? THEN 1 ELSE 0 END WHERE site_id = ? AND section_id IS ?', [siteSpaceId, siteId, sectionId]);
}

export async function deleteSection(db: Queryable, siteId: string, sectionId: string): Promise<boolean> {
  await db.run('DELETE FROM site_spaces WHERE site_id = ? AND section_id = ?', [siteId, sectionId]);
  const { changes } = await db.run('DELETE FROM site_sections WHERE id = ? AND site_id = ?', [sectionId, siteId]);
  return changes > 0;
}

export async function deleteGroup(db: Queryable, siteId: string, groupId: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM site_section_groups WHERE id = ? AND site_id = ?', [groupId, siteId]);
  return changes > 0;
}

export async function deleteSiteSpace(db: Queryable, siteId: string, siteSpaceId: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM site_spaces WHERE id = ? AND site_id = ?', [siteSpaceId, siteId]);
  return changes > 0;
}

/**
 * When a space is purged or leaves its organization its site spaces go, and where one was a
 * default, the first site space left beside it becomes the default (the rows of the space itself
 * go by their foreign key too). Returns the sites that showed it.
 */
export async function removeSiteSpacesOfSpace(db: Queryable, spaceId: string): Promise<string[]> {
  const rows = await db.all<{ site_id: string; section_id: string | null; is_default: number }>('SELECT site_id, section_id, is_default FROM site_spaces WHERE space_id = ?', [spaceId]);
  await db.run('DELETE FROM site_spaces WHERE space_id = ?', [spaceId]);
  const places = new Map(rows.filter((row) => row.is_default === 1).map((row) => [`${row.site_id}\n${row.section_id ?? ''}`, row]));
  for (const place of places.values()) {
    await db.run(`UPDATE site_spaces SET is_default = 1 WHERE id = (SELECT id FROM site_spaces WHERE site_id = ? AND section_id IS ? ORDER BY position, id LIMIT 1)`, [
      place.site_id,
      place.section_id,
    ]);
  }
  return [...new Set(rows.map((row) => row.site_id))];
}

export interface PublishedPlace {
  siteId: string;
  visibility: string;
  siteSpacePath: string;
  siteSpaceIsDefault: boolean;
  sectionPath: string | null;
  sectionIsDefault: boolean;
}

/** Where the space is shown on published sites, oldest site first. */
export async function listPublishedPlacesOfSpace(db: Queryable, spaceId: string): Promise<PublishedPlace[]> {
  const rows = await db.all<{ site_id: string; visibility: string; path: string; is_default: number; section_path: string | null; section_default: number | null }>(
    `SELECT sites.id AS site_id, sites.visibility, site_spaces.path, site_spaces.is_default, site_sections.path AS section_path, site_sections.is_default AS section_default
     FROM site_spaces JOIN sites ON sites.id = site_spaces.site_id LEFT JOIN site_sections ON site_sections.id = site_spaces.section_id
     WHERE site_spaces.space_id = ? AND sites.published = 1 ORDER BY sites.created_at, sites.id, site_spaces.position`,
    [spaceId],
  );
  return rows.map((row) => ({
    siteId: row.site_id,
    visibility: row.visibility,
    siteSpacePath: row.path,
    siteSpaceIsDefault: row.is_default === 1,
    sectionPath: row.section_path,
    sectionIsDefault: row.section_default === 1,
  }));
}
