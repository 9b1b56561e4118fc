import type Koa from 'koa';
import { findMembershipRole, membershipReads } from '../../storage/members.js';
import { findOrganizationCached, organizationReads } from '../../storage/organizations.js';
import { findTeamRole } from '../../storage/teams.js';
import { collectionChainCached, collectionReads } from '../../storage/collections.js';
import { findSpaceCached, spaceReads } from '../../storage/spaces.js';
import { findContentGrantsCached, grantReads, grantedRole, higherRole } from '../../storage/contentGrants.js';
import type { MemberRole } from '../../storage/members.js';
import { effectiveRole, levelsOf } from '../../domain/organizations/index.js';
import { contentDeps, type AppContext } from '../context.js';
import { siteOfToken, siteTokenReadsRevision, spaceReadableBySiteToken, tokenPreviewsChangeRequest, type SiteToken } from '../../domain/publishing/index.js';
import { authenticate, authenticateGit, siteTokenOf, userOfRequest } from '../auth/index.js';
import { forbidden, notFound } from '../errors.js';
import { atLeast, describeRole, type RoleOrGuest } from './roles.js';
import type { Requirement } from './requirements.js';

/**
 * Who may call a route. Every route declares one (the route table refuses a route without it),
 * and docs/permissions.md lists them all.
 */
export interface Policy {
  readonly rule: string;
  readonly check: (ctx: AppContext, next: Koa.Next) => Promise<unknown>;
  /** What the policy is made of, for the every-route test: the scope and role, and the rules added to them. */
  readonly scope?: { kind: 'organization' | 'space' | 'collection'; role: RoleOrGuest; also: readonly Requirement[] };
}

/** A policy with the route's own rules after its role; the route table runs them once the body is read. */
function withRequirements(policy: Policy, kind: 'organization' | 'space' | 'collection', role: RoleOrGuest, also: readonly Requirement[]): Policy {
  if (also.length === 0) return { ...policy, scope: { kind, role, also } };
  return { ...policy, rule: [policy.rule, ...also.map((requirement) => requirement.rule)].join('; '), scope: { kind, role, also } };
}

/** No token needed: only the API information route. */
export const anyone: Policy = { rule: 'anyone', check: (_ctx, next) => next() };

/** Any holder of a valid token. */
export const signedIn: Policy = {
  rule: 'any signed-in user',
  check: async (ctx, next) => {
    await authenticate(ctx);
    return next();
  },
};

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
}

/**
 * A member of the path's organization with at least `role` (null: guests too). A caller who is
 * not a member gets 404, as if the organization did not exist; a member below the role gets 403.
 */
export function inOrganization(role: RoleOrGuest, rule: OrganizationRule = {}): Policy {
  return withRequirements(organizationPolicy(role, rule), 'organization', role, rule.also ?? []);
}

function organizationPolicy(role: RoleOrGuest, rule: OrganizationRule): Policy {
  const alternatives = [rule.orSelf && 'the member themself', rule.orTeamOwner && 'an owner of the team', rule.siteToken && 'a site token of the site (reading)'].filter(Boolean);
  return {
    rule: `organization ${role === null ? 'member (guests included)' : role === 'admin' ? 'admin' : `role ${role} or above`}${alternatives.length ? `, or ${alternatives.join(', or ')}` : ''}`,
    check: async (ctx, next) => {
      if (rule.siteToken) {
        const token = await siteTokenOf(ctx);
        if (token && rule.siteToken === 'organization') return siteTokenReadsOrganization(ctx, next, token);
        if (token) return siteTokenReadsSite(ctx, next, token, rule.siteToken === 'read by POST' ? ['POST'] : ['GET', 'HEAD']);
      }
      const caller = await authenticate(ctx);
      const organizationId = ctx.params.organizationId ?? '';
      const [organization, membership] = await Promise.all([
        findOrganizationCached(ctx.db, organizationId),
        findMembershipRole(ctx.db, organizationId, caller.id),
      ]);
      if (!organization || !membership) throw notFound(`Organization ${organizationId} not found`);
      if (membership.disabled) throw forbidden('Your membership of this organization is disabled');
      ctx.state.organization = organization;
      ctx.state.role = membership.role;
      if (atLeast(membership.role, role)) return next();
      if (rule.orSelf && ctx.params.userId === caller.id) return next();
      // Owning a team counts only for members who may own one (read or above).
      if (rule.orTeamOwner && ctx.params.teamId && atLeast(membership.role, 'read')) {
        if ((await findTeamRole(ctx.db, organization.id, ctx.params.teamId, caller.id)) === 'owner') return next();
      }
      throw forbidden(
        `This operation needs the ${describeRole(role)} role in the organization${alternatives.length ? ` (or being ${alternatives.join(' or ')})` : ''}; you are ${describeRole(membership.role)}`,
      );
    },
  };
}

