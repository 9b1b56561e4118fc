import type { FromSchema } from 'json-schema-to-ts';
import { pagination } from './common.js';

export const search = {
  type: 'object',
  required: ['query'],
  properties: { query: { type: 'string', minLength: 1, maxLength: 512 }, ...pagination },
  additionalProperties: false,
} as const;

export type SearchQuery = FromSchema<typeof search>;
