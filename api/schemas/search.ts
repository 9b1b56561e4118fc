import type { FromSchema } from 'json-schema-to-ts';
import { pagination } from './common.js';

export const search = {
  type: 'object',
  required: ['query'],
  properties: { query: { type: 'string', minLength: 1, maxLength: 512 }, ...pagination },
  additionalProperties: false,
} as const;

export type SearchQuery = FromSchema<typeof search>;

const id = { type: 'string', minLength: 1, maxLength: 64 } as const;

/**
 * searchSiteContent: a query and a scope, or one of the deprecated forms (`mode`, `siteSpaceIds`),
 * read as the scope it stands for; the spec's `oneOf` requires one of them. An empty query (a search box cleared as the reader types) finds nothing: 200, no items.
 */
export const siteSearch = {
  type: 'object',
  required: ['query'],
  properties: {
    query: { type: 'string', maxLength: 512 },
    scope: {
      anyOf: [
        // `restrictTo`: GitBook's renderer sends it; no spec has it yet (docs/decisions/sites.md).
        {
          type: 'object',
          required: ['mode'],
          properties: { mode: { const: 'default' }, currentSiteSpace: id, restrictTo: { enum: ['currentSiteSpace', 'otherSiteSpaces'] } },
          additionalProperties: false,
        },
        {
          type: 'object',
          required: ['mode', 'siteSpaceIds'],
          properties: { mode: { const: 'specific' }, siteSpaceIds: { type: 'array', minItems: 1, maxItems: 1000, items: id } },
          additionalProperties: false,
        },
        { type: 'object', required: ['mode'], properties: { mode: { const: 'all' } }, additionalProperties: false },
      ],
    },
    mode: { enum: ['specific', 'current', 'all'] },
    siteSpaceIds: { type: 'array', minItems: 1, maxItems: 1000, items: id },
    siteSpaceId: id,
  },
  anyOf: [
    { required: ['scope'], properties: { scope: {} } },
    { required: ['mode'], properties: { mode: {} } },
    { required: ['siteSpaceIds'], properties: { siteSpaceIds: {} } },
  ],
  // The deprecated forms name what they search: `current` its site space, `specific` its list.
  allOf: [
    { if: { required: ['mode'], properties: { mode: { const: 'current' } } }, then: { required: ['siteSpaceId'], properties: { siteSpaceId: id } } },
    { if: { required: ['mode'], properties: { mode: { const: 'specific' } } }, then: { required: ['siteSpaceIds'], properties: { siteSpaceIds: { type: 'array' } } } },
  ],
  additionalProperties: false,
} as const;

export type SiteSearchBody = FromSchema<typeof siteSearch>;
export const siteSearchQuery = { type: 'object', properties: { ...pagination }, additionalProperties: false } as const;
export type SiteSearchQuery = FromSchema<typeof siteSearchQuery>;