/**
 * A member of the space's organization whose effective role on the space (policies/spaceRoles)
 * is at least `role`. Without any access the space doesn't exist for the caller (404); with too
 * little, 403. `deleted`: the route works on spaces in the bin (restore).
 */
export function inSpace(role: MemberRole, options: { deleted?: boolean; readByPost?: boolean; also?: readonly Requirement[] } = {}): Policy {
  return withRequirements(spacePolicy(role, options), 'space', role, options.also ?? []);
}

/** `readByPost`: a read that takes its question as a body (a site token may make it too). */
function spacePolicy(role: MemberRole, options: { deleted?: boolean; readByPost?: boolean }): Policy {
  return {
    rule: `space role ${role}${role === 'admin' ? '' : ' or above'}${options.deleted ? ' (deleted spaces too)' : ''}`,
    check: async (ctx, next) => {
      const siteToken = await siteTokenOf(ctx);
      if (siteToken) return siteTokenReads(ctx, next, role, siteToken, options.readByPost ? ['POST'] : ['GET', 'HEAD']);
      const caller = await authenticate(ctx);
      const spaceId = ctx.params.spaceId ?? '';
      // Read on every request to a space: its parts through the read cache, and the whole of it
      // too, dropped with them by a write to any of their tables (db.cached).
      const access = await ctx.db.cached(`space-access:${caller.id}:${spaceId}:${options.deleted ? 'all' : 'live'}`, spaceAccessReads, () => spaceAccess(ctx.db, caller.id, spaceId, options));
      if (!access) throw notFound(`Space ${spaceId} not found`);
      ctx.state.space = access.space;
      ctx.state.spaceRole = access.effective;
      ctx.state.role = access.role;
      ctx.state.organization = access.organization;
      if (!atLeast(access.effective, role)) throw forbidden(`This operation needs the ${role} role on the space; you have ${access.effective}`);
      return next();
    },
  };
}

/** What spaceAccess reads: its parts' tables, all of them. */
const spaceAccessReads = [...spaceReads, ...membershipReads, ...collectionReads, ...grantReads, ...organizationReads];

/** The caller's effective role on the space, with what the policy puts on the context; undefined when the space doesn't exist for them. */
async function spaceAccess(db: AppContext['db'], callerId: string, spaceId: string, options: { deleted?: boolean }) {
  const space = await findSpaceCached(db, spaceId, { includeDeleted: options.deleted });
  const membership = space && (await findMembershipRole(db, space.organizationId, callerId));
  if (!space || !membership || membership.disabled) return undefined;
  const chain = await collectionChainCached(db, space.collectionId);
  // Grants (an invite link to the space or a collection above it) raise the role, never lower it.
  const effective = higherRole(effectiveRole(membership.role, levelsOf(space, chain)), grantedRole(await findContentGrantsCached(db, callerId), space.id, chain));
  if (!effective) return undefined;
  return { space, effective, role: membership.role, organization: await findOrganizationCached(db, space.organizationId) };
}

/**
 * `inSpace(role)`, or a download URL this server signed (api/downloadSigner.ts): what an
 * `<img src>` or a PDF renderer fetches, without an Authorization header. A link whose signature
 * doesn't match, or that has expired, is a 403 saying which.
 */
export function inSpaceOrSignedDownload(role: MemberRole): Policy {
  const members = inSpace(role);
  return {
    rule: `${members.rule}; or no token, with a signed download URL`,
    scope: members.scope,
    check: async (ctx, next) => {
      const { expires, signature } = ctx.query;
      if (expires === undefined && signature === undefined) return members.check(ctx, next);
      if (typeof expires !== 'string' || typeof signature !== 'string' || !ctx.urls.downloads) throw forbidden('The download link is not valid: it needs one "expires" and one "signature"');
      const verdict = ctx.urls.downloads.verify(ctx.path, expires, signature);
      if (verdict === 'invalid') throw forbidden('The download link is not valid: its signature doesn’t match');
      if (verdict === 'expired') throw forbidden('The download link has expired: read the file from the API again for a new one');
      const space = await findSpaceCached(ctx.db, ctx.params.spaceId ?? '');
      if (!space) throw notFound(`Space ${ctx.params.spaceId} not found`);
      ctx.state.space = space;
      ctx.state.spaceRole = 'read';
      ctx.state.role = null;
      ctx.state.organization = await findOrganizationCached(ctx.db, space.organizationId);
      return next();
    },
  };
}

/** The same for a collection: effective role from its own default level and its parents'. */
export function inCollection(role: MemberRole, options: { also?: readonly Requirement[] } = {}): Policy {
  return withRequirements(collectionPolicy(role), 'collection', role, options.also ?? []);
}

