import {
  changeSpace,
  createSpace,
  deleteSpace,
  duplicateSpace,
  moveItem,
  restoreSpace,
  toMergeRules,
  transferItem,
  readSpaceView,
  readSpaceViews,
  builtInTemplate,
} from '../../domain/spaces/index.js';
import { publishedPlaceOfSpace } from '../../domain/sites/index.js';
import { listReachableSpaces } from '../../storage/spaces.js';
import { organizationAccess, roleOnSpace } from '../../domain/organizations/index.js';
import { actorOf, callerOf, contentDeps, jobDeps, organizationOf, spaceOf, type AppContext, grantsOf } from '../context.js';
import { badRequest, conflict } from '../errors.js';
import { inOrganization, inSpace } from '../policies/index.js';
import { organizationActions, spaceActions, spaceSettings } from '../policies/actions.js';
import { adminOfTargetOrganization, createWhereItLands, fieldsNeed, organizationRole } from '../policies/requirements.js';
import { presentList } from '../presenters/list.js';
import { spacePublishedUrl } from '../presenters/site.js';
import * as schemas from '../schemas/spaces.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';
import { presentSpaceView } from '../presenters/space.js';

export const spaceRoutes = new RouteTable();
const routes = spaceRoutes;
const { view, edit, admin } = spaceActions;

routes.get('/orgs/:organizationId/spaces', 'listSpacesInOrganizationById', inOrganization(null), handle({ query: schemas.listSpaces }, list));
routes.post(
  '/orgs/:organizationId/spaces',
  'createSpace',
  inOrganization(organizationActions.create, { also: [createWhereItLands('Creating a space', 'stays')] }),
  handle({ body: schemas.createSpace }, create),
);
routes.get('/spaces/:spaceId', 'getSpaceById', inSpace(view), handle({ query: schemas.getSpace }, get));
routes.light('getSpaceById');
routes.patch('/spaces/:spaceId', 'updateSpaceById', inSpace(edit, { also: [fieldsNeed(admin, spaceSettings, { editMode: 'live' })] }), handle({ body: schemas.updateSpace }, update));
routes.delete('/spaces/:spaceId', 'deleteSpaceById', inSpace(admin, { deleted: true }), handle({}, remove));
routes.post('/spaces/:spaceId/restore', 'restoreSpace', inSpace(admin, { deleted: true }), handle({}, restore));
routes.post(
  '/spaces/:spaceId/duplicate',
  'duplicateSpace',
  inSpace(view, { also: [organizationRole(organizationActions.create, 'Duplicating a space'), createWhereItLands('Duplicating a space', 'stays')] }),
  handle({}, duplicate),
);
routes.post('/spaces/:spaceId/move', 'moveSpace', inSpace(admin, { also: [createWhereItLands('Moving a space', 'skip')] }), handle({ body: schemas.moveSpace }, move));
routes.post(
  '/spaces/:spaceId/transfer',
  'transferSpace',
  inSpace(admin, { also: [organizationRole(organizationActions.admin, 'Transferring a space'), adminOfTargetOrganization('Transferring a space')] }),
  handle({ body: schemas.transfer }, transfer),
);

/** The spaces the caller can reach, oldest first. */
async function list(ctx: AppContext, { query }: { query: schemas.ListSpacesQuery }) {
  const { organization, role } = organizationOf(ctx);
  const reachable = (await organizationAccess(ctx.db, organization.id, role, await grantsOf(ctx))).spaces;
  const page = await listReachableSpaces(ctx.db, { organizationId: organization.id }, { ids: [...reachable.keys()] }, query);
  const items = (await readSpaceViews(contentDeps(ctx), page.items)).map((view) => presentSpaceView(view, reachable.get(view.space.id)?.role, ctx.urls));
  ctx.body = presentList({ ...page, items }, (item) => item);
}

