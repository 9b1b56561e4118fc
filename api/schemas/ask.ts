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

/**
 * streamAIResponseInSite's body (0.202.0): the conversation's new messages. Quire answers the last
 * user message; tools, tool results and attachments are accepted and not used (docs/ask.md).
 */
export const siteAIResponseBody = {
  type: 'object',
  required: ['input'],
  properties: {
    previousResponseId: { type: 'string', maxLength: 128 },
    input: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        required: ['role', 'content'],
        properties: {
          role: { enum: ['user', 'assistant', 'developer'] },
          content: {
            anyOf: [
              { type: 'string', maxLength: 2048 },
              { type: 'object', required: ['nodes'], properties: { nodes: { type: 'array', maxItems: 200 } } },
            ],
          },
          context: { type: 'object' },
          attachments: { type: 'array', maxItems: 20, items: { type: 'object' } },
        },
        additionalProperties: false,
      },
    },
    model: { enum: ['fast', 'reasoning-low', 'reasoning-medium', 'reasoning-high'] },
    tools: { type: 'array', maxItems: 50, items: { type: 'object' } },
    toolCall: { type: 'object' },
    session: { type: 'object', properties: { visitorId: { type: 'string', maxLength: 256 }, sessionId: { type: 'string', maxLength: 256 } }, additionalProperties: false },
    channel: { type: 'object', required: ['type'], properties: { type: { enum: ['site', 'embed', 'api'] } }, additionalProperties: false },
  },
  additionalProperties: false,
} as const;

export type SiteAIResponseBody = FromSchema<typeof siteAIResponseBody>;
export type AskBody = FromSchema<typeof askBody>;
export type AskQuery = FromSchema<typeof askQuery>;
export type StreamAskQuery = FromSchema<typeof streamAskQuery>;
export type SiteAskBody = FromSchema<typeof siteAskBody>;
export type FormatQuery = FromSchema<typeof formatQuery>;
export type SiteQuestionsQuery = FromSchema<typeof siteQuestionsQuery>;
