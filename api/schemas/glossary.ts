import type { FromSchema } from 'json-schema-to-ts';
import { translationLanguages } from './translations.js';

/** `GlossaryTranslations`: a term per language (upstream's TranslationLanguage codes), one line each. */
const translations = {
  type: 'object',
  minProperties: 1,
  propertyNames: { enum: translationLanguages },
  additionalProperties: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[^\\n\\r]*\\S[^\\n\\r]*$' },
} as const;

const entryId = { type: 'string', minLength: 1, maxLength: 64 } as const;

/** updateGlossaryEntries: `GlossaryBatchOperation`s, applied in order, all or none. */
export const updateGlossary = {
  type: 'object',
  required: ['operations'],
  properties: {
    operations: {
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      items: {
        oneOf: [
          { type: 'object', required: ['type', 'translations'], properties: { type: { const: 'insert' }, translations }, additionalProperties: false },
          { type: 'object', required: ['type', 'id', 'translations'], properties: { type: { const: 'update' }, id: entryId, translations }, additionalProperties: false },
          { type: 'object', required: ['type', 'id'], properties: { type: { const: 'delete' }, id: entryId }, additionalProperties: false },
        ],
      },
    },
  },
  additionalProperties: false,
} as const;

export const listGlossary = {
  type: 'object',
  properties: {
    page: { type: 'string', minLength: 1, maxLength: 2048 },
    limit: { type: 'integer', minimum: 0, maximum: 1000, default: 100 },
    orderBy: { type: 'string', enum: translationLanguages },
  },
  additionalProperties: false,
} as const;

export type UpdateGlossaryBody = FromSchema<typeof updateGlossary>;
export type ListGlossaryQuery = FromSchema<typeof listGlossary>;
