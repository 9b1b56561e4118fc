import { findMember } from '../../storage/members.js';
import { findTeam, findTeamRole, listTeamMembers, listTeams, teamRolesOf, type TeamRecord, type TeamRole } from '../../storage/teams.js';
import { addTeamMember, createTeam, removeFromTeam, removeTeam, renameTeamOf, spaceCounts, spaceCountsOfMembers as countsOf, updateTeamMembers } from '../../domain/organizations/index.js';
import { actorOf, callerOf, organizationOf, type AppContext, pathParam } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { inOrganization } from '../policies/index.js';
import { presentList } from '../presenters/list.js';
import { presentMember } from '../presenters/member.js';
import { presentTeam } from '../presenters/team.js';
import * as schemas from '../schemas/teams.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const teamRoutes = new RouteTable();
const routes = teamRoutes;
const manageTeam = inOrganization('admin', { orTeamOwner: true });

routes.get('/orgs/:organizationId/teams', 'listTeamsInOrganizationById', inOrganization('read'), handle({ query: schemas.listTeams }, list));
routes.put('/orgs/:organizationId/teams', 'createOrganizationTeam', inOrganization('admin'), handle({ body: schemas.createTeam }, create));
routes.get('/orgs/:organizationId/teams/:teamId', 'getTeamInOrganizationById', inOrganization('read'), handle({}, get));
routes.patch('/orgs/:organizationId/teams/:teamId', 'updateTeamInOrganizationById', manageTeam, handle({ body: schemas.updateTeam }, update));
routes.delete('/orgs/:organizationId/teams/:teamId', 'removeTeamFromOrganizationById', inOrganization('admin'), handle({}, remove));
routes.get('/orgs/:organizationId/teams/:teamId/members', 'listTeamMembersInOrganizationById', inOrganization('read'), handle({ query: schemas.listTeamMembers }, listMembers));
routes.put('/orgs/:organizationId/teams/:teamId/members', 'updateMembersInOrganizationTeam', manageTeam, handle({ body: schemas.updateTeamMembers }, updateMembers));
routes.put('/orgs/:organizationId/teams/:teamId/members/:userId', 'addMemberToOrganizationTeamById', manageTeam, handle({ body: schemas.addTeamMember }, addMember));
routes.delete('/orgs/:organizationId/teams/:teamId/members/:userId', 'deleteMemberFromOrganizationTeamById', manageTeam, handle({}, removeMember));

async function teamOfPath(ctx: AppContext): Promise<TeamRecord> {
  const { organization } = organizationOf(ctx);
  const team = await findTeam(ctx.db, organization.id, pathParam(ctx, 'teamId'));
  if (!team) throw notFound(`Team ${ctx.params.teamId} not found in organization ${organization.id}`);
  return team;
}

async function present(ctx: AppContext, team: TeamRecord, teamRole?: TeamRole) {
  const { role } = organizationOf(ctx);
  return presentTeam(team, { role, teamRole: teamRole ?? (await findTeamRole(ctx.db, team.organizationId, team.id, callerOf(ctx).id)) });
}

/** `owner`: the teams that member can manage (all of them for an organization admin). */
async function list(ctx: AppContext, { query }: { query: schemas.ListTeamsQuery }) {
  const { organization, role } = organizationOf(ctx);
  let ownedBy: string | undefined;
  if (query.owner) {
    const owner = await findMember(ctx.db, organization.id, query.owner);
    if (!owner) throw badRequest(`"owner" ${query.owner} is not a member of the organization`);
    if (owner.role !== 'admin') ownedBy = owner.user.id;
  }
  const page = await listTeams(ctx.db, organization.id, { title: query.title, ownedBy }, query);
  const teamRoles = await teamRolesOf(
    ctx.db,
    callerOf(ctx).id,
    page.items.map((team) => team.id),
  );
  ctx.body = presentList(page, (team) => presentTeam(team, { role, teamRole: teamRoles.get(team.id) }));
}

async function create(ctx: AppContext, { body }: { body: schemas.CreateTeamBody }) {
  const { organization } = organizationOf(ctx);
  const team = await createTeam(ctx.db, organization.id, body);
  ctx.status = 201;
  ctx.body = await present(ctx, team);
}

async function get(ctx: AppContext) {
  ctx.body = await present(ctx, await teamOfPath(ctx));
}

async function update(ctx: AppContext, { body }: { body: schemas.UpdateTeamBody }) {
  const { organization } = organizationOf(ctx);
  const team = await teamOfPath(ctx);
  ctx.body = await present(ctx, await renameTeamOf(ctx.db, organization.id, team.id, body.title));
}

async function remove(ctx: AppContext, { params }: { params: { teamId: string } }) {
  const { organization } = organizationOf(ctx);
  ctx.status = (await removeTeam(ctx.db, actorOf(ctx), organization.id, params.teamId)) ? 205 : 204;
}

async function listMembers(ctx: AppContext, { query }: { query: schemas.ListTeamMembersQuery }) {
  const { organization } = organizationOf(ctx);
  const team = await teamOfPath(ctx);
  const page = await listTeamMembers(ctx.db, organization.id, team.id, query);
  const spaces = await spaceCounts(ctx.db, organization.id);
  const counts = await countsOf(
    spaces,
    page.items.map((item) => item.member),
  );
  ctx.body = presentList(page, ({ role, member }) => ({ organization: presentMember(member, counts.get(member.user.id)!, ctx.urls), team: { role }, permissions: { view: true } }));
}

async function updateMembers(ctx: AppContext, { body }: { body: schemas.UpdateTeamMembersBody }) {
  const { organization } = organizationOf(ctx);
  const team = await teamOfPath(ctx);
  await updateTeamMembers(ctx.db, actorOf(ctx), organization.id, team.id, body);
  ctx.status = 204;
}

async function addMember(ctx: AppContext, { params, body }: { params: { userId: string }; body: schemas.AddTeamMemberBody }) {
  const { organization } = organizationOf(ctx);
  const team = await teamOfPath(ctx);
  await addTeamMember(ctx.db, actorOf(ctx), organization.id, team.id, params.userId, body.role);
  ctx.status = 204;
}

/** 205 when removed, 204 when the user was not in the team (upstream semantics). */
async function removeMember(ctx: AppContext, { params }: { params: { userId: string } }) {
  const team = await teamOfPath(ctx);
  ctx.status = (await removeFromTeam(ctx.db, actorOf(ctx), team.organizationId, team.id, params.userId)) ? 205 : 204;
}
