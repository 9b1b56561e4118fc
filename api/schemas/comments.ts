import type { FromSchema } from 'json-schema-to-ts';
import { document } from './changeRequests.js';
import { order, pagination } from './common.js';

const id = { type: 'string', minLength: 1, maxLength: 64 } as const;
/** Markdown bodies are comments, not pages: 64 KB of text is plenty. */
const markdown = { type: 'string', maxLength: 65_536 } as const;
/** Emojis; repeats count once, so the body limit is the only bound a list needs. */
const reactions = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 50 } } as const;

/** The body of a comment or reply: `{markdown}` or `{document}` (the upstream JSON Document, checked at its top level). */
const body = {
  type: 'object',
  properties: { markdown, document },
  minProperties: 1,
  maxProperties: 1,
  additionalProperties: false,
} as const;

/** How bodies are answered: markdown (what the specification shows) unless `document` is asked for. */
const format = { enum: ['markdown', 'document'], default: 'markdown' } as const;

export const listComments = {
  type: 'object',
  properties: {
    ...pagination,
    order,
    status: { enum: ['all', 'open', 'resolved'], default: 'all' },
    format,
    targetPage: id,
    // One id, or the parameter repeated (`authors=a&authors=b`).
    authors: { anyOf: [id, { type: 'array', items: id, minItems: 1, maxItems: 100 }] },
  },
  additionalProperties: false,
} as const;

export const formatQuery = { type: 'object', properties: { format }, additionalProperties: false } as const;

export const listReplies = { type: 'object', properties: { ...pagination, format }, additionalProperties: false } as const;

export const postComment = {
  type: 'object',
  required: ['body'],
  properties: {
    body,
    page: id,
    node: id,
    tableCell: { type: 'object', required: ['record', 'definition'], properties: { record: id, definition: id }, additionalProperties: false },
  },
  additionalProperties: false,
} as const;

export const updateComment = {
  type: 'object',
  properties: { resolved: { type: 'boolean' }, body, addedReactions: reactions, removedReactions: reactions },
  additionalProperties: false,
} as const;

export const postReply = { type: 'object', required: ['body'], properties: { body }, additionalProperties: false } as const;

export const updateReply = {
  type: 'object',
  properties: { body, addedReactions: reactions, removedReactions: reactions },
  additionalProperties: false,
} as const;

export type ListCommentsQuery = FromSchema<typeof listComments>;
export type FormatQuery = FromSchema<typeof formatQuery>;
export type ListRepliesQuery = FromSchema<typeof listReplies>;
export type PostCommentBody = FromSchema<typeof postComment>;
export type UpdateCommentBody = FromSchema<typeof updateComment>;
export type PostReplyBody = FromSchema<typeof postReply>;
export type UpdateReplyBody = FromSchema<typeof updateReply>;
