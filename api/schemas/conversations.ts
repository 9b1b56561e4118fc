import type { FromSchema } from 'json-schema-to-ts';
import { order, pagination } from './common.js';

const id = { type: 'string', minLength: 1, maxLength: 255 } as const;

/** Upstream's ConversationPartMessage; the limits are Quire's (docs/decisions/conversations.md). */
const part = {
  type: 'object',
  properties: {
    type: { type: 'string', enum: ['message'] },
    role: { type: 'string', enum: ['user', 'assistant', 'team-member'] },
    body: { type: 'string', maxLength: 100_000 },
  },
  required: ['type', 'role', 'body'],
  additionalProperties: false,
} as const;

const conversationInput = {
  type: 'object',
  properties: {
    id,
    subject: { type: 'string', maxLength: 512 },
    parts: { type: 'array', maxItems: 500, items: part },
    metadata: {
      type: 'object',
      properties: {
        url: { type: 'string', maxLength: 2048 },
        attributes: { type: 'object', maxProperties: 100, propertyNames: { maxLength: 255 }, additionalProperties: { type: 'string', maxLength: 4096 } },
        createdAt: { type: 'string', format: 'date-time' },
      },
      additionalProperties: false,
    },
  },
  required: ['id', 'parts'],
  additionalProperties: false,
} as const;

/**
 * One conversation, or a batch of them (at most 100 a request). Upstream's `oneOf`, written as
 * if/then/else so a refusal names what is wrong inside the one that was meant.
 */
export const ingestConversation = {
  if: { type: 'array' },
  then: { type: 'array', maxItems: 100, items: conversationInput },
  else: conversationInput,
} as const;

export const listConversations = {
  type: 'object',
  properties: { ...pagination, source: { type: 'string', minLength: 1, maxLength: 512 } },
  additionalProperties: false,
} as const;

export const listConversationsIssues = {
  type: 'object',
  properties: { ...pagination, cluster: { type: 'string', minLength: 1, maxLength: 64 }, conversation: id },
  additionalProperties: false,
} as const;

export const listConversationsIssuesClusters = {
  type: 'object',
  properties: {
    ...pagination,
    order,
    orderBy: { type: 'string', enum: ['updatedAt', 'issues', 'conversations', 'tasksTotal', 'tasksBacklog', 'tasksStarted'], default: 'updatedAt' },
    status: { type: 'string', enum: ['pending', 'analysing'] },
  },
  additionalProperties: false,
} as const;

export type IngestConversationBody = FromSchema<typeof ingestConversation>;
export type ListConversationsQuery = FromSchema<typeof listConversations>;
export type ListConversationsIssuesQuery = FromSchema<typeof listConversationsIssues>;
export type ListConversationsIssuesClustersQuery = FromSchema<typeof listConversationsIssuesClusters>;
