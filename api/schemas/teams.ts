import type { FromSchema } from 'json-schema-to-ts';
import { pagination } from './common.js';

const title = { type: 'string', minLength: 1, maxLength: 64 } as const;
const userIds = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 64 }, maxItems: 1000, uniqueItems: true } as const;
const teamRole = { type: 'string', enum: ['owner', 'member'] } as const;

export const listTeams = {
  type: 'object',
  properties: { ...pagination, owner: { type: 'string', minLength: 1, maxLength: 64 }, title: { type: 'string', maxLength: 64 } },
  additionalProperties: false,
} as const;

export const createTeam = {
  type: 'object',
  required: ['title'],
  properties: { title, members: userIds },
  additionalProperties: false,
} as const;

export const updateTeam = {
  type: 'object',
  required: ['title'],
  properties: { title },
  additionalProperties: false,
} as const;

export const addTeamMember = {
  type: 'object',
  properties: { role: teamRole },
  additionalProperties: false,
} as const;

export const updateTeamMembers = {
  type: 'object',
  // No field is required, but the body is, as upstream says (api/validate.ts reads `required` so).
  required: [],
  properties: {
    add: userIds,
    remove: userIds,
    memberships: {
      type: 'object',
      maxProperties: 1000,
      additionalProperties: { type: 'object', required: ['role'], properties: { role: teamRole }, additionalProperties: false },
    },
  },
  additionalProperties: false,
} as const;

export const listTeamMembers = { type: 'object', properties: { ...pagination }, additionalProperties: false } as const;

export type ListTeamsQuery = FromSchema<typeof listTeams>;
export type CreateTeamBody = FromSchema<typeof createTeam>;
export type UpdateTeamBody = FromSchema<typeof updateTeam>;
export type AddTeamMemberBody = FromSchema<typeof addTeamMember>;
export type UpdateTeamMembersBody = FromSchema<typeof updateTeamMembers>;
export type ListTeamMembersQuery = FromSchema<typeof listTeamMembers>;
