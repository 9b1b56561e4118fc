import type { Element } from 'hast';
import { el, type Child } from '../../domain/documents/index.js';
import type { InviteLinkRecord } from '../../storage/inviteLinks.js';
import { memberRoles, type InvitationRecord, type MemberRecord, type MemberRole } from '../../storage/members.js';
import type { OrganizationRecord } from '../../storage/organizations.js';
import type { SamlProviderRecord } from '../../storage/samlProviders.js';
import type { TeamMembership, TeamRecord } from '../../storage/teams.js';
import type { UserRecord } from '../../storage/users.js';
import type { AppContext } from '../context.js';
import { breadcrumbs, csrfField } from './layout.js';
import { organizationPath } from './paths.js';

export interface AdminPage {
  organization: OrganizationRecord;
  members: MemberRecord[];
  invitations: Array<{ invitation: InvitationRecord; user: UserRecord }>;
  inviteLinks: InviteLinkRecord[];
  teams: Array<{ team: TeamRecord; members: TeamMembership[] }>;
  samlProviders: Array<{ provider: SamlProviderRecord; usable: boolean; service: { acs: string; entityId: string; start: string } }>;
  /** Absolute URL of an invite link's page. */
  joinUrl: (invite: InviteLinkRecord) => string;
  /** After inviting: the welcome links of those who have no password yet, to hand them. */
  welcomeLinks?: Array<{ user: UserRecord; url: string }>;
  notice?: string;
  problem?: string;
}

const nameOf = (user: UserRecord) => user.displayName || user.email;
const roleName = (role: MemberRole | null) => role ?? 'guest';

/** A role picker: every member role, and guest (no role: only what is shared with them). */
function roleSelect(id: string, chosen: MemberRole | null, label: string): Child[] {
  return [
    el('label', { htmlFor: id, className: ['visually-hidden'] }, label),
    el(
      'select',
      { id, name: 'role' },
      [...memberRoles, 'guest'].map((role) => el('option', { value: role, ...(roleName(chosen) === role ? { selected: true } : {}) }, role)),
    ),
  ];
}

