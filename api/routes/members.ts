import { findMember, listInvitationsOfUser, listMembers, shareAnOrganization } from '../../storage/members.js';
import { findOrganization } from '../../storage/organizations.js';
import { findContentGrants, findContentGrantsCached } from '../../storage/contentGrants.js';
import { listTeamsOfMember } from '../../storage/teams.js';
import { findUser } from '../../storage/users.js';
import {
  acceptInvitation,
  changeMemberRole,
  declineInvitation,
  inviteUsers,
  markMemberSso,
  organizationAccess,
  removeMember,
  spaceCounts,
  spaceCountsOfMembers as countsOf,
} from '../../domain/organizations/index.js';
import { actorOf, callerOf, organizationOf, type AppContext, contentDeps, pathParam } from '../context.js';
import { notFound } from '../errors.js';
import { inOrganization, signedIn } from '../policies/index.js';
import { presentInvitation } from '../presenters/invitation.js';
import { presentUser } from '../presenters/user.js';
import { presentList } from '../presenters/list.js';
import { presentMember } from '../presenters/member.js';
import { presentTeam } from '../presenters/team.js';
import * as schemas from '../schemas/members.js';
import type { MemberRecord } from '../../storage/members.js';
import { handle } from '../validate.js';
import { listReachableSpaces } from '../../storage/spaces.js';
import { RouteTable } from './table.js';
import { presentSpaceView } from '../presenters/space.js';
import { readSpaceViews } from '../../domain/spaces/index.js';
import { changeOwnProfile } from '../../domain/accounts/index.js';

export const memberRoutes = new RouteTable();
const routes = memberRoutes;

routes.get('/orgs/:organizationId/members', 'listMembersInOrganizationById', inOrganization('read'), handle({ query: schemas.listMembers }, list));
routes.get('/orgs/:organizationId/members/:userId', 'getMemberInOrganizationById', inOrganization('read', { orSelf: true }), handle({}, get));
routes.patch('/orgs/:organizationId/members/:userId', 'updateMemberInOrganizationById', inOrganization('admin'), handle({ body: schemas.updateMember }, update));
routes.delete('/orgs/:organizationId/members/:userId', 'removeMemberFromOrganizationById', inOrganization('admin', { orSelf: true }), handle({}, remove));
routes.post('/orgs/:organizationId/members/:userId/sso', 'setUserAsSSOMemberForOrganization', inOrganization('admin'), handle({}, setSso));
routes.get('/orgs/:organizationId/members/:userId/spaces', 'listSpacesForOrganizationMember', inOrganization('admin', { orSelf: true }), handle({ query: schemas.listMemberSpaces }, listSpaces));
routes.get('/orgs/:organizationId/members/:userId/teams', 'listTeamsForOrganizationMember', inOrganization('read', { orSelf: true }), handle({ query: schemas.listMemberTeams }, listTeams));
routes.post('/orgs/:organizationId/invites', 'inviteUsersToOrganization', inOrganization('admin'), handle({ body: schemas.inviteUsers }, invite));
routes.get('/users/:userId', 'getUserById', signedIn, handle({}, getUser));
routes.patch('/users/:userId', 'updateUserById', signedIn, handle({ body: schemas.updateUser }, updateUser));
routes.get('/user/invitations', 'quire:listInvitationsForAuthenticatedUser', signedIn, handle({}, listInvitations));
routes.post('/user/invitations/:organizationId', 'quire:acceptInvitation', signedIn, handle({}, accept));
routes.delete('/user/invitations/:organizationId', 'quire:declineInvitation', signedIn, handle({}, decline));

async function list(ctx: AppContext, { query }: { query: schemas.ListMembersQuery }) {
  const { organization } = organizationOf(ctx);
  const page = await listMembers(ctx.db, organization.id, query, query);
  const spaces = await spaceCounts(ctx.db, organization.id);
  const counts = await countsOf(spaces, page.items);
  ctx.body = presentList(page, (member) => presentMember(member, counts.get(member.user.id)!, ctx.urls));
}

async function present(ctx: AppContext, member: MemberRecord) {
  return presentMember(member, await (await spaceCounts(ctx.db, member.organizationId))({ role: member.role, userId: member.user.id }), ctx.urls);
}

async function memberOfPath(ctx: AppContext) {
  const { organization } = organizationOf(ctx);
  const member = await findMember(ctx.db, organization.id, pathParam(ctx, 'userId'));
  if (!member) throw notFound(`Member ${ctx.params.userId} not found in organization ${organization.id}`);
  return member;
}

async function get(ctx: AppContext) {
  ctx.body = await present(ctx, await memberOfPath(ctx));
}

