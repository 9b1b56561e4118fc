import type { FromSchema } from 'json-schema-to-ts';
import { siteTypes, siteVisibilities } from '../../storage/sites.js';
import { listQuery, pagination } from './common.js';

export const id = { type: 'string', minLength: 1, maxLength: 64 } as const;
const siteType = { type: 'string', enum: [...siteTypes] } as const;
const siteTitle = { type: 'string', minLength: 2, maxLength: 128 } as const;
const visibility = { type: 'string', enum: [...siteVisibilities] } as const;
/** API.md: dot-separated labels ending in a top-level label of two letters or more, then `/segment` parts. */
export const proxyPattern = '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$';
export const hostnamePattern = '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$';

export const listSites = {
  type: 'object',
  properties: {
    ...pagination,
    space: id,
    title: { type: 'string', minLength: 1, maxLength: 128 },
    published: { type: 'boolean' },
    type: { anyOf: [siteType, { type: 'array', items: siteType, maxItems: 100 }] },
  },
  additionalProperties: false,
} as const;

export const createSite = {
  type: 'object',
  properties: { type: siteType, title: siteTitle, visibility, spaces: { type: 'array', items: id, maxItems: 100 } },
  additionalProperties: false,
} as const;

export const updateSite = {
  type: 'object',
  // No field is required, but upstream requires the body (see api/validate.ts).
  required: [],
  properties: {
    title: siteTitle,
    visibility,
    basename: { type: 'string', minLength: 1, maxLength: 100 },
    hostname: { type: ['string', 'null'], maxLength: 512, pattern: hostnamePattern },
    adaptiveContent: { type: 'object', properties: { enabled: { type: 'boolean' } }, required: ['enabled'], additionalProperties: false },
    agentsContext: { type: 'string', enum: ['excluded', 'included'] },
    defaultSiteSpace: id,
    defaultSiteSection: id,
    proxy: { type: ['string', 'null'], maxLength: 512, pattern: proxyPattern },
  },
  additionalProperties: false,
} as const;

export const shareKeyQuery = { type: 'object', properties: { shareKey: { type: 'string', minLength: 1, maxLength: 256 } }, additionalProperties: false } as const;

export const listShareLinks = listQuery;
const shareLinkName = { type: 'string', maxLength: 50 } as const;
export const createShareLink = { type: 'object', properties: { name: shareLinkName }, required: ['name'], additionalProperties: false } as const;
export const updateShareLink = {
  type: 'object',
  properties: { active: { type: 'boolean' }, name: shareLinkName },
  minProperties: 1,
  additionalProperties: false,
} as const;

const description = { type: 'string', maxLength: 1024 } as const;
const primitiveClaims = [
  { type: 'object', properties: { type: { const: 'boolean' }, description }, required: ['type', 'description'], additionalProperties: false },
  {
    type: 'object',
    properties: { type: { const: 'string' }, enum: { type: 'array', items: { type: 'string', maxLength: 256 }, minItems: 1, maxItems: 100 }, description },
    required: ['type', 'enum', 'description'],
    additionalProperties: false,
  },
  { type: 'object', properties: { type: { const: 'string' }, description }, required: ['type', 'description'], additionalProperties: false },
  { type: 'object', properties: { type: { const: 'number' }, description }, required: ['type', 'description'], additionalProperties: false },
] as const;
const claimMap = { type: 'object', maxProperties: 100, additionalProperties: { $ref: '#/$defs/claim' } } as const;

/**
 * The upstream SiteAdaptiveJSONSchema: claims of primitive, array or object type, each with a
 * description; `unsigned` claims nested under `properties.unsigned`; `additionalProperties: false`
 * at every level (claim names: see domain/sites/siteAdaptiveSchema.ts).
 */
const adaptiveSchemaBody = {
  type: 'object',
  $defs: {
    claim: {
      oneOf: [
        ...primitiveClaims,
        { type: 'object', properties: { type: { const: 'array' }, description, items: { oneOf: primitiveClaims } }, required: ['type', 'description', 'items'], additionalProperties: false },
        {
          type: 'object',
          properties: { type: { const: 'object' }, description, properties: claimMap, additionalProperties: { const: false } },
          required: ['type', 'description', 'properties', 'additionalProperties'],
          additionalProperties: false,
        },
      ],
    },
  },
  properties: {
    jsonSchema: {
      type: 'object',
      properties: {
        $schema: { const: 'http://json-schema.org/draft-07/schema#' },
        type: { const: 'object' },
        properties: {
          type: 'object',
          maxProperties: 100,
          properties: {
            unsigned: {
              type: 'object',
              properties: { type: { const: 'object' }, description: { const: 'Unsigned claims of the site visitor.' }, properties: claimMap, additionalProperties: { const: false } },
              required: ['type', 'description', 'properties', 'additionalProperties'],
              additionalProperties: false,
            },
          },
          additionalProperties: { $ref: '#/$defs/claim' },
        },
        additionalProperties: { const: false },
      },
      required: ['type', 'properties', 'additionalProperties'],
      additionalProperties: false,
    },
  },
  required: ['jsonSchema'],
  additionalProperties: false,
} as const;
/** What handlers see of that body: its recursion is too deep for json-schema-to-ts, and the schema above has checked it. */
export const adaptiveSchemaShell = { type: 'object', properties: { jsonSchema: { type: 'object' } }, required: ['jsonSchema'], additionalProperties: false } as const;
export const updateAdaptiveSchema = adaptiveSchemaBody as unknown as typeof adaptiveSchemaShell;

export type ListSitesQuery = FromSchema<typeof listSites>;
export type CreateSiteBody = FromSchema<typeof createSite>;
export type UpdateSiteBody = FromSchema<typeof updateSite>;
export type ShareKeyQuery = FromSchema<typeof shareKeyQuery>;
export type ListShareLinksQuery = FromSchema<typeof listShareLinks>;
export type CreateShareLinkBody = FromSchema<typeof createShareLink>;
export type UpdateShareLinkBody = FromSchema<typeof updateShareLink>;
export type UpdateAdaptiveSchemaBody = FromSchema<typeof adaptiveSchemaShell>;
