import { findContentGrantsCached } from '../../storage/contentGrants.js';
import { findMembershipRole, type MemberRole } from '../../storage/members.js';
import { assertCollectionIn } from '../../domain/spaces/index.js';
import { roleWhere } from '../../domain/organizations/index.js';
import type { AppContext } from '../context.js';
import { forbidden, notFound } from '../errors.js';
import { atLeast, describeRole } from './roles.js';

/**
 * A rule a route adds to its policy's role: declared on the route line, listed with it in
 * docs/permissions.md, and checked after the role, before validation and the handler. Checks
 * read the body defensively: a body of the wrong shape is left for validation to refuse.
 */
export interface Requirement {
  readonly rule: string;
  readonly check: (ctx: AppContext) => Promise<void>;
  /** For the every-route test: the role the rule asks for (of the route's resource, or of its organization) and a body that makes it apply. */
  readonly needs?: { role: MemberRole; of: 'resource' | 'organization'; body?: Record<string, unknown> };
}

const bodyOf = (ctx: AppContext): Record<string, unknown> => {
  const body: unknown = ctx.request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
};

/** The caller's role on the space or collection the policy loaded. */
function resourceRole(ctx: AppContext): { role: MemberRole; what: string } {
  if (ctx.state.spaceRole) return { role: ctx.state.spaceRole, what: 'space' };
  if (ctx.state.collectionRole) return { role: ctx.state.collectionRole, what: 'collection' };
  throw new Error('a field rule needs a space or collection policy');
}

/** Changing these body fields needs `role` on the resource; `example`: a valid body that changes one of them. */
export function fieldsNeed(role: MemberRole, fields: readonly string[], example: Record<string, unknown>): Requirement {
  return {
    rule: `${role} for ${fields.map((field) => `\`${field}\``).join(', ')}`,
    needs: { role, of: 'resource', body: example },
    check: async (ctx) => {
      const body = bodyOf(ctx);
      const changed = fields.filter((field) => body[field] !== undefined);
      const { role: actual, what } = resourceRole(ctx);
      if (changed.length > 0 && !atLeast(actual, role)) throw forbidden(`Changing ${changed.join(', ')} needs the ${role} role on the ${what}; you have ${actual}`);
    },
  };
}

/** The caller's organization role (of the organization the policy loaded) is at least `role`. */
export function organizationRole(role: MemberRole, action: string): Requirement {
  return {
    rule: `organization role ${role}${role === 'admin' ? '' : ' or above'}`,
    needs: { role, of: 'organization' },
    check: async (ctx) => {
      const actual = ctx.state.role ?? null;
      if (!atLeast(actual, role)) throw forbidden(`${action} needs the ${role} role in its organization; you are ${describeRole(actual)}`);
    },
  };
}

/**
 * The caller may add things where the item lands: the create role in the collection named by
 * the body's `parent` (null: the organization's top level), or, when the body names none, where
 * the item is now (`current: 'stays'`) — or nothing to check (`current: 'skip'`, a move in place).
 */
export function createWhereItLands(action: string, current: 'stays' | 'skip'): Requirement {
  return {
    rule: `create role where it lands (the \`parent\` collection, or the organization's top level)`,
    check: async (ctx) => {
      const body = bodyOf(ctx);
      const here = ctx.state.space ? ctx.state.space.collectionId : ctx.state.collection ? ctx.state.collection.parentId : null;
      const organizationId = ctx.state.organization?.id;
      if (!organizationId) throw new Error('a placement rule needs an organization');
      const named = body.parent === null || typeof body.parent === 'string' ? body.parent : undefined;
      if (named === undefined && current === 'skip') return;
      const parent = named === undefined ? here : named;
      if (current === 'skip' && parent === here) return;
      await assertCollectionIn(ctx.db, organizationId, parent, 'parent');
      const role = await roleWhere(ctx.db, ctx.state.role ?? null, parent, ctx.state.caller ? await findContentGrantsCached(ctx.db, ctx.state.caller.id) : undefined);
      if (!role || !atLeast(role, 'create')) throw forbidden(`${action} ${parent ? `in collection ${parent}` : 'at the top of the organization'} needs the create role there`);
    },
  };
}

/** The caller administers the organization the body's `organization` names (else 404 if not a member, 403 if below admin). */
export function adminOfTargetOrganization(action: string): Requirement {
  return {
    rule: 'admin of the target `organization`',
    check: async (ctx) => {
      const target = bodyOf(ctx).organization;
      if (typeof target !== 'string' || !ctx.state.caller) return;
      const membership = await findMembershipRole(ctx.db, target, ctx.state.caller.id);
      if (!membership || membership.disabled) throw notFound(`Organization ${target} not found`);
      if (membership.role !== 'admin') throw forbidden(`${action} needs the admin role in the target organization`);
    },
  };
}
