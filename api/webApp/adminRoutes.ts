import type Router from '@koa/router';
import { acceptWelcome, readWelcome, welcomeLinksFor } from '../../domain/accounts/index.js';
import { DomainError } from '../../domain/common/errors.js';
import { readPeople } from '../../domain/common/people.js';
import {
  acceptInvitation,
  acceptInviteLink,
  addTeamMember,
  changeMemberRole,
  changeSamlProvider,
  createInviteLink,
  createSamlProvider,
  createTeam,
  declineInvitation,
  inviteUsers,
  openInviteLink,
  providerIsUsable,
  removeFromTeam,
  removeInviteLink,
  removeMember,
  removeSamlProvider,
  removeTeam,
  samlProviderFieldsProblem,
} from '../../domain/organizations/index.js';
import { listInviteLinks } from '../../storage/inviteLinks.js';
import { findMember, listInvitationsOfOrganization, listMembers, memberRoles, type MemberRole } from '../../storage/members.js';
import { listAllSamlProviders, type SamlProviderFields } from '../../storage/samlProviders.js';
import { findTeam, listTeamMembers, listTeams } from '../../storage/teams.js';
import { actorOf, callerOf, organizationOf, pathParam, type AppContext, type AppServices, type AppState } from '../context.js';
import { badRequest, notFound, toHttpError } from '../errors.js';
import { inOrganization } from '../policies/index.js';
import { adminContent, joinContent, welcomeContent, type AdminPage } from './adminPages.js';
import { checkedForm, readForm } from './forms.js';
import { signedIn } from './guards.js';
import { sendPage } from './layout.js';
import { noticeOf, type Notice } from './notices.js';
import { organizationPath } from './paths.js';
import { checkFormOrigin, setSessionCookie, signInToken } from './sessionCookie.js';

const admin = '/o/:organizationId/admin';
const asAdmin = [signedIn, inOrganization('admin').check] as never[];

/**
 * An organization's administration in the app (its admins: the policy of the API's member, team,
 * invite-link and SAML operations), joining by invite link, and the welcome link an invited person
 * without a password opens. Each form calls the domain command the API's operation calls.
 */
