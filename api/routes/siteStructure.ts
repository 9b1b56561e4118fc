import {
  addGroup,
  addSection,
  addSectionToGroup,
  addSiteSpace,
  duplicateSiteSpace,
  moveGroup,
  type MovePosition,
  moveSection,
  moveSiteSpace,
  orderedSections,
  type Ref,
  removeGroup,
  removeSection,
  removeSectionFromGroup,
  removeSiteSpace,
  sectionSiblings,
  siteOf,
  updateGroupSettings,
  updateSectionSettings,
  updateSiteSpaceSettings,
  readSiteSpaces,
} from '../../domain/sites/index.js';
import { paginateArray } from '../../storage/pagination.js';
import { loadSiteStructure, type SiteSpaceRecord } from '../../storage/siteStructure.js';
import { isActiveShareKey, type SiteRecord } from '../../storage/sites.js';
import { organizationOf, type AppContext, contentDeps, callerOf, grantsOf, siteSpacesReaderOf, pathParam } from '../context.js';
import { notFound } from '../errors.js';
import { inSite } from '../policies/index.js';
import { siteActions } from '../policies/actions.js';
import { presentList } from '../presenters/list.js';
import { presentGroup, presentSection, presentSiteSpace, siteView, type SiteView } from '../presenters/siteStructure.js';
import * as schemas from '../schemas/siteStructure.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const siteStructureRoutes = new RouteTable();
const routes = siteStructureRoutes;
const { view, edit } = siteActions;
const site = '/orgs/:organizationId/sites/:siteId';
const section = `${site}/sections/:siteSectionId`;
const siteSpace = `${site}/site-spaces/:siteSpaceId`;
const group = `${site}/section-groups/:siteSectionGroupId`;

routes.get(`${site}/sections`, 'listSiteSections', inSite(view), handle({ query: schemas.listWithShareKey }, listSections));
routes.post(`${site}/sections`, 'addSectionToSite', inSite(edit), handle({ body: schemas.addSection }, createSection));
routes.patch(section, 'updateSiteSectionById', inSite(edit), handle({ body: schemas.updateSection }, patchSection));
routes.delete(section, 'deleteSiteSectionById', inSite(edit), handle({}, deleteSection));
routes.post(`${section}/move`, 'moveSiteSection', inSite(edit), handle({ body: schemas.moveSection }, moveTheSection));

routes.get(`${site}/site-spaces`, 'listSiteSpaces', inSite(view), handle({ query: schemas.listSiteSpaces }, listSiteSpaces));
routes.post(`${site}/site-spaces`, 'addSpaceToSite', inSite(edit), handle({ body: schemas.addSiteSpace }, createSiteSpace));
routes.patch(siteSpace, 'updateSiteSpaceById', inSite(edit), handle({ body: schemas.updateSiteSpace }, patchSiteSpace));
routes.delete(siteSpace, 'deleteSiteSpaceById', inSite(edit), handle({}, deleteSiteSpace));
routes.post(`${siteSpace}/duplicate`, 'duplicateSiteSpace', inSite(edit), handle({ body: schemas.duplicateSiteSpace }, duplicateTheSiteSpace));
routes.patch(`${site}/structure/sort`, 'sortSiteStructure', inSite(edit), handle({ body: schemas.sortStructure }, sortStructure));
routes.post(`${siteSpace}/move`, 'moveSiteSpace', inSite(edit), handle({ body: schemas.moveSiteSpace }, moveTheSiteSpace));

routes.get(`${site}/section-groups`, 'listSiteSectionGroups', inSite(view), handle({ query: schemas.listGroups }, listGroups));
routes.post(`${site}/section-groups`, 'addSectionGroupToSite', inSite(edit), handle({ body: schemas.addGroup }, createGroup));
routes.patch(group, 'updateSiteSectionGroupById', inSite(edit), handle({ body: schemas.updateGroup }, patchGroup));
routes.delete(group, 'deleteSiteSectionGroupById', inSite(edit), handle({}, deleteGroup));
routes.post(`${group}/sections`, 'addSectionToGroup', inSite(edit), handle({ body: schemas.addSectionToGroup }, addToGroup));
routes.delete(`${group}/sections/:siteSectionId`, 'removeSectionFromGroup', inSite(edit), handle({}, removeFromGroup));
routes.post(`${group}/move`, 'moveSiteSectionGroup', inSite(edit), handle({ body: schemas.moveGroup }, moveTheGroup));

