import type { FromSchema } from 'json-schema-to-ts';
import { pagination } from './common.js';

export const linksQuery = {
  type: 'object',
  properties: { ...pagination, status: { enum: ['ok', 'broken', 'in-app'] } },
  additionalProperties: false,
} as const;

export const backlinksQuery = { type: 'object', properties: { ...pagination }, additionalProperties: false } as const;

export type LinksQuery = FromSchema<typeof linksQuery>;
export type BacklinksQuery = FromSchema<typeof backlinksQuery>;
