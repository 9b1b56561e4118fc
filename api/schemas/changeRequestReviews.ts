import type { FromSchema } from 'json-schema-to-ts';
import { pagination } from './common.js';
import { document } from './changeRequests.js';

const id = { type: 'string', minLength: 1, maxLength: 64 } as const;

export const listReviews = {
  type: 'object',
  properties: { ...pagination, format: { enum: ['document', 'markdown'], default: 'document' }, outdated: { type: 'boolean' } },
  additionalProperties: false,
} as const;

export const reviewQuery = { type: 'object', properties: { format: { enum: ['document', 'markdown'], default: 'document' } }, additionalProperties: false } as const;

/** `comment`: upstream's Document (`{markdown}`, `{document}` or `{}`), posted as a comment of the change request. */
export const submitReview = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { enum: ['approved', 'changes-requested'] },
    comment: {
      type: 'object',
      properties: { markdown: { type: 'string', maxLength: 100_000 }, document },
      maxProperties: 1,
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

export const requestReviewers = {
  type: 'object',
  required: ['users'],
  properties: { users: { type: 'array', minItems: 1, maxItems: 50, items: id }, subject: { type: 'string', maxLength: 100 }, description: document },
  additionalProperties: false,
} as const;

export const listQuery = { type: 'object', properties: { ...pagination }, additionalProperties: false } as const;

export type ListReviewsQuery = FromSchema<typeof listReviews>;
export type ReviewQuery = FromSchema<typeof reviewQuery>;
export type SubmitReviewBody = FromSchema<typeof submitReview>;
export type RequestReviewersBody = FromSchema<typeof requestReviewers>;
export type ListQuery = FromSchema<typeof listQuery>;
