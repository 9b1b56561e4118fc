// Policies of the routes of a collection: the caller's effective role on it.
import { findMembershipRole } from '../../storage/members.js';
import { pathParam } from '../context.js';
import { findOrganizationCached } from '../../storage/organizations.js';
import { collectionChainCached } from '../../storage/collections.js';
import { findContentGrantsCached, grantedRole, higherRole } from '../../storage/contentGrants.js';
import type { MemberRole } from '../../storage/members.js';
import { effectiveRole } from '../../domain/organizations/index.js';
import { authenticate } from '../auth/index.js';
import { forbidden, notFound } from '../errors.js';
import { atLeast } from './roles.js';
import type { Requirement } from './requirements.js';
import { withRequirements, type Policy } from './policy.js';

/** The same for a collection: effective role from its own default level and its parents'. */
export function inCollection(role: MemberRole, options: { also?: readonly Requirement[] } = {}): Policy {
  return withRequirements(collectionPolicy(role), 'collection', role, options.also ?? []);
}

function collectionPolicy(role: MemberRole): Policy {
  return {
    rule: `collection role ${role}${role === 'admin' ? '' : ' or above'}`,
    check: async (ctx, next) => {
      const caller = await authenticate(ctx);
      const collectionId = pathParam(ctx, 'collectionId');
      const chain = await collectionChainCached(ctx.db, collectionId);
      const collection = chain[0];
      const membership = collection && (await findMembershipRole(ctx.db, collection.organizationId, caller.id));
      const effective =
        membership && !membership.disabled
          ? higherRole(
              effectiveRole(
                membership.role,
                chain.map((c) => c.defaultLevel),
              ),
              grantedRole(await findContentGrantsCached(ctx.db, caller.id), undefined, chain),
            )
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
