import { findTemplate } from '../../engine/templates.js';
import { assertCanAddTo, organizationAccess, roleOnSpace } from '../commands/access.js';
import { findMembershipRole } from '../../storage/members.js';
import { findSpace, listReachableSpaces, updateSpace, type SpaceChanges, type SpaceRecord } from '../../storage/spaces.js';
import { assertCollectionIn, createSpace, duplicateSpace, spaceRevision } from '../commands/spaces.js';
import { deleteSpace, restoreSpace } from '../commands/spaceDeletion.js';
import { resolvePosition, type Position } from '../commands/positions.js';
import { callerOf, organizationOf, spaceOf, type AppContext } from '../context.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { inOrganization, inSpace } from '../policies/index.js';
import { atLeast } from '../policies/roles.js';
import { presentList } from '../presenters/list.js';
import { presentSpace } from '../presenters/space.js';
import type { PageQuery } from '../schemas/common.js';
import * as schemas from '../schemas/spaces.js';
import { validate } from '../validate.js';
import { RouteTable } from './table.js';
import type { MemberRole } from '../../storage/members.js';

export const spaceRoutes = new RouteTable();
const routes = spaceRoutes;

routes.get('/orgs/:organizationId/spaces', 'listSpacesInOrganizationById', inOrganization(null), validate({ query: schemas.listSpaces }), list);
routes.post('/orgs/:organizationId/spaces', 'createSpace', inOrganization('create'), validate({ body: schemas.createSpace }), create);
routes.get('/spaces/:spaceId', 'getSpaceById', inSpace('read'), validate({ query: schemas.getSpace }), get);
routes.patch('/spaces/:spaceId', 'updateSpaceById', inSpace('edit'), validate({ body: schemas.updateSpace }), update);
routes.delete('/spaces/:spaceId', 'deleteSpaceById', inSpace('admin', { deleted: true }), remove);
routes.post('/spaces/:spaceId/restore', 'restoreSpace', inSpace('admin', { deleted: true }), restore);
routes.post('/spaces/:spaceId/duplicate', 'duplicateSpace', inSpace('read'), duplicate);
routes.post('/spaces/:spaceId/move', 'moveSpace', inSpace('admin'), validate({ body: schemas.moveSpace }), move);
routes.post('/spaces/:spaceId/transfer', 'transferSpace', inSpace('admin'), validate({ body: schemas.transfer }), transfer);

export async function present(ctx: AppContext, space: SpaceRecord, role: MemberRole | undefined) {
  return presentSpace(space, await spaceRevision(ctx.config.dataDir, space.id), role, ctx.urls);
}

/** The spaces the caller can reach, oldest first. */
async function list(ctx: AppContext) {
  const { organization, role } = organizationOf(ctx);
  const reachable = (await organizationAccess(ctx.db, organization.id, role)).spaces;
  const page = await listReachableSpaces(ctx.db, { organizationId: organization.id }, { ids: [...reachable.keys()] }, ctx.state.query as unknown as PageQuery);
  const items = await Promise.all(page.items.map((space) => present(ctx, space, reachable.get(space.id)?.role)));
  ctx.body = presentList({ ...page, items }, (item) => item);
}

async function create(ctx: AppContext) {
  const { organization } = organizationOf(ctx);
  const body = ctx.request.body as { title?: string; emoji?: string; parent?: string; language?: string; editMode?: 'live' | 'locked'; template?: { id: string }; empty?: true };
  if (body.template && body.empty) throw badRequest('Give "template" or "empty", not both');
  const template = body.empty ? null : findTemplate(body.template?.id ?? 'blank');
  if (template === undefined) throw badRequest(`Unknown template "${body.template?.id}"`);
  await assertCanAddTo(ctx.db, organizationOf(ctx).role, organization.id, body.parent ?? null, 'Creating a space');
  const space = await createSpace(
    { db: ctx.db, dataDir: ctx.config.dataDir },
    {
      organizationId: organization.id,
      collectionId: body.parent ?? null,
      title: body.title ?? '',
      emoji: body.emoji ?? null,
      editMode: body.editMode,
      language: body.language ?? null,
      createdBy: callerOf(ctx).id,
      creator: callerOf(ctx),
      template,
    },
  );
  ctx.status = 201;
  ctx.body = await present(ctx, space, await roleOnSpace(ctx.db, organizationOf(ctx).role, space));
}

async function get(ctx: AppContext) {
  const { space, role } = spaceOf(ctx);
  ctx.body = await present(ctx, space, role);
}

