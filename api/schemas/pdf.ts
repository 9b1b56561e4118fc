import type { FromSchema } from 'json-schema-to-ts';

export const pdfQuery = {
  type: 'object',
  properties: { only: { type: 'boolean', default: false }, page: { type: 'string', minLength: 1, maxLength: 64 } },
  additionalProperties: false,
} as const;

/** The signed download link's own query. */
export const pdfDownloadQuery = {
  type: 'object',
  properties: { expires: { type: 'string', maxLength: 20 }, signature: { type: 'string', maxLength: 100 } },
  additionalProperties: false,
} as const;

export type PdfQuery = FromSchema<typeof pdfQuery>;
