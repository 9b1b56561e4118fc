import type { FromSchema } from 'json-schema-to-ts';

/** Upstream's SitePublishingAuthUpdate: the backend, and the fallback URL (null unsets it, absent keeps it). */
export const updatePublishingAuth = {
  type: 'object',
  required: ['backend'],
  properties: {
    backend: { enum: ['custom', 'integration'] },
    fallbackURL: { anyOf: [{ type: 'string', maxLength: 2048, pattern: '^https?://[^\\s]+$' }, { type: 'null' }] },
  },
  additionalProperties: false,
} as const;

export type UpdatePublishingAuthBody = FromSchema<typeof updatePublishingAuth>;

/** getSitePublishingPreviewById's query: `draft` is accepted and changes nothing (a preview shows each site space's primary content). */
export const previewQuery = {
  type: 'object',
  properties: {
    siteSpace: { type: 'string', minLength: 1, maxLength: 64 },
    claims: { type: 'string', maxLength: 4096 },
    draft: { type: 'boolean' },
    target: { type: 'string', maxLength: 2048, pattern: '^https?://[^\\s/]+' },
  },
  additionalProperties: false,
} as const;

export type PreviewQuery = FromSchema<typeof previewQuery>;