export function addAdminRoutes(router: Router<AppState, AppServices>): void {
  router.get(admin, ...asAdmin, (ctx) => showAdmin(ctx as AppContext, { notice: noticeOf(ctx as AppContext) }));

  router.post(`${admin}/members/role`, ...asAdmin, (ctx) =>
    acting(ctx as AppContext, async (form, organizationId) => {
      await changeMemberRole((ctx as AppContext).db, actorOf(ctx as AppContext), organizationId, form.get('user') ?? '', roleOf(form.get('role')));
      return 'role-changed';
    }),
  );
  router.post(`${admin}/members/remove`, ...asAdmin, (ctx) =>
    acting(ctx as AppContext, async (form, organizationId) => {
      if (!(await removeMember((ctx as AppContext).db, actorOf(ctx as AppContext), organizationId, form.get('user') ?? ''))) throw notFound('No such member');
      return 'member-removed';
    }),
  );
  router.post(`${admin}/invite`, ...asAdmin, async (ctx) => {
    const app = ctx as AppContext;
    const { organization } = organizationOf(app);
    const form = await checkedForm(app);
    try {
      const emails = (form.get('emails') ?? '')
        .split(/[\s,;]+/)
        .map((email) => email.trim())
        .filter(Boolean);
      if (emails.length === 0 || emails.length > 100) throw badRequest('"emails": give 1 to 100 emails');
      const wrong = emails.find((email) => email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email));
      if (wrong) throw badRequest(`"emails": ${wrong} is not an email`);
      const result = await inviteUsers(app.db, actorOf(app), organization, { emails, role: roleOf(form.get('role')), invitedBy: callerOf(app).id });
      const links = await welcomeLinksFor(app.db, organization, result.users, callerOf(app).id);
      const people = await readPeople(app.db, [...links.keys()]);
      const welcomeLinks = [...links].map(([userId, secret]) => ({ user: people(userId), url: app.urls.app(`/welcome/${secret}`) }));
      await showAdmin(app, { notice: `${result.invited} invited.`, welcomeLinks }, 201);
    } catch (error) {
      const http = toHttpError(error);
      if (!http || http.status >= 500) throw error;
      await showAdmin(app, { problem: http.message }, http.status);
    }
  });
  router.post(`${admin}/invite-links`, ...asAdmin, (ctx) =>
    acting(ctx as AppContext, async (form, organizationId) => {
      await createInviteLink((ctx as AppContext).db, { organizationId, target: { kind: 'organization' }, role: roleOf(form.get('role')), createdBy: callerOf(ctx as AppContext).id });
      return 'link-created';
    }),
  );
  router.post(`${admin}/invite-links/delete`, ...asAdmin, (ctx) =>
    acting(ctx as AppContext, async (form, organizationId) => {
      await removeInviteLink((ctx as AppContext).db, organizationId, form.get('id') ?? '');
      return 'link-deleted';
    }),
  );
  router.post(`${admin}/teams`, ...asAdmin, (ctx) =>
    acting(ctx as AppContext, async (form, organizationId) => {
      const title = (form.get('title') ?? '').trim();
      if (!title || title.length > 100) throw badRequest('A team’s title has 1 to 100 characters');
      await createTeam((ctx as AppContext).db, organizationId, { title });
      return 'team-created';
    }),
  );
  router.post(`${admin}/teams/members`, ...asAdmin, (ctx) =>
    acting(ctx as AppContext, async (form, organizationId) => {
      await addTeamMember((ctx as AppContext).db, actorOf(ctx as AppContext), organizationId, form.get('team') ?? '', form.get('user') ?? '');
      return 'team-member-added';
    }),
  );
  router.post(`${admin}/teams/members/remove`, ...asAdmin, (ctx) =>
    acting(ctx as AppContext, async (form, organizationId) => {
      const team = await findTeam((ctx as AppContext).db, organizationId, form.get('team') ?? '');
      if (!team) throw notFound('No such team');
      await removeFromTeam((ctx as AppContext).db, actorOf(ctx as AppContext), organizationId, team.id, form.get('user') ?? '');
      return 'team-member-removed';
    }),
  );
  router.post(`${admin}/teams/delete`, ...asAdmin, (ctx) =>
    acting(ctx as AppContext, async (form, organizationId) => {
      await removeTeam((ctx as AppContext).db, actorOf(ctx as AppContext), organizationId, form.get('team') ?? '');
      return 'team-deleted';
    }),
  );
  router.post(`${admin}/saml`, ...asAdmin, (ctx) =>
    acting(ctx as AppContext, async (form, organizationId) => {
      const fields = samlFields(form);
      await createSamlProvider((ctx as AppContext).db, actorOf(ctx as AppContext), organizationId, { ...fields, label: fields.label ?? '' });
      return 'saml-added';
    }),
  );
  router.post(`${admin}/saml/:providerId`, ...asAdmin, (ctx) =>
    acting(ctx as AppContext, async (form, organizationId) => {
      await changeSamlProvider((ctx as AppContext).db, actorOf(ctx as AppContext), organizationId, pathParam(ctx as AppContext, 'providerId'), samlFields(form));
      return 'saml-saved';
    }),
  );
  router.post(`${admin}/saml/:providerId/delete`, ...asAdmin, (ctx) =>
    acting(ctx as AppContext, async (_form, organizationId) => {
      await removeSamlProvider((ctx as AppContext).db, actorOf(ctx as AppContext), organizationId, pathParam(ctx as AppContext, 'providerId'));
      return 'saml-deleted';
    }),
  );

  // Joining: by an invite link (signed in first), or by accepting an invitation from the home page.
  router.get('/join/:organizationId/:inviteId', signedIn as never, async (ctx) => {
    const app = ctx as AppContext;
    const { organization, invite } = await openInviteLink(app.db, pathParam(app, 'organizationId'), pathParam(app, 'inviteId'));
    const member = await findMember(app.db, organization.id, callerOf(app).id);
    sendPage(app, { title: `Join ${organization.title}`, content: joinContent(app, { organization, invite, member: member !== undefined, action: ctx.path }) });
  });
  router.post('/join/:organizationId/:inviteId', signedIn as never, async (ctx) => {
    const app = ctx as AppContext;
    await checkedForm(app);
    const { organization, invite } = await openInviteLink(app.db, pathParam(app, 'organizationId'), pathParam(app, 'inviteId'));
    await acceptInviteLink(app.db, actorOf(app), invite, callerOf(app).id);
    ctx.status = 303;
    ctx.redirect(organizationPath(organization.id));
  });
  router.post('/invitations/:organizationId/accept', signedIn as never, async (ctx) => {
    const app = ctx as AppContext;
    await checkedForm(app);
    await acceptInvitation(app.db, actorOf(app), pathParam(app, 'organizationId'), callerOf(app).id);
    ctx.status = 303;
    ctx.redirect(organizationPath(pathParam(app, 'organizationId')));
  });
  router.post('/invitations/:organizationId/decline', signedIn as never, async (ctx) => {
    const app = ctx as AppContext;
    await checkedForm(app);
    await declineInvitation(app.db, pathParam(app, 'organizationId'), callerOf(app).id);
    ctx.status = 303;
    ctx.redirect('/app/');
  });

  // The welcome link: no session yet, so the form carries the sign-in cookie's token.
  router.get('/welcome/:secret', async (ctx) => {
    const app = ctx as AppContext;
    const { user, organization } = await readWelcome(app.db, pathParam(app, 'secret'));
    sendPage(app, { title: `Join ${organization.title}`, content: welcomeContent({ token: signInToken(app), action: ctx.path, email: user.email, organizationTitle: organization.title }) });
  });
  router.post('/welcome/:secret', async (ctx) => {
    const app = ctx as AppContext;
    const form = await readForm(app);
    checkFormOrigin(app, form, 'sign in');
    try {
      const { cookie, organization } = await acceptWelcome(app.db, pathParam(app, 'secret'), { password: form.get('password') ?? '', userAgent: ctx.get('user-agent') });
      setSessionCookie(app, cookie);
      ctx.status = 303;
      ctx.redirect(organizationPath(organization.id));
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'invalid') throw error;
      const { user, organization } = await readWelcome(app.db, pathParam(app, 'secret'));
      sendPage(
        app,
        {
          title: `Join ${organization.title}`,
          content: welcomeContent({ token: signInToken(app), action: ctx.path, email: user.email, organizationTitle: organization.title, problem: error.message }),
        },
        400,
      );
    }
  });
}

