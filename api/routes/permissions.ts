import type { Grantee, PermissionTarget } from '../../storage/contentGrants.js';
import type { PageRequest } from '../../storage/pagination.js';
import { teamRolesOf, type TeamRecord } from '../../storage/teams.js';
import { inviteToTarget, listPeopleGranted, listTeamsGranted, removeGrant, setGrant, whoReachesCollection, whoReachesSite, whoReachesSpace } from '../../domain/permissions/index.js';
import { siteOf as findSiteOf } from '../../domain/sites/index.js';
import { listTeamMemberIds } from '../../domain/organizations/index.js';
import { actorOf, callerOf, collectionOf, organizationOf, spaceOf, type AppContext, pathParam } from '../context.js';
import { badRequest } from '../errors.js';
import { inCollection, inSite, inSpace } from '../policies/index.js';
import { organizationRole } from '../policies/requirements.js';
import { presentList } from '../presenters/list.js';
import { presentSitePermission, presentTeamPermission, presentUserPermission } from '../presenters/permission.js';
import { listQuery, type PageQuery } from '../schemas/common.js';
import * as schemas from '../schemas/permissions.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

// Who is given which role on a space, a collection or a site, and who reaches it (docs/permissions.md).
export const permissionRoutes = new RouteTable();
const routes = permissionRoutes;

// Lists of people are the organization's to read (as its member list): guests invited to the content don't see them.
const seePeople = (what: string) => organizationRole('read', `Listing who can access a ${what}`);

const space = '/spaces/:spaceId/permissions';
routes.post(space, 'inviteToSpace', inSpace('admin'), handle({ body: schemas.invite }, invite));
routes.get(`${space}/users`, 'listUserPermissionsInSpace', inSpace('read', { also: [seePeople('space')] }), handle({ query: listQuery }, listUsers));
routes.patch(`${space}/users/:userId`, 'updateUserPermissionInSpace', inSpace('admin'), handle({ body: schemas.updateContentPermission, bodyRequired: true }, updateUser));
routes.delete(`${space}/users/:userId`, 'removeUserFromSpace', inSpace('admin'), handle({}, removeUser));
routes.get(`${space}/teams`, 'listTeamPermissionsInSpace', inSpace('read', { also: [seePeople('space')] }), handle({ query: listQuery }, listTeams));
routes.patch(`${space}/teams/:teamId`, 'updateTeamPermissionInSpace', inSpace('admin'), handle({ body: schemas.updateContentPermission, bodyRequired: true }, updateTeam));
routes.delete(`${space}/teams/:teamId`, 'removeTeamFromSpace', inSpace('admin'), handle({}, removeTeam));
routes.get(`${space}/aggregate`, 'listPermissionsAggregateInSpace', inSpace('read', { also: [seePeople('space')] }), handle({ query: schemas.aggregateQuery }, aggregateOfSpace));

const collection = '/collections/:collectionId/permissions';
routes.post(collection, 'inviteToCollection', inCollection('admin'), handle({ body: schemas.invite }, invite));
routes.get(`${collection}/users`, 'listUserPermissionsInCollection', inCollection('read', { also: [seePeople('collection')] }), handle({ query: listQuery }, listUsers));
routes.patch(`${collection}/users/:userId`, 'updateUserPermissionInCollection', inCollection('admin'), handle({ body: schemas.updateContentPermission, bodyRequired: true }, updateUser));
routes.delete(`${collection}/users/:userId`, 'removeUserFromCollection', inCollection('admin'), handle({}, removeUser));
routes.get(`${collection}/teams`, 'listTeamPermissionsInCollection', inCollection('read', { also: [seePeople('collection')] }), handle({ query: listQuery }, listTeams));
routes.patch(`${collection}/teams/:teamId`, 'updateTeamPermissionInCollection', inCollection('admin'), handle({ body: schemas.updateContentPermission, bodyRequired: true }, updateTeam));
routes.delete(`${collection}/teams/:teamId`, 'removeTeamFromCollection', inCollection('admin'), handle({}, removeTeam));
routes.get(
  `${collection}/aggregate`,
  'listPermissionsAggregateInCollection',
  inCollection('read', { also: [seePeople('collection')] }),
  handle({ query: schemas.aggregateQuery }, aggregateOfCollection),
);

const site = '/orgs/:organizationId/sites/:siteId/permissions';
routes.post(site, 'inviteToSite', inSite('admin'), handle({ body: schemas.invite }, invite));
routes.get(`${site}/users`, 'listUserPermissionsInSite', inSite('read', { also: [seePeople('site')] }), handle({ query: listQuery }, listUsers));
routes.patch(`${site}/users/:userId`, 'updateUserPermissionInSite', inSite('admin'), handle({ body: schemas.updateSitePermission, bodyRequired: true }, updateUser));
routes.delete(`${site}/users/:userId`, 'removeUserFromSite', inSite('admin'), handle({}, removeUser));
routes.get(`${site}/teams`, 'listTeamPermissionsInSite', inSite('read', { also: [seePeople('site')] }), handle({ query: listQuery }, listTeams));
routes.patch(`${site}/teams/:teamId`, 'updateTeamPermissionInSite', inSite('admin'), handle({ body: schemas.updateSitePermission, bodyRequired: true }, updateTeam));
routes.delete(`${site}/teams/:teamId`, 'removeTeamFromSite', inSite('admin'), handle({}, removeTeam));
routes.get(`${site}/aggregate`, 'listPermissionsAggregateInSite', inSite('read', { also: [seePeople('site')] }), handle({ query: schemas.siteAggregateQuery }, aggregateOfSite));

