// Policies of the routes of a space: the caller's effective role on it (policies/spaceRoles).
import { findMembershipRole, membershipReads } from '../../storage/members.js';
import { pathParam } from '../context.js';
import { findOrganizationCached, organizationReads } from '../../storage/organizations.js';
import { collectionChainCached, collectionReads } from '../../storage/collections.js';
import { findSpaceCached, spaceReads } from '../../storage/spaces.js';
import { findContentGrantsCached, grantReads, grantedRole, higherRole } from '../../storage/contentGrants.js';
import type { MemberRole } from '../../storage/members.js';
import { effectiveRole, levelsOf } from '../../domain/organizations/index.js';
import type { AppContext } from '../context.js';
import { authenticate, siteTokenOf, userOfRequest } from '../auth/index.js';
import { forbidden, notFound } from '../errors.js';
import { atLeast } from './roles.js';
import type { Requirement } from './requirements.js';
import { withRequirements, type Policy } from './policy.js';
import { siteTokenReads } from './siteTokens.js';

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
      const spaceId = pathParam(ctx, 'spaceId');
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
      const space = await findSpaceCached(ctx.db, pathParam(ctx, 'spaceId'));
      if (!space) throw notFound(`Space ${ctx.params.spaceId} not found`);
      ctx.state.space = space;
      ctx.state.spaceRole = 'read';
      ctx.state.role = null;
      ctx.state.organization = await findOrganizationCached(ctx.db, space.organizationId);
      return next();
    },
  };
}

/**
 * Whether the caller (a user's bearer token, if any) may read the space's unpublished content:
 * what a URL lookup asks before it answers a change-request or revision preview.
 */
export async function callerReadsSpace(ctx: AppContext, spaceId: string): Promise<boolean> {
  const caller = await userOfRequest(ctx);
  return caller !== undefined && (await spaceAccess(ctx.db, caller.id, spaceId, {})) !== undefined;
}