const roleOf = (value: string | null): MemberRole | null => {
  if (value === 'guest') return null;
  if ((memberRoles as readonly string[]).includes(value ?? '')) return value as MemberRole;
  throw badRequest(`"role" is one of ${memberRoles.join(', ')} or guest`);
};

function samlFields(form: URLSearchParams): SamlProviderFields {
  const text = (name: string) => (form.get(name) ?? '').trim() || null;
  const label = (form.get('label') ?? '').trim();
  if (!label || label.length > 30) throw badRequest('"label" has 1 to 30 characters');
  const defaultRole = text('defaultRole');
  const fields: SamlProviderFields = { label, ssoURL: text('ssoURL'), entityID: text('entityID'), certificate: text('certificate'), defaultRole: defaultRole === null ? null : roleOf(defaultRole) };
  const problem = samlProviderFieldsProblem(fields);
  if (problem) throw badRequest(problem);
  return fields;
}

/** An admin's form: checked, done, then back to the page saying what happened (or the page, saying why not, with the API's status). */
async function acting(ctx: AppContext, act: (form: URLSearchParams, organizationId: string) => Promise<Notice>) {
  const { organization } = organizationOf(ctx);
  const form = await checkedForm(ctx);
  try {
    const done = await act(form, organization.id);
    ctx.status = 303;
    ctx.redirect(`${organizationPath(organization.id)}/admin?done=${done}`);
  } catch (error) {
    const http = toHttpError(error);
    if (!http || http.status >= 500) throw error;
    await showAdmin(ctx, { problem: http.message }, http.status);
  }
}

async function showAdmin(ctx: AppContext, extra: Pick<AdminPage, 'notice' | 'problem' | 'welcomeLinks'>, status = 200) {
  const { organization } = organizationOf(ctx);
  const [members, invitations, inviteLinks, teams, providers] = await Promise.all([
    listMembers(ctx.db, organization.id, {}, { limit: 100 }),
    listInvitationsOfOrganization(ctx.db, organization.id),
    listInviteLinks(ctx.db, organization.id, { limit: 100 }),
    listTeams(ctx.db, organization.id, {}, { limit: 50 }),
    listAllSamlProviders(ctx.db, organization.id),
  ]);
  const invited = await readPeople(
    ctx.db,
    invitations.map((invitation) => invitation.userId),
  );
  const page: AdminPage = {
    organization,
    members: members.items,
    invitations: invitations.map((invitation) => ({ invitation, user: invited(invitation.userId) })),
    inviteLinks: inviteLinks.items,
    teams: await Promise.all(teams.items.map(async (team) => ({ team, members: (await listTeamMembers(ctx.db, organization.id, team.id, { limit: 100 })).items }))),
    samlProviders: providers.map((provider) => ({
      provider,
      usable: providerIsUsable(provider),
      service: { acs: ctx.urls.samlAcs(organization.id, provider.id), entityId: ctx.urls.samlEntity(organization.id, provider.id), start: ctx.urls.samlStart(organization.id, provider.id) },
    })),
    joinUrl: (invite) => ctx.urls.app(`/join/${organization.id}/${invite.id}`),
    ...extra,
  };
  sendPage(ctx, { title: `Administer ${organization.title}`, content: adminContent(ctx, page) }, status);
}
