import type { Transaction } from '../../storage/db.js';
import {
  deleteGroup,
  deleteSection,
  deleteSiteSpace,
  gatherRootSiteSpaces,
  insertGroup,
  insertSection,
  insertSiteSpace,
  loadSiteStructure,
  renumber,
  setDefaultSection,
  setDefaultSiteSpace,
  updateGroup,
  updateSection,
  updateSiteSpace,
  type SiteStructure,
} from '../../storage/siteStructure.js';
import type { SiteRecord } from '../../storage/sites.js';
import { readableSpace, roleWhere } from '../organizations/index.js';
import { invalidInput, missing, notAllowed } from '../common/errors.js';
import { duplicateSpace } from '../spaces/index.js';
import { memberRoles, type MemberRole } from '../../storage/members.js';
import type { Grants } from '../../storage/contentGrants.js';
import type { UserRecord } from '../../storage/users.js';
import { placeAmong, positionAtEnd, type Placement, type Sibling } from './sitePositions.js';
import type { ContentDeps } from '../common/deps.js';
import { announceSiteChange, assertReadableSpaces, checkedCondition, slugOf, spaceOfOrganization, uniquePath } from './sites.js';

type StructureDeps = Pick<ContentDeps, 'db' | 'jobs'>;

/** A change of a site's structure, in one transaction: once it is committed, a published site's renderer is told its pages changed. */
async function structureChange<T>(deps: StructureDeps, site: SiteRecord, work: (tx: Transaction) => Promise<T>): Promise<T> {
  const result = await deps.db.transaction(work);
  if (site.published) announceSiteChange(deps, site.id);
  return result;
}

type Kind = 'site-section' | 'site-section-group' | 'site-space';
const tableOf = { 'site-section': 'site_sections', 'site-section-group': 'site_section_groups', 'site-space': 'site_spaces' } as const;
const nameOf = { 'site-section': 'Site section', 'site-section-group': 'Site section group', 'site-space': 'Site space' } as const;
export type Ref = { kind: Kind; id: string };
export interface MovePosition {
  before?: Ref;
  after?: Ref;
}

/** Sections and groups directly under a group (null: the site's root), in their order. */
export function sectionSiblings(structure: SiteStructure, groupId: string | null): Sibling[] {
  const sections = structure.sections.filter((section) => section.groupId === groupId).map((section) => ({ kind: 'site-section', id: section.id, position: section.position }));
  const groups = structure.groups.filter((group) => group.parentId === groupId).map((group) => ({ kind: 'site-section-group', id: group.id, position: group.position }));
  return [...sections, ...groups].sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
}

/** Site spaces of a section (null: the site's root), in their order. */
export function siteSpaceSiblings(structure: SiteStructure, sectionId: string | null): Sibling[] {
  return structure.siteSpaces.filter((siteSpace) => siteSpace.sectionId === sectionId).map((siteSpace) => ({ kind: 'site-space', id: siteSpace.id, position: siteSpace.position }));
}

function found<T extends { id: string }>(items: T[], id: string, kind: Kind): T {
  const item = items.find((candidate) => candidate.id === id);
  if (!item) throw missing(`${nameOf[kind]} ${id} not found`);
  return item;
}

async function place(tx: Transaction, placement: Placement): Promise<number> {
  if (placement.renumbered)
    await renumber(
      tx,
      placement.renumbered.map((sibling) => ({ table: tableOf[sibling.kind as Kind], id: sibling.id, position: sibling.position })),
    );
  return placement.position;
}

const describeRef = (what: string) => (ref: { kind: string; id: string }) => `${ref.kind} ${ref.id} is not a sibling of the ${what}`;

function sectionTitle(title: string | null | undefined, spaceTitle: string): string {
  const chosen = (title ?? spaceTitle).trim();
  return chosen.length >= 2 ? chosen : 'Untitled section';
}

/**
 * A new section holding the space as its first site space. A site whose spaces sat at its root
 * gets them gathered into a first section (the default) before it.
 */