/** The organization's administration: people and their roles, invitations, invite links, teams, SAML sign-in. Admins only. */
export function adminContent(ctx: AppContext, page: AdminPage): Child[] {
  const { organization } = page;
  const base = `${organizationPath(organization.id)}/admin`;
  const form = (action: string, ...children: Child[]): Element => el('form', { method: 'post', action: `${base}/${action}`, className: ['inline'] }, csrfField(ctx), children);
  const hidden = (name: string, value: string) => el('input', { type: 'hidden', name, value });
  return [
    breadcrumbs(el('a', { href: organizationPath(organization.id) }, organization.title), 'Administration'),
    el('h1', {}, `Administer ${organization.title}`),
    page.notice ? el('p', { className: ['notice'], role: 'status' }, page.notice) : null,
    page.problem ? el('p', { className: ['problem'], role: 'alert' }, page.problem) : null,
    page.welcomeLinks?.length
      ? el(
          'section',
          { className: ['notice'], ariaLabelledBy: 'welcome-title' },
          el('h2', { id: 'welcome-title' }, 'Welcome links to hand over'),
          el('p', {}, 'Quire sends no email. Give each person their link: it sets their password and accepts the invitation, once, within 7 days. It is shown only now.'),
          el(
            'ul',
            {},
            page.welcomeLinks.map(({ user, url }) => el('li', {}, `${user.email}: `, el('code', { className: ['clone'] }, url))),
          ),
        )
      : null,

    el(
      'section',
      { ariaLabelledBy: 'people-title' },
      el('h2', { id: 'people-title' }, `People (${page.members.length})`),
      el(
        'div',
        { className: ['table-scroll'] },
        el(
          'table',
          {},
          el('thead', {}, el('tr', {}, el('th', {}, 'Name'), el('th', {}, 'Email'), el('th', {}, 'Role'), el('th', {}, el('span', { className: ['visually-hidden'] }, 'Remove')))),
          el(
            'tbody',
            {},
            page.members.map((member) =>
              el(
                'tr',
                {},
                el('td', {}, nameOf(member.user), member.sso ? el('span', { className: ['muted'] }, ' · SSO') : null),
                el('td', {}, member.user.email),
                el(
                  'td',
                  {},
                  form('members/role', hidden('user', member.user.id), roleSelect(`role-${member.user.id}`, member.role, `Role of ${nameOf(member.user)}`), el('button', { type: 'submit' }, 'Change')),
                ),
                el('td', {}, form('members/remove', hidden('user', member.user.id), el('button', { type: 'submit', className: ['danger'], ariaLabel: `Remove ${nameOf(member.user)}` }, 'Remove'))),
              ),
            ),
          ),
        ),
      ),
      page.invitations.length
        ? [
            el('h3', {}, 'Invited, not joined yet'),
            el(
              'ul',
              {},
              page.invitations.map(({ invitation, user }) => el('li', {}, `${user.email} as ${roleName(invitation.role)}`)),
            ),
          ]
        : null,
      el('h3', {}, 'Invite people'),
      el(
        'form',
        { method: 'post', action: `${base}/invite` },
        csrfField(ctx),
        el('label', { htmlFor: 'invite-emails' }, 'Emails'),
        el('textarea', { id: 'invite-emails', name: 'emails', rows: 3, required: true, placeholder: 'one per line, or separated by commas' }),
        el('div', { className: ['inline'] }, roleSelect('invite-role', organization.defaultRole ?? 'read', 'Role of the invited'), el('button', { type: 'submit' }, 'Invite')),
      ),
    ),

    el(
      'section',
      { ariaLabelledBy: 'links-title' },
      el('h2', { id: 'links-title' }, 'Invite links'),
      el('p', { className: ['muted'] }, 'Anyone signed in who opens one joins the organization with its role.'),
      page.inviteLinks.length
        ? el(
            'ul',
            {},
            page.inviteLinks.map((invite) =>
              el(
                'li',
                {},
                `${invite.target.kind === 'organization' ? roleName(invite.role) : `${roleName(invite.role)} on a ${invite.target.kind}`}: `,
                el('code', { className: ['clone'] }, page.joinUrl(invite)),
                form('invite-links/delete', hidden('id', invite.id), el('button', { type: 'submit', className: ['danger'], ariaLabel: `Delete the ${roleName(invite.role)} invite link` }, 'Delete')),
              ),
            ),
          )
        : null,
      form('invite-links', roleSelect('link-role', 'read', 'Role the link gives'), el('button', { type: 'submit' }, 'Create invite link')),
    ),

    el(
      'section',
      { ariaLabelledBy: 'teams-title' },
      el('h2', { id: 'teams-title' }, 'Teams'),
      page.teams.map(({ team, members }) =>
        el(
          'details',
          {},
          el('summary', {}, `${team.title} (${team.members})`),
          el(
            'ul',
            {},
            members.map(({ member }) =>
              el(
                'li',
                {},
                nameOf(member.user),
                form(
                  'teams/members/remove',
                  hidden('team', team.id),
                  hidden('user', member.user.id),
                  el('button', { type: 'submit', className: ['danger'], ariaLabel: `Remove ${nameOf(member.user)} from ${team.title}` }, 'Remove'),
                ),
              ),
            ),
          ),
          form(
            'teams/members',
            hidden('team', team.id),
            el('label', { htmlFor: `team-add-${team.id}` }, `Add to ${team.title}`),
            el(
              'select',
              { id: `team-add-${team.id}`, name: 'user' },
              page.members.map((member) => el('option', { value: member.user.id }, nameOf(member.user))),
            ),
            el('button', { type: 'submit' }, 'Add'),
          ),
          form('teams/delete', hidden('team', team.id), el('button', { type: 'submit', className: ['danger'], ariaLabel: `Delete the team ${team.title}` }, 'Delete')),
        ),
      ),
      form(
        'teams',
        el('label', { htmlFor: 'team-title' }, 'New team'),
        el('input', { id: 'team-title', name: 'title', required: true, maxLength: 100 }),
        el('button', { type: 'submit' }, 'Create team'),
      ),
    ),

    el(
      'section',
      { ariaLabelledBy: 'saml-title' },
      el('h2', { id: 'saml-title' }, 'SAML single sign-on'),
      page.samlProviders.map(({ provider, usable, service }) =>
        el(
          'details',
          {},
          el('summary', {}, `${provider.label} (${usable ? 'active' : 'not set up yet'})`),
          el(
            'dl',
            { className: ['service'] },
            el('dt', {}, 'Entity id (and metadata)'),
            el('dd', {}, el('code', {}, service.entityId)),
            el('dt', {}, 'Assertion consumer service (HTTP-POST)'),
            el('dd', {}, el('code', {}, service.acs)),
            el('dt', {}, 'Where people start'),
            el('dd', {}, el('code', {}, service.start)),
          ),
          samlForm(ctx, `${base}/saml/${provider.id}`, provider, 'Save'),
          form(`saml/${provider.id}/delete`, el('button', { type: 'submit', className: ['danger'], ariaLabel: `Delete the SAML provider ${provider.label}` }, 'Delete')),
        ),
      ),
      el('details', {}, el('summary', {}, 'Add a SAML provider'), samlForm(ctx, `${base}/saml`, undefined, 'Add provider')),
    ),
  ];
}