const theSite = (ctx: AppContext) => siteOf(ctx.db, organizationOf(ctx).organization.id, pathParam(ctx, 'siteId'));

/** The site as read now, for presenting; `shareKey` counts only when it is an active key of this site's links. */
async function viewOf(ctx: AppContext, found: SiteRecord, shareKey?: string, wanted?: (siteSpace: SiteSpaceRecord) => boolean): Promise<SiteView> {
  const [structure, valid] = await Promise.all([loadSiteStructure(ctx.db, found.id), shareKey !== undefined ? isActiveShareKey(ctx.db, found.id, shareKey) : false]);
  return siteView(ctx, found, await readSiteSpaces(contentDeps(ctx), found, structure, await siteSpacesReaderOf(ctx), wanted), valid ? shareKey : undefined);
}
/** What presenting one section or one site space needs read: its own site spaces only. */
const inSection = (sectionId: string) => (siteSpace: SiteSpaceRecord) => siteSpace.sectionId === sectionId;
const only = (siteSpaceId: string) => (siteSpace: SiteSpaceRecord) => siteSpace.id === siteSpaceId;

const pick = <T extends { id: string }>(items: T[], id: string): T => items.find((item) => item.id === id)!;
/** Position refs as the domain names them: the kind, and the id under the key the endpoint uses. */
type Pointer = { type: Ref['kind']; [key: string]: string | undefined };
const refsOf = (position: { before?: Pointer; after?: Pointer } | undefined, key: string): MovePosition | undefined => {
  const ref = (pointer?: Pointer): Ref | undefined => pointer && { kind: pointer.type, id: pointer[key] ?? '' };
  return position && { before: ref(position.before), after: ref(position.after) };
};

/** In the site's reading order: sections depth first through their groups. */
async function listSections(ctx: AppContext, { query }: { query: schemas.ListWithShareKeyQuery }) {
  const found = await theSite(ctx);
  const { shareKey, ...page } = query;
  const shown = await viewOf(ctx, found, shareKey);
  const ordered = orderedSections(shown.structure).map((item, index) => ({ item, index }));
  ctx.body = presentList(
    paginateArray(ordered, (entry) => [entry.index, entry.item.id], `sections:${found.id}`, page),
    (entry) => presentSection(shown, entry.item),
  );
}

async function createSection(ctx: AppContext, { body }: { body: schemas.AddSectionBody }) {
  const found = await theSite(ctx);
  const id = await addSection(contentDeps(ctx), found, body, callerOf(ctx).id);
  const shown = await viewOf(ctx, await theSite(ctx), undefined, inSection(id));
  ctx.status = 201;
  ctx.set('Location', ctx.urls.api(`/orgs/${found.organizationId}/sites/${found.id}/sections/${id}`));
  ctx.body = presentSection(shown, pick(shown.structure.sections, id));
}

async function patchSection(ctx: AppContext, { params, body }: { params: { siteSectionId: string }; body: schemas.UpdateSectionBody }) {
  const found = await theSite(ctx);
  const id = params.siteSectionId;
  await updateSectionSettings(contentDeps(ctx), found, id, body);
  const shown = await viewOf(ctx, found, undefined, inSection(id));
  ctx.body = presentSection(shown, pick(shown.structure.sections, id));
}

async function deleteSection(ctx: AppContext, { params }: { params: { siteSectionId: string } }) {
  ctx.status = (await removeSection(contentDeps(ctx), await theSite(ctx), params.siteSectionId)) ? 205 : 204;
}

async function moveTheSection(ctx: AppContext, { params, body }: { params: { siteSectionId: string }; body: schemas.MoveSectionBody }) {
  const found = await theSite(ctx);
  const id = params.siteSectionId;
  await moveSection(contentDeps(ctx), found, id, refsOf(body.position, 'siteSection'));
  const shown = await viewOf(ctx, found, undefined, inSection(id));
  ctx.body = presentSection(shown, pick(shown.structure.sections, id));
}

