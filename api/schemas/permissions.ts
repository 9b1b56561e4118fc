import type { FromSchema } from 'json-schema-to-ts';
import { order, pagination, role, roleOrGuest } from './common.js';

// Ids of any length: one that names no member or team is a 404 naming it, as upstream bounds none.
const ids = { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'string', minLength: 1 } } as const;

/** `InviteUsersAndTeams` (and `InviteSiteUsersAndTeams`): a role for people, teams, or both. */
export const invite = {
  type: 'object',
  required: ['role'],
  properties: { role: roleOrGuest, users: ids, teams: ids },
  additionalProperties: false,
} as const;

/** A space's or collection's grant: a role, or null for none; without `role`, nothing changes. */
export const updateContentPermission = {
  type: 'object',
  properties: { role: roleOrGuest },
  additionalProperties: false,
} as const;

/** A site's grant: a role (0.202.0's `MemberRole`); without it, nothing changes. */
export const updateSitePermission = {
  type: 'object',
  properties: { role },
  additionalProperties: false,
} as const;

export const aggregateQuery = {
  type: 'object',
  properties: { ...pagination, role },
  additionalProperties: false,
} as const;

export const siteAggregateQuery = {
  type: 'object',
  properties: {
    ...pagination,
    order: { ...order, default: 'asc' },
    role: { type: 'string', enum: [...role.enum, 'guest'] },
    search: { type: 'string', maxLength: 256 },
    sort: { type: 'string', enum: ['joinedAt', 'lastSeenAt', 'name'], default: 'joinedAt' },
    team: { type: 'string', minLength: 1, maxLength: 64 },
  },
  additionalProperties: false,
} as const;

export type InviteBody = FromSchema<typeof invite>;
export type UpdateContentPermissionBody = FromSchema<typeof updateContentPermission>;
export type UpdateSitePermissionBody = FromSchema<typeof updateSitePermission>;
export type AggregateQuery = FromSchema<typeof aggregateQuery>;
export type SiteAggregateQuery = FromSchema<typeof siteAggregateQuery>;
