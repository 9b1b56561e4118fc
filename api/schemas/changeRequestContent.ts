import type { FromSchema } from 'json-schema-to-ts';
import { document as jsonDocument } from './changeRequests.js';
import { pagination } from './common.js';

const id = { type: 'string', minLength: 1, maxLength: 64 } as const;
const ref = { type: 'string', minLength: 1, maxLength: 256 } as const;

/** `{markdown}`, `{document}` (the JSON Document), or `{}` (an empty page), as upstream's `Document`. */
const document = {
  anyOf: [
    { type: 'object', required: ['markdown'], properties: { markdown: { type: 'string', maxLength: 1_000_000 } }, additionalProperties: false },
    { type: 'object', required: ['document'], properties: { document: jsonDocument }, additionalProperties: false },
    { type: 'object', maxProperties: 0 },
  ],
} as const;

/** Upstream's `RevisionPageUpdate`: page metadata an insert or update may set. */
const pageFields = {
  // A title of spaces would make a page named "untitled": refused.
  title: { type: 'string', minLength: 1, maxLength: 256, pattern: '\\S' },
  slug: { type: 'string', maxLength: 100, pattern: '^[a-z0-9][a-z0-9._-]*$' },
  emoji: { type: 'string', maxLength: 50 },
  icon: { type: 'string', maxLength: 100 },
  description: { type: 'string', maxLength: 1000 },
  hidden: { type: 'boolean' },
  noIndex: { type: 'boolean' },
  noRobotsIndex: { type: 'boolean' },
  condition: { type: 'string', maxLength: 1000 },
} as const;

const insertPage = {
  type: 'object',
  required: ['operation', 'document'],
  properties: { operation: { const: 'insert_page' }, ...pageFields, into: id, at: { type: 'integer', minimum: 0 }, ref, document },
  additionalProperties: false,
} as const;

const updatePage = {
  type: 'object',
  required: ['operation', 'page'],
  properties: { operation: { const: 'update_page' }, ...pageFields, page: id, document, into: { anyOf: [id, { type: 'null' }] }, at: { type: 'integer', minimum: 0 } },
  additionalProperties: false,
} as const;

const deletePage = { type: 'object', required: ['operation', 'page'], properties: { operation: { const: 'delete_page' }, page: id }, additionalProperties: false } as const;

const revertPage = {
  type: 'object',
  required: ['operation', 'page'],
  properties: {
    operation: { const: 'revert_page' },
    page: id,
    revision: { type: 'string', minLength: 1, maxLength: 64 },
    block: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'string', minLength: 1, maxLength: 64 } },
  },
  additionalProperties: false,
} as const;

const insertFiles = {
  type: 'object',
  required: ['operation', 'files'],
  properties: {
    operation: { const: 'insert_files' },
    files: {
      type: 'array',
      minItems: 1,
      maxItems: 20,
      items: {
        type: 'object',
        required: ['name'],
        properties: {
          ref,
          name: { type: 'string', minLength: 1, maxLength: 256 },
          contentType: { type: 'string', maxLength: 256 },
          url: { type: 'string', format: 'uri', maxLength: 2048 },
          // 1 MB of bytes is 1,398,104 base64 characters.
          base64: { type: 'string', maxLength: 1_398_104 },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;

export const updateContent = {
  type: 'object',
  required: ['changes'],
  properties: {
    changes: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: {
        type: 'object',
        required: ['operation'],
        properties: { operation: { type: 'string' } },
        discriminator: { propertyName: 'operation' },
        oneOf: [insertPage, updatePage, deletePage, revertPage, insertFiles],
      },
    },
  },
  additionalProperties: false,
} as const;

export const updateContentQuery = { type: 'object', properties: { compat: { type: 'boolean', default: true } }, additionalProperties: false } as const;

export type UpdateContentBody = FromSchema<typeof updateContent>;
export type UpdateContentQuery = FromSchema<typeof updateContentQuery>;
export type ContentChange = UpdateContentBody['changes'][number];

export const listQuery = { type: 'object', properties: { ...pagination }, additionalProperties: false } as const;
export const changesQuery = { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 1000, default: 10 } }, additionalProperties: false } as const;

export type ListQuery = FromSchema<typeof listQuery>;
export type ChangesQuery = FromSchema<typeof changesQuery>;
