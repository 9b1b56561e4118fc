// Policies of the routes under an organization: the caller's role in it.
import { findMembershipRole } from '../../storage/members.js';
import { pathParam } from '../context.js';
import { findOrganizationCached } from '../../storage/organizations.js';
import { findTeamRole } from '../../storage/teams.js';
import { findContentGrantsCached } from '../../storage/contentGrants.js';
import { siteGrantApplies } from '../../domain/sites/index.js';
import { authenticate, siteTokenOf } from '../auth/index.js';
import { forbidden, notFound } from '../errors.js';
import type { MemberRole } from '../../storage/members.js';
import { atLeast, describeRole, type RoleOrGuest } from './roles.js';
import type { Requirement } from './requirements.js';
import { withRequirements, type Policy } from './policy.js';
import { siteTokenReadsOrganization, siteTokenReadsSite } from './siteTokens.js';

export interface OrganizationRule {
  /** Also allowed when the path's `userId` is the caller. */
  orSelf?: boolean;
  /** Also allowed for an owner of the path's `teamId`. */
  orTeamOwner?: boolean;
  /** Rules the route adds to the role. */
  also?: readonly Requirement[];
  /**
   * Also allowed with a site token of the path's site (domain/publishing), for what a renderer
   * reads: `true` for GETs, `'read by POST'` for a read sent as a POST (a site search).
   */
  /**
   * A site token of the path's site reads too (`'read by POST'`: with POST, a search); with
   * `'organization'`, a site token of any published site of the path's organization (routes of the
   * organization's own content that published pages use, such as public OpenAPI specs).
   */
  siteToken?: true | 'read by POST' | 'organization';
  /** The path's site: a grant on it (the caller's or a team's, inviteToSite) raises the caller's role there. */
  siteGrants?: true;
}

/**
 * A member of the path's organization with at least `role` (null: guests too). A caller who is
 * not a member gets 404, as if the organization did not exist; a member below the role gets 403.
 */
export function inOrganization(role: RoleOrGuest, rule: OrganizationRule = {}): Policy {
  return withRequirements(organizationPolicy(role, rule), 'organization', role, rule.also ?? []);
}

/** The routes of one site (`:siteId`): the organization role, or a role granted on the site (docs/permissions.md). */
export function inSite(role: MemberRole, rule: Omit<OrganizationRule, 'siteGrants'> = {}): Policy {
  return inOrganization(role, { ...rule, siteGrants: true });
}

function organizationPolicy(role: RoleOrGuest, rule: OrganizationRule): Policy {
  const alternatives = [rule.orSelf && 'the member themself', rule.orTeamOwner && 'an owner of the team', rule.siteToken && 'a site token of the site (reading)'].filter(Boolean);
  return {
    rule: `organization ${role === null ? 'member (guests included)' : role === 'admin' ? 'admin' : `role ${role} or above`}${rule.siteGrants ? ', or that role given on the site' : ''}${alternatives.length ? `, or ${alternatives.join(', or ')}` : ''}`,
    check: async (ctx, next) => {
      if (rule.siteToken) {
        const token = await siteTokenOf(ctx);
        if (token && rule.siteToken === 'organization') return siteTokenReadsOrganization(ctx, next, token);
        if (token) return siteTokenReadsSite(ctx, next, token, rule.siteToken === 'read by POST' ? ['POST'] : ['GET', 'HEAD']);
      }
      const caller = await authenticate(ctx);
      const organizationId = pathParam(ctx, 'organizationId');
      const [organization, membership] = await Promise.all([findOrganizationCached(ctx.db, organizationId), findMembershipRole(ctx.db, organizationId, caller.id)]);
      if (!organization || !membership) throw notFound(`Organization ${organizationId} not found`);
      if (membership.disabled) throw forbidden('Your membership of this organization is disabled');
      ctx.state.organization = organization;
      ctx.state.role = membership.role;
      if (atLeast(membership.role, role)) return next();
      if (rule.siteGrants && role !== null) {
        const grants = await findContentGrantsCached(ctx.db, caller.id);
        const siteId = pathParam(ctx, 'siteId');
        const granted = grants.get(`site:${siteId}`);
        if (granted && atLeast(granted, role) && (await siteGrantApplies(ctx.db, organization.id, siteId, { organizationRole: membership.role, grants }))) return next();
      }
      if (rule.orSelf && ctx.params.userId === caller.id) return next();
      // Owning a team counts only for members who may own one (read or above).
      if (rule.orTeamOwner && ctx.params.teamId && atLeast(membership.role, 'read')) {
        if ((await findTeamRole(ctx.db, organization.id, ctx.params.teamId, caller.id)) === 'owner') return next();
      }
      throw forbidden(
        `This operation needs the ${describeRole(role)} role in the organization${rule.siteGrants ? ' or on the site' : ''}${alternatives.length ? ` (or being ${alternatives.join(' or ')})` : ''}; you are ${describeRole(membership.role)}`,
      );
    },
  };
}