/** Root site spaces first, then each section's, in the site's reading order; `default` filters on the default flag. */
async function listSiteSpaces(ctx: AppContext, { query }: { query: schemas.ListSiteSpacesQuery }) {
  const found = await theSite(ctx);
  const { shareKey, default: onlyDefault, ...page } = query;
  const shown = await viewOf(ctx, found, shareKey);
  const containers = [null, ...orderedSections(shown.structure).map((item) => item.id)];
  const ordered = containers
    .flatMap((sectionId) => shown.structure.siteSpaces.filter((item) => item.sectionId === sectionId))
    .filter((item) => onlyDefault === undefined || item.isDefault === onlyDefault)
    .map((item, index) => ({ item, index }));
  ctx.body = presentList(
    paginateArray(ordered, (entry) => [entry.index, entry.item.id], `site-spaces:${found.id}:${String(onlyDefault)}`, page),
    (entry) => presentSiteSpace(shown, entry.item),
  );
}

async function createSiteSpace(ctx: AppContext, { body }: { body: schemas.AddSiteSpaceBody }) {
  const found = await theSite(ctx);
  const id = await addSiteSpace(contentDeps(ctx), found, body, callerOf(ctx).id);
  const shown = await viewOf(ctx, found, undefined, only(id));
  ctx.status = 201;
  ctx.set('Location', ctx.urls.api(`/orgs/${found.organizationId}/sites/${found.id}/site-spaces/${id}`));
  ctx.body = presentSiteSpace(shown, pick(shown.structure.siteSpaces, id));
}

async function patchSiteSpace(ctx: AppContext, { params, body }: { params: { siteSpaceId: string }; body: schemas.UpdateSiteSpaceBody }) {
  const found = await theSite(ctx);
  const id = params.siteSpaceId;
  await updateSiteSpaceSettings(contentDeps(ctx), found, id, body, callerOf(ctx).id);
  const shown = await viewOf(ctx, found, undefined, only(id));
  ctx.body = presentSiteSpace(shown, pick(shown.structure.siteSpaces, id));
}

async function deleteSiteSpace(ctx: AppContext, { params }: { params: { siteSpaceId: string } }) {
  ctx.status = (await removeSiteSpace(contentDeps(ctx), await theSite(ctx), params.siteSpaceId)) ? 205 : 204;
}

async function moveTheSiteSpace(ctx: AppContext, { params, body }: { params: { siteSpaceId: string }; body: schemas.MoveSiteSpaceBody }) {
  const found = await theSite(ctx);
  const id = params.siteSpaceId;
  await moveSiteSpace(contentDeps(ctx), found, id, refsOf(body.position, 'siteSpace'), callerOf(ctx).id);
  const shown = await viewOf(ctx, found, undefined, only(id));
  ctx.body = presentSiteSpace(shown, pick(shown.structure.siteSpaces, id));
}

/** A copy of the site space and of its space, right after it (domain duplicateSiteSpace). */
async function duplicateTheSiteSpace(ctx: AppContext, { params, body }: { params: { siteSpaceId: string }; body: schemas.DuplicateSiteSpaceBody }) {
  const found = await theSite(ctx);
  const caller = { user: callerOf(ctx), organizationRole: organizationOf(ctx).role, grants: await grantsOf(ctx) };
  const id = await duplicateSiteSpace(contentDeps(ctx), found, params.siteSpaceId, caller, body);
  const shown = await viewOf(ctx, found, undefined, only(id));
  ctx.status = 201;
  ctx.body = presentSiteSpace(shown, pick(shown.structure.siteSpaces, id));
}

/**
 * One item of the structure moved among the siblings of its level, as the move of its kind does;
 * answered with the item, or nothing with `Prefer: return=minimal`. Quire's sites have no
 * external links in their structure: one named is not found.
 */