/** The space, collection or site of the path, with its organization: the one the policy checked. */
async function targetOf(ctx: AppContext): Promise<{ organizationId: string; target: PermissionTarget }> {
  if (ctx.state.space) return { organizationId: spaceOf(ctx).space.organizationId, target: { kind: 'space', id: spaceOf(ctx).space.id } };
  if (ctx.state.collection) return { organizationId: collectionOf(ctx).collection.organizationId, target: { kind: 'collection', id: collectionOf(ctx).collection.id } };
  const { organization } = organizationOf(ctx);
  const found = await findSiteOf(ctx.db, organization.id, pathParam(ctx, 'siteId'));
  return { organizationId: organization.id, target: { kind: 'site', id: found.id } };
}

async function invite(ctx: AppContext, { body }: { body: schemas.InviteBody }) {
  if (!body.users && !body.teams) throw badRequest('An invitation names "users", "teams" or both');
  const { organizationId, target } = await targetOf(ctx);
  await inviteToTarget(ctx.db, actorOf(ctx), organizationId, target, body.role, { users: body.users, teams: body.teams });
  ctx.status = 204;
}

async function updateUser(ctx: AppContext, { body, params }: { body: schemas.UpdateContentPermissionBody; params: { userId: string } }) {
  await updateGrant(ctx, { kind: 'user', id: params.userId }, body.role);
}

async function updateTeam(ctx: AppContext, { body, params }: { body: schemas.UpdateContentPermissionBody; params: { teamId: string } }) {
  await updateGrant(ctx, { kind: 'team', id: params.teamId }, body.role);
}

async function updateGrant(ctx: AppContext, grantee: Grantee, role: schemas.UpdateContentPermissionBody['role']) {
  const { organizationId, target } = await targetOf(ctx);
  await setGrant(ctx.db, actorOf(ctx), organizationId, target, grantee, role);
  ctx.status = 204;
}

async function removeUser(ctx: AppContext, { params }: { params: { userId: string } }) {
  const { organizationId, target } = await targetOf(ctx);
  ctx.status = (await removeGrant(ctx.db, actorOf(ctx), organizationId, target, { kind: 'user', id: params.userId })) ? 205 : 204;
}

async function removeTeam(ctx: AppContext, { params }: { params: { teamId: string } }) {
  const { organizationId, target } = await targetOf(ctx);
  ctx.status = (await removeGrant(ctx.db, actorOf(ctx), organizationId, target, { kind: 'team', id: params.teamId })) ? 205 : 204;
}

async function listUsers(ctx: AppContext, { query }: { query: PageQuery }) {
  const { organizationId, target } = await targetOf(ctx);
  const page = await listPeopleGranted(ctx.db, organizationId, target, query);
  ctx.body = presentList(page, (grant) => presentUserPermission(grant.member, grant.role, ctx.urls));
}

async function listTeams(ctx: AppContext, { query }: { query: PageQuery }) {
  const { organizationId, target } = await targetOf(ctx);
  const page = await listTeamsGranted(ctx.db, organizationId, target, query);
  const viewer = await teamViewer(
    ctx,
    page.items.map((grant) => grant.team),
  );
  ctx.body = presentList(page, (grant) => presentTeamPermission(grant.team, grant.role, viewer(grant.team)));
}

/** The caller as a viewer of these teams: their organization role, and whether they own each. */
async function teamViewer(ctx: AppContext, teams: TeamRecord[]) {
  const role = ctx.state.role ?? null;
  const owned = await teamRolesOf(
    ctx.db,
    callerOf(ctx).id,
    teams.map((team) => team.id),
  );
  return (team: TeamRecord) => ({ role, teamRole: owned.get(team.id) });
}

async function aggregateOfSpace(ctx: AppContext, { query }: { query: schemas.AggregateQuery & PageRequest }) {
  const page = await whoReachesSpace(ctx.db, spaceOf(ctx).space, { role: query.role }, query);
  ctx.body = presentList(page, (reach) => presentUserPermission(reach.member, reach.role!, ctx.urls));
}

async function aggregateOfCollection(ctx: AppContext, { query }: { query: schemas.AggregateQuery & PageRequest }) {
  const page = await whoReachesCollection(ctx.db, collectionOf(ctx).collection, { role: query.role }, query);
  ctx.body = presentList(page, (reach) => presentUserPermission(reach.member, reach.role!, ctx.urls));
}

async function aggregateOfSite(ctx: AppContext, { query }: { query: schemas.SiteAggregateQuery }) {
  const { organization } = organizationOf(ctx);
  const found = await findSiteOf(ctx.db, organization.id, pathParam(ctx, 'siteId'));
  const teamMembers = query.team === undefined ? undefined : new Set(await listTeamMemberIds(ctx.db, organization.id, query.team));
  const page = await whoReachesSite(ctx.db, found, { role: query.role, search: query.search, sort: query.sort, order: query.order, teamMembers }, { limit: query.limit, page: query.page });
  ctx.body = presentList(page, (reach) => presentSitePermission(reach, found, ctx.urls));
}
