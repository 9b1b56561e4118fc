import type { FromSchema } from 'json-schema-to-ts';
import { pagination, roleOrGuest } from './common.js';
import { mergeRules as organizationMergeRules } from './organizations.js';

export const languages = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-br',
  'ru',
  'ja',
  'zh',
  'yue',
  'ko',
  'ar',
  'hi',
  'nl',
  'pl',
  'tr',
  'sv',
  'no',
  'da',
  'fi',
  'el',
  'cs',
  'hu',
  'ro',
  'th',
  'vi',
  'id',
  'ms',
  'he',
  'uk',
  'sk',
  'bg',
  'hr',
  'lt',
  'lv',
  'et',
  'sl',
];
const id = { type: 'string', minLength: 1, maxLength: 64 } as const;
const title = { type: 'string', maxLength: 50 } as const;
const emoji = { type: 'string', maxLength: 50 } as const;
export const defaultLevel = { enum: [...roleOrGuest.enum, 'inherit'] } as const;

export const listSpaces = { type: 'object', properties: { ...pagination }, additionalProperties: false } as const;

export const createSpace = {
  type: 'object',
  properties: {
    title,
    emoji,
    parent: id,
    language: { enum: languages },
    editMode: { enum: ['live', 'locked'] },
    template: {
      type: 'object',
      required: ['id'],
      properties: { id, params: { type: 'object', properties: { contentRefs: { type: 'object' } }, additionalProperties: false } },
      additionalProperties: false,
    },
    empty: { const: true },
  },
  additionalProperties: false,
} as const;

export const getSpace = { type: 'object', properties: { shareKey: { type: 'string', maxLength: 256 } }, additionalProperties: false } as const;

export const updateSpace = {
  type: 'object',
  // No field is required, but upstream requires the body (see api/validate.ts).
  required: [],
  properties: {
    title,
    emoji: { anyOf: [emoji, { type: 'null' }] },
    icon: { anyOf: [{ type: 'string', format: 'uri', maxLength: 2048 }, { type: 'null' }] },
    editMode: { enum: ['live', 'locked'] },
    defaultLevel,
    language: { enum: languages },
    mergeRules: {
      type: 'object',
      required: ['type'],
      properties: { type: { enum: ['inherit', 'none', 'rules'] }, rules: organizationMergeRules.properties.rules },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

const pointer = {
  type: 'object',
  required: ['type'],
  properties: { type: { enum: ['space', 'collection'] }, space: id, collection: id },
  additionalProperties: false,
} as const;
export const position = { type: 'object', properties: { before: pointer, after: pointer }, additionalProperties: false } as const;

/** Upstream requires a body with at least one property: a move names where to. */
export const moveSpace = {
  type: 'object',
  properties: { parent: { anyOf: [id, { type: 'null' }] }, position },
  minProperties: 1,
  additionalProperties: false,
} as const;

export const transfer = { type: 'object', required: ['organization'], properties: { organization: id }, additionalProperties: false } as const;

export const contentQuery = {
  type: 'object',
  properties: { metadata: { type: 'boolean', default: true }, computed: { type: 'boolean', default: true } },
  additionalProperties: false,
} as const;

/** getRevisionSemanticChanges: how many changes to list (the rest is counted in `more`). */
export const revisionChangesQuery = {
  type: 'object',
  properties: { ...contentQuery.properties, limit: { type: 'integer', minimum: 1, maximum: 1000, default: 10 } },
  additionalProperties: false,
} as const;
export type RevisionChangesQuery = FromSchema<typeof revisionChangesQuery>;

/** getDocumentById: upstream's `schema` (the Document schema's version); Quire has one. */
export const documentQuery = { type: 'object', properties: { schema: { enum: ['current', 'next'] } }, additionalProperties: false } as const;

/** getPageDocumentInRevisionById: `evaluated`, and 0.202.0's `dereferenced`. */

export const pageDocumentQuery = {
  type: 'object',
  properties: {
    evaluated: { anyOf: [{ type: 'boolean' }, { const: 'deterministic-only' }], default: false },
    dereferenced: { anyOf: [{ type: 'boolean' }, { const: 'reusable-contents' }], default: false },
  },
  additionalProperties: false,
} as const;
export type PageDocumentQuery = FromSchema<typeof pageDocumentQuery>;

export const pageQuery = {
  type: 'object',
  properties: {
    ...contentQuery.properties,
    format: { enum: ['document', 'markdown'], default: 'document' },
    // 0.202.0: how a markdown page writes references to content (relative paths as stored, or ids).
    'format.markdown.refs': { enum: ['relative', 'stable'], default: 'relative' },
    evaluated: { anyOf: [{ type: 'boolean' }, { const: 'deterministic-only' }], default: false },
    dereferenced: { anyOf: [{ type: 'boolean' }, { const: 'reusable-contents' }], default: false },
  },
  additionalProperties: false,
} as const;

export const filesQuery = { type: 'object', properties: { ...pagination, ...contentQuery.properties }, additionalProperties: false } as const;

export const applyTemplate = {
  type: 'object',
  required: ['id'],
  properties: {
    id,
    params: { type: 'object', properties: { contentRefs: { type: 'object' } }, additionalProperties: false },
    changeRequestId: id,
  },
  additionalProperties: false,
} as const;

/** A signed download URL's query (api/downloadSigner.ts); a caller with a token needs neither. */
export const downloadQuery = {
  type: 'object',
  properties: { expires: { type: 'string', pattern: '^[0-9]{1,12}$' }, signature: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' } },
  additionalProperties: false,
} as const;

export type ListSpacesQuery = FromSchema<typeof listSpaces>;
export type CreateSpaceBody = FromSchema<typeof createSpace>;
export type UpdateSpaceBody = FromSchema<typeof updateSpace>;
export type MoveBody = FromSchema<typeof moveSpace>;
export type TransferBody = FromSchema<typeof transfer>;
export type ContentQuery = FromSchema<typeof contentQuery>;
export type PageQuery = FromSchema<typeof pageQuery>;
export type FilesQuery = FromSchema<typeof filesQuery>;
export type ApplyTemplateBody = FromSchema<typeof applyTemplate>;

/** getComputedDocument's body: the source's own shape is checked by the domain, which names what it can't compute. */
export const computedDocumentBody = {
  type: 'object',
  properties: {
    source: {
      type: 'object',
      properties: {
        type: { type: 'string', minLength: 1 },
        dependencies: { type: 'object' },
        props: { type: 'object', properties: { doc: { type: 'string' }, page: { type: 'string', minLength: 1 } } },
      },
      required: ['type'],
    },
    seed: { type: 'string' },
  },
  required: ['source', 'seed'],
  additionalProperties: false,
} as const;
export type ComputedDocumentBody = FromSchema<typeof computedDocumentBody>;

/** getComputedRevision's body: a `builtin:openapi` revision source (the domain names what it can't compute). */
export const computedRevisionBody = {
  type: 'object',
  properties: {
    source: {
      type: 'object',
      properties: {
        type: { type: 'string', minLength: 1 },
        dependencies: { type: 'object' },
        props: { type: 'object', properties: { models: { type: 'boolean' }, downloadLink: { type: 'boolean' }, grouping: { enum: ['by-tag', 'by-operation'] } } },
      },
      required: ['type'],
    },
    seed: { type: 'string', maxLength: 256 },
  },
  required: ['source', 'seed'],
  additionalProperties: false,
} as const;
export type ComputedRevisionBody = FromSchema<typeof computedRevisionBody>;

export const computedDocumentQuery = {
  type: 'object',
  properties: { schema: { enum: ['current', 'next'] } },
  additionalProperties: false,
} as const;
