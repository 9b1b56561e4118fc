import type { FromSchema } from 'json-schema-to-ts';
import { pagination } from './common.js';

const id = { type: 'string', minLength: 1, maxLength: 64 } as const;

/**
 * 0.202.0's SiteRedirectSourcePath: `/` then percent-encoded unreserved segments, optionally
 * ending in `*` (or `/*`): then every path it starts.
 */
const source = {
  type: 'string',
  maxLength: 512,
  pattern: '^\\/(?!\\*)(?!.*\\*.+)(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+(?:\\/(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\\/\\*|\\*)?$',
} as const;

const destination = {
  anyOf: [
    { type: 'object', required: ['kind', 'siteSectionId'], properties: { kind: { const: 'site-section' }, siteSectionId: id }, additionalProperties: false },
    { type: 'object', required: ['kind', 'siteSpaceId'], properties: { kind: { const: 'site-space' }, siteSpaceId: id }, additionalProperties: false },
    { type: 'object', required: ['kind', 'siteSpaceId', 'pageId'], properties: { kind: { const: 'site-page' }, siteSpaceId: id, pageId: id }, additionalProperties: false },
    { type: 'object', required: ['kind', 'url'], properties: { kind: { const: 'external' }, url: { type: 'string', format: 'uri', maxLength: 2048 } }, additionalProperties: false },
    { type: 'object', required: ['kind', 'spaceId', 'path'], properties: { kind: { const: 'path' }, spaceId: id, path: { type: 'string', maxLength: 1024 } }, additionalProperties: false },
  ],
} as const;

const options = { captureWildcard: { type: 'boolean' }, permanent: { type: 'boolean' }, draft: { type: 'boolean' } } as const;

export const createRedirect = { type: 'object', required: ['source', 'destination'], properties: { source, destination, ...options }, additionalProperties: false } as const;
// No field is required, but upstream requires the body (see api/validate.ts).
export const updateRedirect = { type: 'object', required: [], properties: { source, destination, ...options }, additionalProperties: false } as const;
export const listRedirects = {
  type: 'object',
  properties: { ...pagination, search: { type: 'string', maxLength: 512 }, draft: { type: 'boolean' }, orderBy: { enum: ['createdAt', 'updatedAt', 'source'] } },
  additionalProperties: false,
} as const;
export const redirectBySource = { type: 'object', required: ['source'], properties: { source, shareKey: { type: 'string', minLength: 1, maxLength: 128 } }, additionalProperties: false } as const;

/** bulkUpsertSiteRedirects: 1–500 redirects by source; `destination: null` deletes one. */
export const bulkRedirects = {
  type: 'object',
  required: ['redirects'],
  properties: {
    redirects: {
      type: 'array',
      minItems: 1,
      maxItems: 500,
      // A destination (null deletes the redirect), or, to publish a draft, the source alone.
      items: {
        anyOf: [
          {
            type: 'object',
            required: ['source', 'destination'],
            properties: {
              source,
              intent: { enum: ['live', 'draft'] },
              destination: { anyOf: [...destination.anyOf, { type: 'null' }] },
              captureWildcard: { type: 'boolean' },
              permanent: { type: 'boolean' },
            },
            additionalProperties: false,
          },
          { type: 'object', required: ['source', 'intent'], properties: { source, intent: { const: 'publish' } }, additionalProperties: false },
        ],
      },
    },
  },
  additionalProperties: false,
} as const;

export type CreateRedirectBody = FromSchema<typeof createRedirect>;
export type UpdateRedirectBody = FromSchema<typeof updateRedirect>;
export type ListRedirectsQuery = FromSchema<typeof listRedirects>;
export type RedirectBySourceQuery = FromSchema<typeof redirectBySource>;
export type BulkRedirectsBody = FromSchema<typeof bulkRedirects>;
