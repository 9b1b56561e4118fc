import type { FromSchema } from 'json-schema-to-ts';
import { listQuery, uri } from './common.js';

export const specSlug = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$' } as const;

/** By URL (fetched through the outbound guard) or by uploaded text, as upstream allows. */
const source = {
  oneOf: [
    { type: 'object', properties: { url: uri }, required: ['url'], additionalProperties: false },
    { type: 'object', properties: { text: { type: 'string', minLength: 1 } }, required: ['text'], additionalProperties: false },
  ],
} as const;

export const specParams = { type: 'object', properties: { specSlug: specSlug }, required: ['specSlug'] } as const;
export const versionParams = { type: 'object', properties: { specSlug: specSlug, versionId: { type: 'string', minLength: 1, maxLength: 64 } }, required: ['specSlug', 'versionId'] } as const;

export const listSpecs = listQuery;
export const listVersions = listQuery;

export const createSpec = {
  type: 'object',
  properties: { slug: specSlug, source },
  required: ['slug', 'source'],
  additionalProperties: false,
} as const;

export const putSpec = { type: 'object', properties: { source }, required: ['source'], additionalProperties: false } as const;

export const updateSpec = {
  type: 'object',
  properties: { visibility: { type: 'string', enum: ['private', 'public'] } },
  required: ['visibility'],
  additionalProperties: false,
} as const;

export type SpecParams = FromSchema<typeof specParams>;
export type VersionParams = FromSchema<typeof versionParams>;
export type ListSpecsQuery = FromSchema<typeof listSpecs>;
export type ListVersionsQuery = FromSchema<typeof listVersions>;
export type CreateSpecBody = FromSchema<typeof createSpec>;
export type PutSpecBody = FromSchema<typeof putSpec>;
export type UpdateSpecBody = FromSchema<typeof updateSpec>;
