import type { FromSchema } from 'json-schema-to-ts';

const question = { type: 'string', minLength: 1, maxLength: 512 } as const;
const format = { enum: ['document', 'markdown'], default: 'document' } as const;

/** `SearchAIQuery` (askInOrganization). */
export const askBody = {
  type: 'object',
  required: ['query'],
  properties: { query: question, previousQueries: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 512 } } },
  additionalProperties: false,
} as const;

export const askQuery = {
  type: 'object',
  properties: { format, details: { type: 'boolean' } },
  additionalProperties: false,
} as const;

export const streamAskQuery = {
  type: 'object',
  required: ['query'],
  properties: { query: question, format, details: { type: 'boolean' } },
  additionalProperties: false,
} as const;

const siteSpaceId = { type: 'string', minLength: 1, maxLength: 64 } as const;

/** streamAskInSite's body: the question, and which of the site's spaces to answer from (`SiteSearchScope`). */
export const siteAskBody = {
  type: 'object',
  required: ['question', 'scope'],
  properties: {
    question,
    context: { type: 'object', properties: { siteSpaceId, goal: { type: 'string', maxLength: 1024 } }, additionalProperties: false },
    scope: {
      type: 'object',
      required: ['mode'],
      properties: {
        mode: { enum: ['default', 'all', 'specific'] },
        currentSiteSpace: siteSpaceId,
        restrictTo: { enum: ['currentSiteSpace', 'otherSiteSpaces'] },
        siteSpaceIds: { type: 'array', maxItems: 100, items: siteSpaceId },
      },
      additionalProperties: false,
    },
    session: { type: 'object', properties: { visitorId: { type: 'string', maxLength: 256 }, sessionId: { type: 'string', maxLength: 256 } }, additionalProperties: false },
  },
  additionalProperties: false,
} as const;

export const formatQuery = { type: 'object', properties: { format }, additionalProperties: false } as const;

export const siteQuestionsQuery = {
  type: 'object',
  properties: { siteSpaceId, spaceId: siteSpaceId },
  additionalProperties: false,
} as const;

export type AskBody = FromSchema<typeof askBody>;
export type AskQuery = FromSchema<typeof askQuery>;
export type StreamAskQuery = FromSchema<typeof streamAskQuery>;
export type SiteAskBody = FromSchema<typeof siteAskBody>;
export type FormatQuery = FromSchema<typeof formatQuery>;
export type SiteQuestionsQuery = FromSchema<typeof siteQuestionsQuery>;
