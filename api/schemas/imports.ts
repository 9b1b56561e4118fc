import type { FromSchema } from 'json-schema-to-ts';
import { pagination } from './common.js';

const id = { type: 'string', minLength: 1, maxLength: 64 } as const;

/** generateStorageUploadURL: the file about to be sent, and what it is for. */
export const uploadRequest = {
  type: 'object',
  required: ['file', 'kind'],
  properties: {
    file: {
      type: 'object',
      required: ['name', 'type', 'size'],
      properties: { name: { type: 'string', minLength: 1, maxLength: 256 }, type: { type: 'string', minLength: 1, maxLength: 128 }, size: { type: 'integer', minimum: 0 } },
      additionalProperties: false,
    },
    kind: { enum: ['customization_font', 'import_file', 'organization_file'] },
  },
  additionalProperties: false,
} as const;

/** startImportRun: a website or uploaded files, into a space (a change request, a page of it). */
export const startImport = {
  type: 'object',
  required: ['source', 'target'],
  properties: {
    source: {
      type: 'object',
      required: ['type'],
      properties: { type: { type: 'string' } },
      discriminator: { propertyName: 'type' },
      oneOf: [
        { type: 'object', required: ['type', 'url'], properties: { type: { const: 'website' }, url: { type: 'string', format: 'uri', maxLength: 2048 } }, additionalProperties: false },
        {
          type: 'object',
          required: ['type', 'files'],
          properties: { type: { const: 'file' }, files: { type: 'array', minItems: 1, maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 200 } } },
          additionalProperties: false,
        },
      ],
    },
    target: { type: 'object', required: ['space'], properties: { space: id, changeRequest: id, page: id }, additionalProperties: false },
    site: id,
    enhance: { type: 'boolean' },
  },
  additionalProperties: false,
} as const;

export const listImports = {
  type: 'object',
  properties: { ...pagination, space: id, changeRequest: id, site: id, status: { enum: ['active', 'pending', 'in-progress', 'completed', 'failed', 'cancelled'] } },
  additionalProperties: false,
} as const;

export type UploadRequestBody = FromSchema<typeof uploadRequest>;
export type StartImportBody = FromSchema<typeof startImport>;
export type ListImportsQuery = FromSchema<typeof listImports>;