function collectionPolicy(role: MemberRole): Policy {
  return {
    rule: `collection role ${role}${role === 'admin' ? '' : ' or above'}`,
    check: async (ctx, next) => {
      const caller = await authenticate(ctx);
      const collectionId = ctx.params.collectionId ?? '';
      const chain = await collectionChainCached(ctx.db, collectionId);
      const collection = chain[0];
      const membership = collection && (await findMembershipRole(ctx.db, collection.organizationId, caller.id));
      const effective =
        membership && !membership.disabled
          ? higherRole(effectiveRole(membership.role, chain.map((c) => c.defaultLevel)), grantedRole(await findContentGrantsCached(ctx.db, caller.id), undefined, chain))
          : undefined;
      if (!collection || !effective) throw notFound(`Collection ${collectionId} not found`);
      ctx.state.collection = collection;
      ctx.state.collectionRole = effective;
      ctx.state.role = membership!.role;
      ctx.state.organization = await findOrganizationCached(ctx.db, collection.organizationId);
      if (!atLeast(effective, role)) throw forbidden(`This operation needs the ${role} role on the collection; you have ${effective}`);
      return next();
    },
  };
}

/** Any holder of a valid token over git (api/auth/gitBasic.ts). Run before `inSpace`. */
export const signedInOverGit: Policy = {
  rule: 'any signed-in user (HTTP Basic: a token as the password)',
  check: async (ctx, next) => {
    await authenticateGit(ctx);
    return next();
  },
};

/**
 * Whether the caller (a user's bearer token, if any) may read the space's unpublished content:
 * what a URL lookup asks before it answers a change-request or revision preview.
 */
export async function callerReadsSpace(ctx: AppContext, spaceId: string): Promise<boolean> {
  const caller = await userOfRequest(ctx);
  return caller !== undefined && (await spaceAccess(ctx.db, caller.id, spaceId, {})) !== undefined;
}

/**
 * A site token (domain/publishing) reads its site's published content and nothing else: GETs on
 * the spaces its site spaces show (conditions judged on its claims), their primary branch and its
 * history, never a change request, never a write.
 */
async function siteTokenReads(ctx: AppContext, next: Koa.Next, role: MemberRole, token: SiteToken, readingMethods: string[]) {
  if (role !== 'read' || !readingMethods.includes(ctx.method)) throw forbidden('A site token only reads the published content of its site');
  const space = await spaceReadableBySiteToken(ctx, token, ctx.params.spaceId ?? '');
  if (!space) throw notFound(`Space ${ctx.params.spaceId} not found`);
  if (ctx.state.unpublishedRoute === 'discussion') throw forbidden('A site token reads published content: comments are not published');
  if (ctx.state.unpublishedRoute === 'private') throw forbidden('A site token reads published content only');
  if (ctx.state.unpublishedRoute === 'change-request' && !(ctx.params.changeRequestId !== undefined && (await tokenPreviewsChangeRequest(ctx, token, space.id, ctx.params.changeRequestId)))) {
    throw forbidden('A site token reads published content: change requests are not published, but for the one a preview URL names');
  }
  if (ctx.params.revisionId !== undefined && !(await siteTokenReadsRevision(contentDeps(ctx), token, space, ctx.params.revisionId))) throw notFound(`Revision ${ctx.params.revisionId} not found`);
  ctx.state.space = space;
  ctx.state.spaceRole = 'read';
  ctx.state.role = null;
  ctx.state.siteToken = token;
  ctx.state.organization = await findOrganizationCached(ctx.db, space.organizationId);
  return next();
}

/** A site token on a route of its own site (and organization), for a GET: the site's published profile, structure and the like. */
async function siteTokenReadsSite(ctx: AppContext, next: Koa.Next, token: SiteToken, readingMethods: string[]) {
  if (!readingMethods.includes(ctx.method)) throw forbidden('A site token only reads the published content of its site');
  const site = ctx.params.organizationId === token.organization && ctx.params.siteId === token.site ? await siteOfToken(ctx, token) : undefined;
  if (!site) throw notFound(`Site ${ctx.params.siteId} not found`);
  return readingForSite(ctx, next, token, site.organizationId);
}

/** A site token on a GET of its organization's content that published pages use (the route narrows what it answers). */
async function siteTokenReadsOrganization(ctx: AppContext, next: Koa.Next, token: SiteToken) {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw forbidden('A site token only reads the published content of its site');
  const site = ctx.params.organizationId === token.organization ? await siteOfToken(ctx, token) : undefined;
  if (!site) throw notFound(`Organization ${ctx.params.organizationId} not found`);
  return readingForSite(ctx, next, token, site.organizationId);
}

/** The route runs for the site token, in its site's organization, with no member role. */
async function readingForSite(ctx: AppContext, next: Koa.Next, token: SiteToken, organizationId: string) {
  ctx.state.organization = await findOrganizationCached(ctx.db, organizationId);
  if (!ctx.state.organization) throw notFound(`Organization ${ctx.params.organizationId} not found`);
  ctx.state.role = null;
  ctx.state.siteToken = token;
  return next();
}

