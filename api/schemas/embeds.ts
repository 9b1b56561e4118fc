import type { FromSchema } from 'json-schema-to-ts';

export const embedQuery = { type: 'object', required: ['url'], properties: { url: { type: 'string', minLength: 1, maxLength: 2048 } }, additionalProperties: false } as const;
export type EmbedQuery = FromSchema<typeof embedQuery>;
