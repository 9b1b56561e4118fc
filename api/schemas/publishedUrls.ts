import type { FromSchema } from 'json-schema-to-ts';

const visitor = {
  type: 'object',
  properties: {
    type: { enum: ['human', 'agent'] },
    jwtToken: { type: 'string', maxLength: 16_384 },
    unsignedClaims: { type: 'object', maxProperties: 100 },
  },
  additionalProperties: false,
} as const;

/**
 * `resolvePublishedContentByUrl` as GitBook's renderer sends it: 0.202.0's `visitor`, and
 * `cacheBust`, which no spec has (docs/decisions/sites.md, "Published content").
 */
export const resolveUrl = {
  type: 'object',
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 4096 },
    redirectOnError: { type: 'boolean' },
    visitor,
    cacheBust: { type: 'string', maxLength: 256 },
  },
  required: ['url'],
  additionalProperties: false,
} as const;

export const resolveUrlQuery = {
  type: 'object',
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 4096 },
    visitorAuthToken: { type: 'string', maxLength: 16_384 },
    redirectOnError: { type: 'boolean' },
    cacheBust: { type: 'string', maxLength: 256 },
  },
  required: ['url'],
  additionalProperties: false,
} as const;

export type ResolveUrlBody = FromSchema<typeof resolveUrl>;
export type ResolveUrlQuery = FromSchema<typeof resolveUrlQuery>;