function samlForm(ctx: AppContext, action: string, provider: SamlProviderRecord | undefined, button: string): Element {
  const id = (field: string) => `saml-${provider?.id ?? 'new'}-${field}`;
  const field = (name: string, label: string, value: string | null | undefined, attributes: Record<string, unknown> = {}) => [
    el('label', { htmlFor: id(name) }, label),
    el('input', { id: id(name), name, value: value ?? '', ...attributes }),
  ];
  return el(
    'form',
    { method: 'post', action, className: ['stacked'] },
    csrfField(ctx),
    field('label', 'Label', provider?.label, { required: true, maxLength: 30 }),
    field('ssoURL', 'Sign-in URL', provider?.ssoURL, { type: 'url' }),
    field('entityID', 'Identity provider entity id', provider?.entityID),
    el('label', { htmlFor: id('certificate') }, 'Signing certificate (PEM)'),
    el('textarea', { id: id('certificate'), name: 'certificate', rows: 4 }, provider?.certificate ?? ''),
    el('label', { htmlFor: id('role') }, 'Role of people it signs in for the first time'),
    el(
      'select',
      { id: id('role'), name: 'defaultRole' },
      el('option', { value: '' }, 'the organization’s default'),
      memberRoles.map((role) => el('option', { value: role, ...(provider?.defaultRole === role ? { selected: true } : {}) }, role)),
    ),
    el('button', { type: 'submit' }, button),
  );
}

/** An invite link's page: Join, or that the person is a member already. */
export function joinContent(ctx: AppContext, input: { organization: OrganizationRecord; invite: InviteLinkRecord; member: boolean; action: string }): Child[] {
  const { organization, invite } = input;
  return [
    el('h1', {}, `Join ${organization.title}`),
    input.member
      ? el('p', {}, 'You are a member already. ', el('a', { href: organizationPath(organization.id) }, `Open ${organization.title}`))
      : el(
          'form',
          { method: 'post', action: input.action },
          csrfField(ctx),
          el(
            'p',
            {},
            `This link makes you ${invite.target.kind === 'organization' ? `a member (${invite.role ?? 'guest'})` : `a guest with ${invite.role ?? 'read'} access to one ${invite.target.kind}`}.`,
          ),
          el('button', { type: 'submit', className: ['primary'] }, 'Join'),
        ),
  ];
}

/** A welcome link's page: the invited person chooses a password (the form carries the sign-in cookie's token: no session yet). */
export function welcomeContent(input: { token: string; action: string; email: string; organizationTitle: string; problem?: string }): Child[] {
  return [
    el(
      'section',
      { className: ['sign-in'], ariaLabelledBy: 'welcome-title' },
      el('h1', { id: 'welcome-title' }, `Join ${input.organizationTitle}`),
      el('p', {}, `You were invited as ${input.email}. Choose a password to accept the invitation and sign in.`),
      input.problem ? el('p', { className: ['problem'], role: 'alert' }, input.problem) : null,
      el(
        'form',
        { method: 'post', action: input.action },
        el('input', { type: 'hidden', name: 'csrf', value: input.token }),
        el('input', { type: 'hidden', name: 'username', value: input.email, autoComplete: 'username' }),
        el('label', { htmlFor: 'password' }, 'Password'),
        el('input', { id: 'password', name: 'password', type: 'password', autoComplete: 'new-password', required: true, minLength: 8, autoFocus: true }),
        el('button', { type: 'submit', className: ['primary'] }, 'Accept and sign in'),
      ),
    ),
  ];
}