export async function addSection(deps: StructureDeps, site: SiteRecord, input: { spaceId: string; title?: string | null; icon?: string | null }, readerId: string): Promise<string> {
  await assertReadableSpaces(deps.db, site.organizationId, [input.spaceId], readerId, 'spaceId');
  return structureChange(deps, site, async (tx) => {
    const space = await spaceOfOrganization(tx, site.organizationId, input.spaceId, 'spaceId');
    const structure = await loadSiteStructure(tx, site.id);
    const paths = structure.sections.map((section) => section.path);
    const rootSpaces = structure.siteSpaces.filter((siteSpace) => siteSpace.sectionId === null);
    let hasDefault = structure.sections.length > 0;
    if (rootSpaces.length > 0 && structure.sections.length === 0) {
      const first = await spaceOfOrganization(tx, site.organizationId, (rootSpaces.find((siteSpace) => siteSpace.isDefault) ?? rootSpaces[0]!).spaceId, 'spaceId');
      const title = sectionTitle(null, first.title);
      const gathered = await insertSection(tx, {
        siteId: site.id,
        groupId: null,
        title,
        description: null,
        path: uniquePath(slugOf(title, 'section'), paths),
        condition: null,
        icon: null,
        isDefault: true,
        position: 1,
      });
      paths.push(gathered.path);
      await gatherRootSiteSpaces(tx, site.id, gathered.id);
      structure.sections.push(gathered);
      hasDefault = true;
    }
    const title = sectionTitle(input.title, space.title);
    const section = await insertSection(tx, {
      siteId: site.id,
      groupId: null,
      title,
      description: null,
      path: uniquePath(slugOf(title, 'section'), paths),
      condition: null,
      icon: input.icon ?? null,
      isDefault: !hasDefault,
      position: positionAtEnd(sectionSiblings(structure, null)),
    });
    await insertSiteSpace(tx, { siteId: site.id, sectionId: section.id, spaceId: space.id, path: slugOf(space.title, 'space'), condition: null, hidden: false, isDefault: true, position: 1 });
    return section.id;
  });
}

export interface SectionUpdate {
  title?: string;
  path?: string;
  defaultSiteSpace?: string;
  condition?: string | null;
  icon?: string | null;
  description?: string | null;
}

export function updateSectionSettings(deps: StructureDeps, site: SiteRecord, sectionId: string, update: SectionUpdate): Promise<void> {
  return structureChange(deps, site, async (tx) => {
    const structure = await loadSiteStructure(tx, site.id);
    found(structure.sections, sectionId, 'site-section');
    if (update.path !== undefined && structure.sections.some((section) => section.id !== sectionId && section.path === update.path)) {
      throw invalidInput(`"path" ${update.path} is already the path of another section of the site`);
    }
    if (update.defaultSiteSpace !== undefined) {
      const siteSpace = structure.siteSpaces.find((candidate) => candidate.id === update.defaultSiteSpace);
      if (!siteSpace || siteSpace.sectionId !== sectionId) throw invalidInput(`"defaultSiteSpace" ${update.defaultSiteSpace} is not a site space of the section`);
      await setDefaultSiteSpace(tx, site.id, sectionId, siteSpace.id);
    }
    const condition = await checkedCondition(tx, site.id, update.condition);
    await updateSection(tx, sectionId, { title: update.title, path: update.path, condition, icon: update.icon, description: update.description });
  });
}

/** False when there was no such section. Its site spaces go with it; a deleted default hands over to the first section left. */
export function removeSection(deps: StructureDeps, site: SiteRecord, sectionId: string): Promise<boolean> {
  return structureChange(deps, site, async (tx) => {
    const structure = await loadSiteStructure(tx, site.id);
    const section = structure.sections.find((candidate) => candidate.id === sectionId);
    if (!section) return false;
    await deleteSection(tx, site.id, sectionId);
    const next = orderedSections(structure).find((candidate) => candidate.id !== sectionId);
    if (section.isDefault && next) await setDefaultSection(tx, site.id, next.id);
    return true;
  });
}

/** Sections in the order a reader meets them: depth first through the groups. */
export function orderedSections(structure: SiteStructure): SiteStructure['sections'] {
  const byId = new Map(structure.sections.map((section) => [section.id, section]));
  const result: SiteStructure['sections'] = [];
  const visit = (groupId: string | null, depth: number) => {
    for (const sibling of sectionSiblings(structure, groupId)) {
      if (sibling.kind === 'site-section') result.push(byId.get(sibling.id)!);
      else if (depth < 32) visit(sibling.id, depth + 1);
    }
  };
  visit(null, 0);
  return result;
}

