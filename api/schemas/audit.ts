import type { FromSchema } from 'json-schema-to-ts';

const id = { type: 'string', minLength: 1, maxLength: 128 } as const;

/** listOrganizationAuditEvents: up to 100 a page (20 by default), newest first. */
export const listAuditEvents = {
  type: 'object',
  properties: {
    page: { type: 'string', minLength: 1, maxLength: 2048 },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    from: { type: 'string', format: 'date-time' },
    to: { type: 'string', format: 'date-time' },
    action: id,
    actor: id,
    target: id,
  },
  additionalProperties: false,
} as const;

export type ListAuditEventsQuery = FromSchema<typeof listAuditEvents>;
