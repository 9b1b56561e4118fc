import { findMember } from '../../storage/members.js';
import { deleteTeam, findTeam, findTeamRole, listTeamMembers, listTeams, removeTeamMember, renameTeam, teamRolesOf, type TeamRecord, type TeamRole } from '../../storage/teams.js';
import { addTeamMember, createTeam, updateTeamMembers, type TeamMembershipChanges } from '../commands/teams.js';
import { callerOf, organizationOf, type AppContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { inOrganization } from '../policies/index.js';
import { presentList } from '../presenters/list.js';
import { presentMember } from '../presenters/member.js';
import { presentTeam } from '../presenters/team.js';
import type { PageQuery } from '../schemas/common.js';
import * as schemas from '../schemas/teams.js';
import { validate } from '../validate.js';
import { spaceCountsByRole } from '../commands/access.js';
import { RouteTable } from './table.js';

export const teamRoutes = new RouteTable();
const routes = teamRoutes;
const manageTeam = inOrganization('admin', { orTeamOwner: true });

routes.get('/orgs/:organizationId/teams', 'listTeamsInOrganizationById', inOrganization('read'), validate({ query: schemas.listTeams }), list);
routes.put('/orgs/:organizationId/teams', 'createOrganizationTeam', inOrganization('admin'), validate({ body: schemas.createTeam }), create);
routes.get('/orgs/:organizationId/teams/:teamId', 'getTeamInOrganizationById', inOrganization('read'), get);
routes.patch('/orgs/:organizationId/teams/:teamId', 'updateTeamInOrganizationById', manageTeam, validate({ body: schemas.updateTeam }), update);
routes.delete('/orgs/:organizationId/teams/:teamId', 'removeTeamFromOrganizationById', inOrganization('admin'), remove);
routes.get('/orgs/:organizationId/teams/:teamId/members', 'listTeamMembersInOrganizationById', inOrganization('read'), validate({ query: schemas.listTeamMembers }), listMembers);
routes.put('/orgs/:organizationId/teams/:teamId/members', 'updateMembersInOrganizationTeam', manageTeam, validate({ body: schemas.updateTeamMembers }), updateMembers);
routes.put('/orgs/:organizationId/teams/:teamId/members/:userId', 'addMemberToOrganizationTeamById', manageTeam, validate({ body: schemas.addTeamMember }), addMember);
routes.delete('/orgs/:organizationId/teams/:teamId/members/:userId', 'deleteMemberFromOrganizationTeamById', manageTeam, removeMember);

async function teamOfPath(ctx: AppContext): Promise<TeamRecord> {
  const { organization } = organizationOf(ctx);
  const team = await findTeam(ctx.db, organization.id, ctx.params.teamId ?? '');
  if (!team) throw notFound(`Team ${ctx.params.teamId} not found in organization ${organization.id}`);
  return team;
}

async function present(ctx: AppContext, team: TeamRecord, teamRole?: TeamRole) {
  const { role } = organizationOf(ctx);
  return presentTeam(team, { role, teamRole: teamRole ?? (await findTeamRole(ctx.db, team.organizationId, team.id, callerOf(ctx).id)) });
}

/** `owner`: the teams that member can manage (all of them for an organization admin). */
async function list(ctx: AppContext) {
  const { organization, role } = organizationOf(ctx);
  const query = ctx.state.query as unknown as PageQuery & { owner?: string; title?: string };
  let ownedBy: string | undefined;
  if (query.owner) {
    const owner = await findMember(ctx.db, organization.id, query.owner);
    if (!owner) throw badRequest(`"owner" ${query.owner} is not a member of the organization`);
    if (owner.role !== 'admin') ownedBy = owner.user.id;
  }
  const page = await listTeams(ctx.db, organization.id, { title: query.title, ownedBy }, query);
  const teamRoles = await teamRolesOf(ctx.db, callerOf(ctx).id, page.items.map((team) => team.id));
  ctx.body = presentList(page, (team) => presentTeam(team, { role, teamRole: teamRoles.get(team.id) }));
}

async function create(ctx: AppContext) {
  const { organization } = organizationOf(ctx);
  const team = await createTeam(ctx.db, organization.id, ctx.request.body as { title: string; members?: string[] });
  ctx.status = 201;
  ctx.body = await present(ctx, team);
}

async function get(ctx: AppContext) {
  ctx.body = await present(ctx, await teamOfPath(ctx));
}

async function update(ctx: AppContext) {
  const { organization } = organizationOf(ctx);
  const team = await teamOfPath(ctx);
  const { title } = ctx.request.body as { title: string };
  ctx.body = await present(ctx, await renameTeam(ctx.db, organization.id, team.id, title));
}

async function remove(ctx: AppContext) {
  const { organization } = organizationOf(ctx);
  ctx.status = (await deleteTeam(ctx.db, organization.id, ctx.params.teamId ?? '')) ? 205 : 204;
}

async function listMembers(ctx: AppContext) {
  const { organization } = organizationOf(ctx);
  const team = await teamOfPath(ctx);
  const page = await listTeamMembers(ctx.db, organization.id, team.id, ctx.state.query as unknown as PageQuery);
  const spaces = await spaceCountsByRole(ctx.db, organization.id);
  ctx.body = presentList(page, ({ role, member }) => ({ organization: presentMember(member, spaces(member.role), ctx.urls), team: { role }, permissions: { view: true } }));
}

async function updateMembers(ctx: AppContext) {
  const { organization } = organizationOf(ctx);
  const team = await teamOfPath(ctx);
  await updateTeamMembers(ctx.db, organization.id, team.id, ctx.request.body as TeamMembershipChanges);
  ctx.status = 204;
}

async function addMember(ctx: AppContext) {
  const { organization } = organizationOf(ctx);
  const team = await teamOfPath(ctx);
  const { role } = ctx.request.body as { role?: TeamRole };
  await addTeamMember(ctx.db, organization.id, team.id, ctx.params.userId ?? '', role);
  ctx.status = 204;
}

/** 205 when removed, 204 when the user was not in the team (upstream semantics). */
async function removeMember(ctx: AppContext) {
  const team = await teamOfPath(ctx);
  ctx.status = (await removeTeamMember(ctx.db, team.id, ctx.params.userId ?? '')) ? 205 : 204;
}