export function moveSection(deps: StructureDeps, site: SiteRecord, sectionId: string, position: MovePosition | undefined): Promise<void> {
  return structureChange(deps, site, async (tx) => {
    const structure = await loadSiteStructure(tx, site.id);
    const section = found(structure.sections, sectionId, 'site-section');
    const siblings = sectionSiblings(structure, section.groupId).filter((sibling) => sibling.id !== sectionId);
    await updateSection(tx, sectionId, { position: await place(tx, placeAmong(siblings, position, describeRef('section'))) });
  });
}

/** The space into the section given, else the default section, else the site's root; the first of a place is its default. */
export async function addSiteSpace(deps: StructureDeps, site: SiteRecord, input: { spaceId: string; sectionId?: string }, readerId: string): Promise<string> {
  await assertReadableSpaces(deps.db, site.organizationId, [input.spaceId], readerId, 'spaceId');
  return structureChange(deps, site, async (tx) => {
    const space = await spaceOfOrganization(tx, site.organizationId, input.spaceId, 'spaceId');
    const structure = await loadSiteStructure(tx, site.id);
    let sectionId: string | null = null;
    if (input.sectionId !== undefined) {
      if (!structure.sections.some((section) => section.id === input.sectionId)) throw invalidInput(`"sectionId" ${input.sectionId} is not a section of the site`);
      sectionId = input.sectionId;
    } else {
      sectionId = structure.sections.find((section) => section.isDefault)?.id ?? structure.sections[0]?.id ?? null;
    }
    const siblings = structure.siteSpaces.filter((siteSpace) => siteSpace.sectionId === sectionId);
    const siteSpace = await insertSiteSpace(tx, {
      siteId: site.id,
      sectionId,
      spaceId: space.id,
      path: uniquePath(
        slugOf(space.title, 'space'),
        siblings.map((sibling) => sibling.path),
      ),
      condition: null,
      hidden: false,
      isDefault: siblings.length === 0,
      position: positionAtEnd(siteSpaceSiblings(structure, sectionId)),
    });
    return siteSpace.id;
  });
}

/**
 * A site space showing a space the reader can't read is not found for them, as they don't see it
 * listed (readSiteSpaces): they change neither it nor where it sits.
 */
async function assertSeenBy(deps: StructureDeps, site: SiteRecord, siteSpaceId: string, readerId: string): Promise<void> {
  const siteSpace = (await loadSiteStructure(deps.db, site.id)).siteSpaces.find((candidate) => candidate.id === siteSpaceId);
  if (siteSpace && !(await readableSpace(deps.db, site.organizationId, siteSpace.spaceId, readerId))) throw missing(`${nameOf['site-space']} ${siteSpaceId} not found`);
}

export async function updateSiteSpaceSettings(
  deps: StructureDeps,
  site: SiteRecord,
  siteSpaceId: string,
  update: { path?: string; condition?: string | null; spaceId?: string; hidden?: boolean },
  readerId: string,
): Promise<void> {
  await assertSeenBy(deps, site, siteSpaceId, readerId);
  if (update.spaceId !== undefined) await assertReadableSpaces(deps.db, site.organizationId, [update.spaceId], readerId, 'spaceId');
  return structureChange(deps, site, async (tx) => {
    const structure = await loadSiteStructure(tx, site.id);
    const siteSpace = found(structure.siteSpaces, siteSpaceId, 'site-space');
    if (update.path !== undefined && structure.siteSpaces.some((other) => other.id !== siteSpaceId && other.sectionId === siteSpace.sectionId && other.path === update.path)) {
      throw invalidInput(`"path" ${update.path} is already the path of another site space ${siteSpace.sectionId ? 'of the section' : 'of the site'}`);
    }
    if (update.spaceId !== undefined) await spaceOfOrganization(tx, site.organizationId, update.spaceId, 'spaceId');
    const condition = await checkedCondition(tx, site.id, update.condition);
    await updateSiteSpace(tx, siteSpaceId, { path: update.path, condition, spaceId: update.spaceId, hidden: update.hidden });
  });
}

