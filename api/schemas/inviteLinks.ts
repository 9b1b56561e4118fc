import type { FromSchema } from 'json-schema-to-ts';
import { roleOrGuest } from './common.js';

const id = { type: 'string', minLength: 1, maxLength: 64 } as const;

/** `{role}` invites to the organization; `{level, space}` or `{level, collection}` to one of those. */
export const createInviteLink = {
  type: 'object',
  properties: { role: roleOrGuest, level: roleOrGuest, space: id, collection: id },
  additionalProperties: false,
} as const;

export const updateInviteLink = {
  type: 'object',
  properties: { role: roleOrGuest, level: roleOrGuest },
  additionalProperties: false,
} as const;

export type CreateInviteLinkBody = FromSchema<typeof createInviteLink>;
export type UpdateInviteLinkBody = FromSchema<typeof updateInviteLink>;
