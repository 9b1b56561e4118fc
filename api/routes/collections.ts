import { changeCollection, createCollection, moveItem, removeCollection, transferItem, readSpaceViews } from '../../domain/spaces/index.js';
import { listCollectionsOfOrganization } from '../../storage/collections.js';
import { listReachableSpaces } from '../../storage/spaces.js';
import { organizationAccess, roleWhere } from '../../domain/organizations/index.js';
import { actorOf, collectionOf, organizationOf, type AppContext, grantsOf, contentDeps } from '../context.js';
import { inCollection, inOrganization } from '../policies/index.js';
import { collectionActions, organizationActions } from '../policies/actions.js';
import { adminOfTargetOrganization, createWhereItLands, organizationRole } from '../policies/requirements.js';
import { presentCollection } from '../presenters/collection.js';
import { presentList } from '../presenters/list.js';
import * as schemas from '../schemas/collections.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';
import { presentSpaceView } from '../presenters/space.js';

export const collectionRoutes = new RouteTable();
const routes = collectionRoutes;
const { view, admin } = collectionActions;

routes.get('/orgs/:organizationId/collections', 'listCollectionsInOrganizationById', inOrganization(null), handle({ query: schemas.listCollections }, list));
routes.post(
  '/orgs/:organizationId/collections',
  'createCollection',
  inOrganization(organizationActions.create, { also: [createWhereItLands('Creating a collection', 'stays')] }),
  handle({ body: schemas.createCollection }, create),
);
routes.get('/collections/:collectionId', 'getCollectionById', inCollection(view), handle({}, get));
routes.patch('/collections/:collectionId', 'updateCollectionById', inCollection(admin), handle({ body: schemas.updateCollection }, update));
routes.delete('/collections/:collectionId', 'deleteCollectionById', inCollection(admin), handle({}, remove));
routes.get('/collections/:collectionId/spaces', 'listSpacesInCollectionById', inCollection(view), handle({ query: schemas.listCollectionSpaces }, listSpaces));
routes.post('/collections/:collectionId/move', 'moveCollection', inCollection(admin, { also: [createWhereItLands('Moving a collection', 'skip')] }), handle({ body: schemas.moveCollection }, move));
routes.post(
  '/collections/:collectionId/transfer',
  'transferCollection',
  inCollection(admin, { also: [organizationRole(organizationActions.admin, 'Transferring a collection'), adminOfTargetOrganization('Transferring a collection')] }),
  handle({ body: schemas.transferCollection }, transfer),
);

/** `nested` (default true): every collection the caller reaches; false: only top-level ones. */
async function list(ctx: AppContext, { query }: { query: schemas.ListCollectionsQuery }) {
  const { organization, role } = organizationOf(ctx);
  const access = await organizationAccess(ctx.db, organization.id, role, await grantsOf(ctx));
  const page = await listCollectionsOfOrganization(ctx.db, organization.id, { nested: query.nested, ids: [...access.collections.keys()] }, query);
  ctx.body = presentList(page, (collection) => presentCollection(collection, access.collections.get(collection.id)?.role, role, ctx.urls));
}

async function create(ctx: AppContext, { body }: { body: schemas.CreateCollectionBody }) {
  const { organization, role } = organizationOf(ctx);
  const collection = await createCollection(ctx.db, { organizationId: organization.id, parentId: body.parent ?? null, title: body.title ?? '' });
  ctx.status = 201;
  ctx.body = presentCollection(collection, await roleWhere(ctx.db, role, collection.id, await grantsOf(ctx)), role, ctx.urls);
}

async function get(ctx: AppContext) {
  const { collection, role, organizationRole } = collectionOf(ctx);
  ctx.body = presentCollection(collection, role, organizationRole, ctx.urls);
}

async function update(ctx: AppContext, { body }: { body: schemas.UpdateCollectionBody }) {
  const { collection, role, organizationRole } = collectionOf(ctx);
  ctx.body = presentCollection(await changeCollection(ctx.db, actorOf(ctx), collection, body), role, organizationRole, ctx.urls);
}

/** 205; what it held moves up to its parent (see docs/decisions/content.md). */
async function remove(ctx: AppContext) {
  const { collection } = collectionOf(ctx);
  ctx.status = (await removeCollection(ctx.db, collection.id)) ? 205 : 204;
}

async function listSpaces(ctx: AppContext, { query }: { query: schemas.ListCollectionSpacesQuery }) {
  const { collection, organizationRole } = collectionOf(ctx);
  const access = await organizationAccess(ctx.db, collection.organizationId, organizationRole, await grantsOf(ctx));
  const page = await listReachableSpaces(ctx.db, { collectionId: collection.id }, { ids: [...access.spaces.keys()] }, query);
  const items = (await readSpaceViews(contentDeps(ctx), page.items)).map((view) => presentSpaceView(view, access.spaces.get(view.space.id)?.role, ctx.urls));
  ctx.body = presentList({ ...page, items }, (item) => item);
}

async function move(ctx: AppContext, { body }: { body: schemas.MoveBody }) {
  const { collection, role, organizationRole } = collectionOf(ctx);
  ctx.body = presentCollection(await moveItem(ctx.db, { kind: 'collection', item: collection }, body), role, organizationRole, ctx.urls);
}

/** The collection and everything in it, to another organization the caller administers. */
async function transfer(ctx: AppContext, { body }: { body: schemas.TransferBody }) {
  const { collection, role } = collectionOf(ctx);
  ctx.body = presentCollection(await transferItem(contentDeps(ctx), { kind: 'collection', item: collection }, body.organization), role, 'admin', ctx.urls);
}
