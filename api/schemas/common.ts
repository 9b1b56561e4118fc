import { memberRoles } from '../../storage/members.js';

export const role = { type: 'string', enum: [...memberRoles] } as const;
/** A role, or null for a guest. */
export const roleOrGuest = { enum: [...memberRoles, null] } as const;

export const pagination = {
  page: { type: 'string', minLength: 1, maxLength: 2048 },
  limit: { type: 'integer', minimum: 0, maximum: 1000, default: 50 },
} as const;

export const order = { type: 'string', enum: ['asc', 'desc'], default: 'desc' } as const;

/** The query of a plain paginated list. */
export const listQuery = {
  type: 'object',
  properties: { ...pagination },
  additionalProperties: false,
} as const;

export const uri = { type: 'string', format: 'uri', maxLength: 2048 } as const;

export interface PageQuery {
  page?: string;
  limit: number;
}
