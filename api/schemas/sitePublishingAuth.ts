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
