import type { FromSchema } from 'json-schema-to-ts';
import { order, pagination, role, roleOrGuest, uri } from './common.js';

export const listMembers = {
  type: 'object',
  properties: {
    ...pagination,
    order,
    role: { type: 'string', enum: [...role.enum, 'guest'] },
    search: { type: 'string', maxLength: 256 },
    sort: { type: 'string', enum: ['joinedAt', 'lastSeenAt'], default: 'joinedAt' },
  },
  additionalProperties: false,
} as const;

export const updateMember = {
  type: 'object',
  // No field is required, but the body is, as upstream says (api/validate.ts reads `required` so).
  required: [],
  properties: { role: roleOrGuest },
  additionalProperties: false,
} as const;

export const listMemberSpaces = {
  type: 'object',
  properties: { ...pagination, order },
  additionalProperties: false,
} as const;

export const listMemberTeams = {
  type: 'object',
  properties: { ...pagination, title: { type: 'string', maxLength: 64 } },
  additionalProperties: false,
} as const;

export const inviteUsers = {
  type: 'object',
  required: ['emails'],
  properties: {
    emails: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: {
        anyOf: [
          { type: 'string', format: 'email', maxLength: 254 },
          {
            type: 'object',
            required: ['email', 'role'],
            properties: { email: { type: 'string', format: 'email', maxLength: 254 }, role: roleOrGuest },
            additionalProperties: false,
          },
        ],
      },
    },
    role: roleOrGuest,
    sso: { type: 'boolean' },
  },
  additionalProperties: false,
} as const;

export type ListMembersQuery = FromSchema<typeof listMembers>;
export type UpdateMemberBody = FromSchema<typeof updateMember>;
export type ListMemberSpacesQuery = FromSchema<typeof listMemberSpaces>;
export type ListMemberTeamsQuery = FromSchema<typeof listMemberTeams>;
export type InviteUsersBody = FromSchema<typeof inviteUsers>;

/** updateUserById: a name, a picture, or both. */
export const updateUser = {
  type: 'object',
  minProperties: 1,
  // A picture a browser loads: http(s) only (format "uri" alone lets `javascript:` through).
  properties: { displayName: { type: 'string', minLength: 1, maxLength: 64 }, photoURL: { ...uri, pattern: '^https?://' } },
  additionalProperties: false,
} as const;
export type UpdateUserBody = FromSchema<typeof updateUser>;
