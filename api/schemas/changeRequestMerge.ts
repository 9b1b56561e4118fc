import type { FromSchema } from 'json-schema-to-ts';

/** Quire's addition to upstream's empty update: a side for each conflicting page (its id). */
export const updateFromPrimary = {
  type: 'object',
  properties: {
    resolve: {
      type: 'object',
      maxProperties: 1000,
      propertyNames: { type: 'string', minLength: 1, maxLength: 64 },
      additionalProperties: { enum: ['change-request', 'primary'] },
    },
  },
  additionalProperties: false,
} as const;

export type UpdateFromPrimaryBody = FromSchema<typeof updateFromPrimary>;