/** False when there was no such site space; a deleted default hands over to the first one left beside it. */
export function removeSiteSpace(deps: StructureDeps, site: SiteRecord, siteSpaceId: string): Promise<boolean> {
  return structureChange(deps, site, async (tx) => {
    const structure = await loadSiteStructure(tx, site.id);
    const siteSpace = structure.siteSpaces.find((candidate) => candidate.id === siteSpaceId);
    if (!siteSpace) return false;
    await deleteSiteSpace(tx, site.id, siteSpaceId);
    const next = structure.siteSpaces.find((candidate) => candidate.id !== siteSpaceId && candidate.sectionId === siteSpace.sectionId);
    if (siteSpace.isDefault && next) await setDefaultSiteSpace(tx, site.id, siteSpace.sectionId, next.id);
    return true;
  });
}

export async function moveSiteSpace(deps: StructureDeps, site: SiteRecord, siteSpaceId: string, position: MovePosition | undefined, readerId: string): Promise<void> {
  await assertSeenBy(deps, site, siteSpaceId, readerId);
  return structureChange(deps, site, async (tx) => {
    const structure = await loadSiteStructure(tx, site.id);
    const siteSpace = found(structure.siteSpaces, siteSpaceId, 'site-space');
    const siblings = siteSpaceSiblings(structure, siteSpace.sectionId).filter((sibling) => sibling.id !== siteSpaceId);
    await updateSiteSpace(tx, siteSpaceId, { position: await place(tx, placeAmong(siblings, position, describeRef('site space'))) });
  });
}

/** A group at the end of its parent (the root without one), taking the given sections in their order. */
export function addGroup(deps: StructureDeps, site: SiteRecord, input: { title: string; icon?: string | null; sections?: string[]; parent?: string }): Promise<string> {
  return structureChange(deps, site, async (tx) => {
    const structure = await loadSiteStructure(tx, site.id);
    const parentId = input.parent ?? null;
    if (parentId !== null && !structure.groups.some((group) => group.id === parentId)) throw invalidInput(`"parent" ${parentId} is not a section group of the site`);
    for (const sectionId of input.sections ?? []) {
      if (!structure.sections.some((section) => section.id === sectionId)) throw invalidInput(`"sections" ${sectionId} is not a section of the site`);
    }
    const group = await insertGroup(tx, { siteId: site.id, parentId, title: input.title, icon: input.icon ?? null, position: positionAtEnd(sectionSiblings(structure, parentId)) });
    for (const [index, sectionId] of [...new Set(input.sections ?? [])].entries()) await updateSection(tx, sectionId, { groupId: group.id, position: index + 1 });
    return group.id;
  });
}

export function updateGroupSettings(deps: StructureDeps, site: SiteRecord, groupId: string, update: { title?: string; icon?: string | null }): Promise<void> {
  return structureChange(deps, site, async (tx) => {
    found((await loadSiteStructure(tx, site.id)).groups, groupId, 'site-section-group');
    await updateGroup(tx, groupId, update);
  });
}

/** False when there was no such group. What it held moves up to its parent, in its place and order. */
export function removeGroup(deps: StructureDeps, site: SiteRecord, groupId: string): Promise<boolean> {
  return structureChange(deps, site, async (tx) => {
    const structure = await loadSiteStructure(tx, site.id);
    const group = structure.groups.find((candidate) => candidate.id === groupId);
    if (!group) return false;
    const siblings = sectionSiblings(structure, group.parentId);
    const index = siblings.findIndex((sibling) => sibling.id === groupId);
    const previous = siblings[index - 1]?.position ?? group.position - 1;
    const children = sectionSiblings(structure, groupId);
    for (const [i, child] of children.entries()) {
      const position = previous + ((group.position - previous) * (i + 1)) / (children.length + 1);
      if (child.kind === 'site-section') await updateSection(tx, child.id, { groupId: group.parentId, position });
      else await updateGroup(tx, child.id, { parentId: group.parentId, position });
    }
    return deleteGroup(tx, site.id, groupId);
  });
}

