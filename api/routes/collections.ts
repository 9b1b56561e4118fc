import { deleteCollection, findCollection, insertCollection, isWithin, listCollectionsOfOrganization, transferCollectionTree, updateCollection, type CollectionChanges } from '../../storage/collections.js';
import { findMembershipRole } from '../../storage/members.js';
import { listReachableSpaces } from '../../storage/spaces.js';
import { assertCanAddTo, organizationAccess, roleWhere } from '../commands/access.js';
import { resolvePosition, type Position } from '../commands/positions.js';
import { assertCollectionIn } from '../commands/spaces.js';
import { callerOf, collectionOf, organizationOf, type AppContext } from '../context.js';
import { HttpError, badRequest, conflict, forbidden, notFound } from '../errors.js';
import { inCollection, inOrganization } from '../policies/index.js';
import { presentCollection } from '../presenters/collection.js';
import { presentList } from '../presenters/list.js';
import type { PageQuery } from '../schemas/common.js';
import * as schemas from '../schemas/collections.js';
import { validate } from '../validate.js';
import { present as presentSpaceOf } from './spaces.js';
import { RouteTable } from './table.js';

export const collectionRoutes = new RouteTable();
const routes = collectionRoutes;

routes.get('/orgs/:organizationId/collections', 'listCollectionsInOrganizationById', inOrganization(null), validate({ query: schemas.listCollections }), list);
routes.post('/orgs/:organizationId/collections', 'createCollection', inOrganization('create'), validate({ body: schemas.createCollection }), create);
routes.get('/collections/:collectionId', 'getCollectionById', inCollection('read'), get);
routes.patch('/collections/:collectionId', 'updateCollectionById', inCollection('admin'), validate({ body: schemas.updateCollection }), update);
routes.delete('/collections/:collectionId', 'deleteCollectionById', inCollection('admin'), remove);
routes.get('/collections/:collectionId/spaces', 'listSpacesInCollectionById', inCollection('read'), validate({ query: schemas.listCollectionSpaces }), listSpaces);
routes.post('/collections/:collectionId/move', 'moveCollection', inCollection('admin'), validate({ body: schemas.moveCollection }), move);
routes.post('/collections/:collectionId/transfer', 'transferCollection', inCollection('admin'), validate({ body: schemas.transferCollection }), transfer);

/** `nested` (default true): every collection the caller reaches; false: only top-level ones. */
async function list(ctx: AppContext) {
  const { organization, role } = organizationOf(ctx);
  const access = await organizationAccess(ctx.db, organization.id, role);
  const query = ctx.state.query as unknown as PageQuery & { nested: boolean };
  const page = await listCollectionsOfOrganization(ctx.db, organization.id, { nested: query.nested, ids: [...access.collections.keys()] }, query);
  ctx.body = presentList(page, (collection) => presentCollection(collection, access.collections.get(collection.id)?.role, role, ctx.urls));
}

async function create(ctx: AppContext) {
  const { organization, role } = organizationOf(ctx);
  const body = ctx.request.body as { title?: string; parent?: string };
  await assertCanAddTo(ctx.db, role, organization.id, body.parent ?? null, 'Creating a collection');
  const collection = await ctx.db.transaction((tx) => insertCollection(tx, { organizationId: organization.id, parentId: body.parent ?? null, title: body.title ?? '' }));
  ctx.status = 201;
  ctx.body = presentCollection(collection, await roleWhere(ctx.db, role, collection.id), role, ctx.urls);
}

async function get(ctx: AppContext) {
  const { collection, role, organizationRole } = collectionOf(ctx);
  ctx.body = presentCollection(collection, role, organizationRole, ctx.urls);
}

async function update(ctx: AppContext) {
  const { collection, role, organizationRole } = collectionOf(ctx);
  const updated = await updateCollection(ctx.db, collection.id, ctx.request.body as CollectionChanges);
  ctx.body = presentCollection(updated, role, organizationRole, ctx.urls);
}

/** 205; what it held moves up to its parent (see docs/decisions.md). */
async function remove(ctx: AppContext) {
  const { collection } = collectionOf(ctx);
  ctx.status = (await ctx.db.transaction((tx) => deleteCollection(tx, collection.id))) ? 205 : 204;
}

async function listSpaces(ctx: AppContext) {
  const { collection, organizationRole } = collectionOf(ctx);
  const access = await organizationAccess(ctx.db, collection.organizationId, organizationRole);
  const page = await listReachableSpaces(ctx.db, { collectionId: collection.id }, { ids: [...access.spaces.keys()] }, ctx.state.query as unknown as PageQuery);
  const items = await Promise.all(page.items.map((space) => presentSpaceOf(ctx, space, access.spaces.get(space.id)?.role)));
  ctx.body = presentList({ ...page, items }, (item) => item);
}

async function move(ctx: AppContext) {
  const { collection, role, organizationRole } = collectionOf(ctx);
  const body = ctx.request.body as { parent?: string | null; position?: Position };
  const parent = body.parent === undefined ? collection.parentId : body.parent;
  if (parent !== collection.parentId) await assertCanAddTo(ctx.db, collectionOf(ctx).organizationRole, collection.organizationId, parent, 'Moving a collection');
  const moved = await ctx.db.transaction(async (tx) => {
    // Checked again inside the transaction: concurrent moves can't build a cycle.
    await assertCollectionIn(tx, collection.organizationId, parent, 'parent');
    if (parent && (await isWithin(tx, parent, collection.id))) throw badRequest('Invalid position: a collection can’t move into itself or one of its own collections');
    const position = await resolvePosition(tx, collection.organizationId, parent, { kind: 'collection', id: collection.id, parentId: collection.parentId }, body.position);
    if (position === null) throw conflict('The collection is already there: the move would change nothing');
    return updateCollection(tx, collection.id, { parentId: parent, position });
  });
  ctx.body = presentCollection(moved, role, organizationRole, ctx.urls);
}

/** The collection and everything in it, to another organization the caller administers. */
async function transfer(ctx: AppContext) {
  const { collection, role, organizationRole } = collectionOf(ctx);
  const { organization } = ctx.request.body as { organization: string };
  if (organizationRole !== 'admin') throw forbidden('Transferring a collection needs the admin role in its organization');
  if (organization === collection.organizationId) throw conflict('The collection is already in that organization');
  if (collection.parentId) throw new HttpError(412, 'A collection inside another can’t be transferred: move it to the top level first');
  const membership = await findMembershipRole(ctx.db, organization, callerOf(ctx).id);
  if (!membership || membership.disabled) throw notFound(`Organization ${organization} not found`);
  if (membership.role !== 'admin') throw forbidden('Transferring a collection needs the admin role in the target organization');
  const moved = await ctx.db.transaction(async (tx) => {
    if (!(await findCollection(tx, collection.id))) throw notFound(`Collection ${collection.id} not found`);
    const position = (await resolvePosition(tx, organization, null, { kind: 'collection', id: collection.id, parentId: null }, undefined)) ?? 1;
    return transferCollectionTree(tx, collection.id, organization, position);
  });
  ctx.body = presentCollection(moved, role, 'admin', ctx.urls);
}