/** Title and emoji need edit; the space's settings (lock, levels, rules, language) need admin. */
async function update(ctx: AppContext) {
  const { space, role } = spaceOf(ctx);
  const body = ctx.request.body as SpaceChanges & { icon?: string | null };
  const settings = (['editMode', 'defaultLevel', 'mergeRules', 'language'] as const).filter((field) => body[field] !== undefined);
  if (settings.length > 0 && role !== 'admin') throw forbidden(`Changing ${settings.join(', ')} needs the admin role on the space; you have ${role}`);
  const { icon, ...changes } = body;
  if (icon !== undefined && body.emoji !== undefined) throw badRequest('Give "emoji" or "icon", not both');
  if (icon !== undefined) changes.emoji = null; // a space's icon image isn't stored yet: setting one clears the emoji
  const updated = await updateSpace(ctx.db, space.id, changes);
  ctx.body = await present(ctx, updated, role);
}

const deletionDeps = (ctx: AppContext) => ({ db: ctx.db, jobs: ctx.jobs, retentionMs: ctx.config.spaceRetentionMs });

/** Into the bin (205), purged after the retention by its job; a space already there answers 204. */
async function remove(ctx: AppContext) {
  const { space } = spaceOf(ctx);
  ctx.status = !space.deletedAt && (await deleteSpace(deletionDeps(ctx), space)) ? 205 : 204;
}

/** Inside the retention window only: after it the space is as good as gone (404), purged or not. */
async function restore(ctx: AppContext) {
  const { space, role } = spaceOf(ctx);
  if (!space.deletedAt) throw badRequest(`Space ${space.id} is not deleted`);
  ctx.body = await present(ctx, await restoreSpace(deletionDeps(ctx), { ...space, deletedAt: space.deletedAt }), role);
}

async function duplicate(ctx: AppContext) {
  const { space, organizationRole } = spaceOf(ctx);
  if (!atLeast(organizationRole, 'create')) throw forbidden('Duplicating a space needs the create role in the organization');
  await assertCanAddTo(ctx.db, organizationRole, space.organizationId, space.collectionId, 'Duplicating a space');
  const copy = await duplicateSpace({ db: ctx.db, dataDir: ctx.config.dataDir }, space, callerOf(ctx));
  ctx.status = 201;
  ctx.body = await present(ctx, copy, await roleOnSpace(ctx.db, organizationRole, copy));
}

async function move(ctx: AppContext) {
  const { space, role } = spaceOf(ctx);
  const body = ctx.request.body as { parent?: string | null; position?: Position };
  const parent = body.parent === undefined ? space.collectionId : body.parent;
  if (parent !== space.collectionId) await assertCanAddTo(ctx.db, spaceOf(ctx).organizationRole, space.organizationId, parent, 'Moving a space');
  const moved = await ctx.db.transaction(async (tx) => {
    await assertCollectionIn(tx, space.organizationId, parent, 'parent');
    const position = await resolvePosition(tx, space.organizationId, parent, { kind: 'space', id: space.id, parentId: space.collectionId }, body.position);
    if (position === null) throw conflict('The space is already there: the move would change nothing');
    return updateSpace(tx, space.id, { collectionId: parent, position });
  });
  ctx.body = await present(ctx, moved, role);
}

/** To another organization the caller administers; the space leaves its collection. */
async function transfer(ctx: AppContext) {
  const { space, role, organizationRole } = spaceOf(ctx);
  const { organization } = ctx.request.body as { organization: string };
  if (organizationRole !== 'admin') throw forbidden('Transferring a space needs the admin role in its organization');
  if (organization === space.organizationId) throw conflict('The space is already in that organization');
  const membership = await findMembershipRole(ctx.db, organization, callerOf(ctx).id);
  if (!membership || membership.disabled) throw notFound(`Organization ${organization} not found`);
  if (membership.role !== 'admin') throw forbidden('Transferring a space needs the admin role in the target organization');
  const moved = await ctx.db.transaction(async (tx) => {
    const current = await findSpace(tx, space.id);
    if (!current) throw notFound(`Space ${space.id} not found`);
    const position = (await resolvePosition(tx, organization, null, { kind: 'space', id: space.id, parentId: null }, undefined)) ?? 1;
    return updateSpace(tx, space.id, { organizationId: organization, collectionId: null, position });
  });
  ctx.body = await present(ctx, moved, role);
}