/** The section to the end of the group, from wherever it was. */
export function addSectionToGroup(deps: StructureDeps, site: SiteRecord, groupId: string, sectionId: string): Promise<void> {
  return structureChange(deps, site, async (tx) => {
    const structure = await loadSiteStructure(tx, site.id);
    found(structure.groups, groupId, 'site-section-group');
    if (!structure.sections.some((section) => section.id === sectionId)) throw invalidInput(`"sectionId" ${sectionId} is not a section of the site`);
    const siblings = sectionSiblings(structure, groupId).filter((sibling) => sibling.id !== sectionId);
    await updateSection(tx, sectionId, { groupId, position: positionAtEnd(siblings) });
  });
}

/** False when the section was not in the group; otherwise it moves up to the group's parent, right after the group. */
export function removeSectionFromGroup(deps: StructureDeps, site: SiteRecord, groupId: string, sectionId: string): Promise<boolean> {
  return structureChange(deps, site, async (tx) => {
    const structure = await loadSiteStructure(tx, site.id);
    const group = structure.groups.find((candidate) => candidate.id === groupId);
    const section = structure.sections.find((candidate) => candidate.id === sectionId);
    if (!group || !section || section.groupId !== groupId) return false;
    const siblings = sectionSiblings(structure, group.parentId);
    const position = await place(tx, placeAmong(siblings, { after: { kind: 'site-section-group', id: groupId } }, describeRef('section')));
    await updateSection(tx, sectionId, { groupId: group.parentId, position });
    return true;
  });
}

export function moveGroup(deps: StructureDeps, site: SiteRecord, groupId: string, position: MovePosition | undefined): Promise<void> {
  return structureChange(deps, site, async (tx) => {
    const structure = await loadSiteStructure(tx, site.id);
    const group = found(structure.groups, groupId, 'site-section-group');
    const siblings = sectionSiblings(structure, group.parentId).filter((sibling) => sibling.id !== groupId);
    await updateGroup(tx, groupId, { position: await place(tx, placeAmong(siblings, position, describeRef('section group'))) });
  });
}

/**
 * A copy of a site space: its space duplicated (as duplicateSpace makes it, beside the original
 * in its collection, its primary branch copied) and shown right after it in the same section,
 * with the same visibility condition and `hidden` flag, never the default. The caller must read
 * the space and may create where its copy lands (their `create` role there); Quire has no draft
 * site spaces, so `draft` is refused.
 */
export async function duplicateSiteSpace(
  deps: ContentDeps,
  site: SiteRecord,
  siteSpaceId: string,
  caller: { user: UserRecord; organizationRole: MemberRole | null; grants: Grants },
  options: { draft?: boolean },
): Promise<string> {
  if (options.draft) throw invalidInput('"draft": Quire has no draft site spaces: duplicate without it, then hide the copy ("hidden") until it is ready');
  const original = found((await loadSiteStructure(deps.db, site.id)).siteSpaces, siteSpaceId, 'site-space');
  const space = await readableSpace(deps.db, site.organizationId, original.spaceId, caller.user.id);
  if (!space) throw missing(`${nameOf['site-space']} ${siteSpaceId} not found`);
  const role = await roleWhere(deps.db, caller.organizationRole, space.collectionId, caller.grants);
  if (!role || memberRoles.indexOf(role) > memberRoles.indexOf('create')) throw notAllowed(`Duplicating site space ${siteSpaceId} copies its space, which needs the create role where the space is`);
  const copy = await duplicateSpace(deps, space, caller.user);
  return structureChange(deps, site, async (tx) => {
    const structure = await loadSiteStructure(tx, site.id);
    const now = structure.siteSpaces.find((candidate) => candidate.id === siteSpaceId);
    if (!now) throw missing(`${nameOf['site-space']} ${siteSpaceId} not found`);
    const siblings = siteSpaceSiblings(structure, now.sectionId);
    const inserted = await insertSiteSpace(tx, {
      siteId: site.id,
      sectionId: now.sectionId,
      spaceId: copy.id,
      path: uniquePath(
        `${now.path}-copy`,
        structure.siteSpaces.filter((candidate) => candidate.sectionId === now.sectionId).map((candidate) => candidate.path),
      ),
      condition: now.condition,
      hidden: now.hidden,
      isDefault: false,
      position: await place(tx, placeAmong(siblings, { after: { kind: 'site-space', id: now.id } }, describeRef('site space'))),
    });
    return inserted.id;
  });
}