async function create(ctx: AppContext, { body }: { body: schemas.CreateSpaceBody }) {
  const { organization, role } = organizationOf(ctx);
  if (body.template && body.empty) throw badRequest('Give "template" or "empty", not both');
  const template = body.empty ? null : builtInTemplate(body.template?.id ?? 'blank');
  const space = await createSpace(contentDeps(ctx), {
    organizationId: organization.id,
    collectionId: body.parent ?? null,
    title: body.title ?? '',
    emoji: body.emoji ?? null,
    editMode: body.editMode,
    language: body.language ?? null,
    createdBy: callerOf(ctx).id,
    creator: callerOf(ctx),
    template,
  });
  ctx.status = 201;
  ctx.body = presentSpaceView(await readSpaceView(contentDeps(ctx), space), await roleOnSpace(ctx.db, role, space, await grantsOf(ctx)), ctx.urls);
}

/** `shareKey`: an active key of a share-link site showing the space resolves `urls.published` (docs/decisions/sites.md, *Docs sites*). */
async function get(ctx: AppContext, { query }: { query: { shareKey?: string } }) {
  const { space, role } = spaceOf(ctx);
  const [presented, place] = await Promise.all([
    readSpaceView(contentDeps(ctx), space).then((view) => presentSpaceView(view, role, ctx.urls)),
    publishedPlaceOfSpace(ctx.db, space.id, query.shareKey),
  ]);
  ctx.body = place ? { ...presented, urls: { ...presented.urls, published: spacePublishedUrl(ctx.urls, place) } } : presented;
}

/** Title and emoji need edit; the space's settings need admin (the route's field rule). */
async function update(ctx: AppContext, { body }: { body: schemas.UpdateSpaceBody }) {
  const { space, role } = spaceOf(ctx);
  const { icon, mergeRules, ...changes } = body;
  if (icon !== undefined && body.emoji !== undefined) throw badRequest('Give "emoji" or "icon", not both');
  const updated = await changeSpace(ctx.db, actorOf(ctx), space, {
    ...changes,
    ...(mergeRules ? { mergeRules: toMergeRules(mergeRules) } : {}),
    // A space's icon image isn't stored yet: setting one clears the emoji.
    ...(icon !== undefined ? { emoji: null } : {}),
  });
  ctx.body = presentSpaceView(await readSpaceView(contentDeps(ctx), updated), role, ctx.urls);
}

/** Into the bin (205), purged after the retention by its job; a space already there answers 204. */
async function remove(ctx: AppContext) {
  const { space } = spaceOf(ctx);
  ctx.status = !space.deletedAt && (await deleteSpace(jobDeps(ctx), actorOf(ctx), space)) ? 205 : 204;
}

/** Inside the retention window only: after it the space is as good as gone (404), purged or not. */
async function restore(ctx: AppContext) {
  const { space, role } = spaceOf(ctx);
  if (!space.deletedAt) throw conflict(`Space ${space.id} is not deleted`);
  ctx.body = presentSpaceView(await readSpaceView(contentDeps(ctx), await restoreSpace(jobDeps(ctx), actorOf(ctx), { ...space, deletedAt: space.deletedAt })), role, ctx.urls);
}

async function duplicate(ctx: AppContext) {
  const { space, organizationRole } = spaceOf(ctx);
  const copy = await duplicateSpace(contentDeps(ctx), space, callerOf(ctx));
  ctx.status = 201;
  ctx.body = presentSpaceView(await readSpaceView(contentDeps(ctx), copy), await roleOnSpace(ctx.db, organizationRole, copy, await grantsOf(ctx)), ctx.urls);
}

async function move(ctx: AppContext, { body }: { body: schemas.MoveBody }) {
  const { space, role } = spaceOf(ctx);
  ctx.body = presentSpaceView(await readSpaceView(contentDeps(ctx), await moveItem(ctx.db, { kind: 'space', item: space }, body)), role, ctx.urls);
}

/** To another organization the caller administers; the space leaves its collection. */
async function transfer(ctx: AppContext, { body }: { body: schemas.TransferBody }) {
  const { space, role } = spaceOf(ctx);
  ctx.body = presentSpaceView(await readSpaceView(contentDeps(ctx), await transferItem(contentDeps(ctx), { kind: 'space', item: space }, body.organization)), role, ctx.urls);
}
