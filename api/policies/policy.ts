// What every route declares (its policy), and the policies of who is signed in, whatever their roles.
import type Koa from 'koa';
import type { AppContext } from '../context.js';
import { authenticate, authenticateGit } from '../auth/index.js';
import type { RoleOrGuest } from './roles.js';
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
export function withRequirements(policy: Policy, kind: 'organization' | 'space' | 'collection', role: RoleOrGuest, also: readonly Requirement[]): Policy {
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

/** Any holder of a valid token over git (api/auth/gitBasic.ts). Run before `inSpace`. */
export const signedInOverGit: Policy = {
  rule: 'any signed-in user (HTTP Basic: a token as the password)',
  check: async (ctx, next) => {
    await authenticateGit(ctx);
    return next();
  },
};