async function update(ctx: AppContext, { body: { role } }: { body: schemas.UpdateMemberBody }) {
  const { organization } = organizationOf(ctx);
  const member = role === undefined ? await memberOfPath(ctx) : await changeMemberRole(ctx.db, actorOf(ctx), organization.id, pathParam(ctx, 'userId'), role);
  ctx.body = await present(ctx, member);
}

/** 205 when the member was removed, 204 when there was no such member (upstream semantics). */
async function remove(ctx: AppContext, { params }: { params: { userId: string } }) {
  const { organization } = organizationOf(ctx);
  ctx.status = (await removeMember(ctx.db, actorOf(ctx), organization.id, params.userId)) ? 205 : 204;
}

/**
 * Marks a member as signing in through SSO. Only members: a user who isn't one joins by their own
 * action (an invitation, their email domain), and an unknown id answers the same 404 as a non-member.
 */
async function setSso(ctx: AppContext, { params }: { params: { userId: string } }) {
  const { organization } = organizationOf(ctx);
  const userId = params.userId;
  const member = await markMemberSso(ctx.db, actorOf(ctx), organization.id, userId);
  ctx.body = await present(ctx, member);
}

/** The spaces the member reaches, with their effective role on each; newest first by default. */
async function listSpaces(ctx: AppContext, { query }: { query: schemas.ListMemberSpacesQuery }) {
  const { organization } = organizationOf(ctx);
  const member = await memberOfPath(ctx);
  const access = await organizationAccess(ctx.db, organization.id, member.role, await findContentGrants(ctx.db, member.user.id));
  const page = await listReachableSpaces(ctx.db, { organizationId: organization.id }, { ids: [...access.spaces.keys()] }, query);
  const callerAccess = await organizationAccess(ctx.db, organization.id, organizationOf(ctx).role, await findContentGrantsCached(ctx.db, callerOf(ctx).id));
  const items = (await readSpaceViews(contentDeps(ctx), page.items)).map((view) => ({
    permission: access.spaces.get(view.space.id)!.role,
    space: presentSpaceView(view, callerAccess.spaces.get(view.space.id)?.role, ctx.urls),
  }));
  ctx.body = presentList({ ...page, items }, (item) => item);
}

async function listTeams(ctx: AppContext, { query }: { query: schemas.ListMemberTeamsQuery }) {
  const { organization, role } = organizationOf(ctx);
  const member = await memberOfPath(ctx);
  const page = await listTeamsOfMember(ctx.db, organization.id, member.user.id, query, query);
  ctx.body = presentList(page, ({ team, role: teamRole }) => ({
    team: presentTeam(team, { role, teamRole: member.user.id === ctx.state.caller?.id ? teamRole : undefined }),
    member: { role: teamRole },
  }));
}

async function invite(ctx: AppContext, { body }: { body: schemas.InviteUsersBody }) {
  const { organization } = organizationOf(ctx);
  ctx.body = await inviteUsers(ctx.db, actorOf(ctx), organization, { ...body, invitedBy: callerOf(ctx).id });
}

/** Another user as the caller may see them: themselves, or someone they share an organization with; anyone else is a 404. */
async function getUser(ctx: AppContext, { params }: { params: { userId: string } }) {
  const caller = callerOf(ctx);
  const userId = params.userId;
  const user = userId === caller.id ? caller : (await shareAnOrganization(ctx.db, caller.id, userId)) ? await findUser(ctx.db, userId) : undefined;
  if (!user) throw notFound(`User ${userId} not found`);
  ctx.body = presentUser(user, ctx.urls);
}

/** Their own name or picture, changed by the user themself (domain/accounts changeOwnProfile). */
async function updateUser(ctx: AppContext, { params, body }: { params: { userId: string }; body: schemas.UpdateUserBody }) {
  ctx.body = presentUser(await changeOwnProfile(ctx.db, callerOf(ctx), params.userId, body), ctx.urls);
}

async function listInvitations(ctx: AppContext) {
  const invitations = await listInvitationsOfUser(ctx.db, callerOf(ctx).id);
  const items = [];
  for (const invitation of invitations) {
    const organization = await findOrganization(ctx.db, invitation.organizationId);
    if (organization) items.push(presentInvitation(invitation, organization, ctx.urls));
  }
  ctx.body = { items, count: items.length };
}

async function accept(ctx: AppContext, { params }: { params: { organizationId: string } }) {
  ctx.body = await present(ctx, await acceptInvitation(ctx.db, actorOf(ctx), params.organizationId, callerOf(ctx).id));
}

/** 205 when an invitation was declined, 204 when none was waiting. */
async function decline(ctx: AppContext, { params }: { params: { organizationId: string } }) {
  ctx.status = (await declineInvitation(ctx.db, params.organizationId, callerOf(ctx).id)) ? 205 : 204;
}