async function sortStructure(ctx: AppContext, { body }: { body: schemas.SortStructureBody }) {
  const found = await theSite(ctx);
  const { item, position } = body;
  if (item.type === 'site-external-link') throw notFound(`Site external link ${item.id} not found: Quire's sites have none`);
  const ref = (pointer?: { type: string; id: string }): Ref | undefined => (pointer ? { kind: pointer.type as Ref['kind'], id: pointer.id } : undefined);
  const where: MovePosition = { before: ref(position.before), after: ref(position.after) };
  const minimal = ctx.get('prefer') === 'return=minimal';
  if (item.type === 'site-space') {
    await moveSiteSpace(contentDeps(ctx), found, item.id, where, callerOf(ctx).id);
    if (minimal) return void (ctx.status = 204);
    const shown = await viewOf(ctx, found, undefined, only(item.id));
    ctx.body = presentSiteSpace(shown, pick(shown.structure.siteSpaces, item.id));
  } else if (item.type === 'site-section') {
    await moveSection(contentDeps(ctx), found, item.id, where);
    if (minimal) return void (ctx.status = 204);
    const shown = await viewOf(ctx, found, undefined, inSection(item.id));
    ctx.body = presentSection(shown, pick(shown.structure.sections, item.id));
  } else {
    await moveGroup(contentDeps(ctx), found, item.id, where);
    if (minimal) return void (ctx.status = 204);
    ctx.body = await presentedGroup(ctx, found, item.id);
  }
}

/** Every group of the site, outer ones before the groups they hold, each in its order. */
async function listGroups(ctx: AppContext, { query }: { query: schemas.ListGroupsQuery }) {
  const found = await theSite(ctx);
  const shown = await viewOf(ctx, found);
  const ordered: Array<{ item: SiteView['structure']['groups'][number]; index: number }> = [];
  const visit = (parentId: string | null) => {
    for (const sibling of sectionSiblings(shown.structure, parentId).filter((candidate) => candidate.kind === 'site-section-group')) {
      ordered.push({ item: pick(shown.structure.groups, sibling.id), index: ordered.length });
      if (ordered.length < 10_000) visit(sibling.id);
    }
  };
  visit(null);
  ctx.body = presentList(
    paginateArray(ordered, (entry) => [entry.index, entry.item.id], `groups:${found.id}`, query),
    (entry) => presentGroup(shown, entry.item),
  );
}

async function presentedGroup(ctx: AppContext, found: SiteRecord, id: string) {
  const shown = await viewOf(ctx, found);
  return presentGroup(shown, pick(shown.structure.groups, id));
}

async function createGroup(ctx: AppContext, { body }: { body: schemas.AddGroupBody }) {
  const found = await theSite(ctx);
  const id = await addGroup(contentDeps(ctx), found, body);
  ctx.status = 201;
  ctx.set('Location', ctx.urls.api(`/orgs/${found.organizationId}/sites/${found.id}/section-groups/${id}`));
  ctx.body = await presentedGroup(ctx, found, id);
}

async function patchGroup(ctx: AppContext, { params, body }: { params: { siteSectionGroupId: string }; body: schemas.UpdateGroupBody }) {
  const found = await theSite(ctx);
  const id = params.siteSectionGroupId;
  await updateGroupSettings(contentDeps(ctx), found, id, body);
  ctx.body = await presentedGroup(ctx, found, id);
}

async function deleteGroup(ctx: AppContext, { params }: { params: { siteSectionGroupId: string } }) {
  ctx.status = (await removeGroup(contentDeps(ctx), await theSite(ctx), params.siteSectionGroupId)) ? 205 : 204;
}

async function addToGroup(ctx: AppContext, { params, body }: { params: { siteSectionGroupId: string }; body: schemas.AddSectionToGroupBody }) {
  const found = await theSite(ctx);
  const id = params.siteSectionGroupId;
  await addSectionToGroup(contentDeps(ctx), found, id, body.sectionId);
  ctx.status = 201;
  ctx.body = await presentedGroup(ctx, found, id);
}

async function removeFromGroup(ctx: AppContext, { params }: { params: { siteSectionGroupId: string; siteSectionId: string } }) {
  ctx.status = (await removeSectionFromGroup(contentDeps(ctx), await theSite(ctx), params.siteSectionGroupId, params.siteSectionId)) ? 205 : 204;
}

async function moveTheGroup(ctx: AppContext, { params, body }: { params: { siteSectionGroupId: string }; body: schemas.MoveGroupBody }) {
  const found = await theSite(ctx);
  const id = params.siteSectionGroupId;
  await moveGroup(contentDeps(ctx), found, id, refsOf(body.position, 'id'));
  ctx.body = await presentedGroup(ctx, found, id);
}
