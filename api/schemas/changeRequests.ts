import type { FromSchema } from 'json-schema-to-ts';
import { pagination } from './common.js';

const id = { type: 'string', minLength: 1, maxLength: 64 } as const;
const subject = { type: 'string', maxLength: 100 } as const;
const status = { enum: ['draft', 'open', 'archived', 'merged'] } as const;

/**
 * The upstream JSON Document: each block checked against upstream's block schemas (unknown block,
 * inline or mark types and misshapen nodes are refused); `data` may be left out.
 */
export const document = {
  type: 'object',
  required: ['object', 'nodes'],
  properties: {
    object: { const: 'document' },
    data: { type: 'object' },
    nodes: { type: 'array', maxItems: 10_000, items: { $ref: 'upstream-document.json#/definitions/DocumentBlocksTopLevels' } },
  },
  additionalProperties: false,
} as const;

export const listChangeRequests = {
  type: 'object',
  properties: {
    ...pagination,
    status: { ...status, default: 'open' },
    creator: id,
    contributor: id,
    requestedReviewer: id,
    conversationsIssuesCluster: id,
  },
  additionalProperties: false,
} as const;

/** Upstream's `agentTaskId` is accepted and ignored (Quire has no agents); other fields are refused as everywhere. */
export const createChangeRequest = {
  type: 'object',
  // No field is required, but upstream requires the body (see api/validate.ts).
  required: [],
  properties: {
    subject,
    template: {
      type: 'object',
      required: ['id'],
      properties: { id, params: { type: 'object', properties: { contentRefs: { type: 'object' } }, additionalProperties: false } },
      additionalProperties: false,
    },
    agentTaskId: id,
    // A Quire extension (docs/decisions/change-requests.md): the issue cluster the change request addresses.
    conversationsIssuesCluster: id,
  },
  additionalProperties: false,
} as const;

export const updateChangeRequest = {
  type: 'object',
  properties: { subject, description: document, status: { enum: ['draft', 'open', 'archived'] }, conversationsIssuesCluster: { anyOf: [id, { type: 'null' }] } },
  additionalProperties: false,
} as const;

export type ListChangeRequestsQuery = FromSchema<typeof listChangeRequests>;
export type CreateChangeRequestBody = FromSchema<typeof createChangeRequest>;
export type UpdateChangeRequestBody = FromSchema<typeof updateChangeRequest>;
