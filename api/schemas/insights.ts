import type { FromSchema } from 'json-schema-to-ts';
import { insightEventTypes } from '../../domain/insights/index.js';

const id = { type: ['string', 'null'], maxLength: 64 } as const;
const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;

/** One event of `SiteInsightsEvent` (0.202.0): its type, where it happened, and what it was about. */
const event = {
  type: 'object',
  required: ['type', 'location'],
  properties: {
    type: { enum: [...insightEventTypes] },
    session: { type: 'object' },
    location: {
      type: 'object',
      required: ['url'],
      properties: {
        url: { type: 'string', format: 'uri', maxLength: 2048 },
        displayContext: { enum: ['site', 'server', 'embed', 'mcp'] },
        siteSection: id,
        siteSpace: id,
        siteShareKey: id,
        space: id,
        revision: id,
        page: id,
      },
      additionalProperties: false,
    },
    timestamp: { type: 'string', format: 'date-time' },
    query: text(512),
    goal: text(1024),
    result: { type: 'object' },
    feedback: { type: 'object', properties: { rating: { enum: ['bad', 'ok', 'good'] }, comment: text(512) }, additionalProperties: false },
    rating: { enum: [1, -1] },
    responseId: text(128),
    link: { type: 'object', properties: { target: { type: 'object' }, position: text(32) }, additionalProperties: false },
    operation: { type: 'object' },
    placement: text(32),
    ad: { type: 'object' },
    llmsVariant: { enum: ['standard', 'full'] },
    markdownSource: text(32),
  },
  additionalProperties: false,
} as const;

export const trackEvents = {
  type: 'object',
  required: ['events'],
  properties: { events: { type: 'array', maxItems: 500, items: event } },
  additionalProperties: false,
} as const;

const column = {
  type: 'object',
  required: ['column'],
  properties: { column: text(64), interval: { enum: ['hour', 'day', 'week', 'month'] }, claim: text(128), precision: { type: 'integer', minimum: 0, maximum: 15 } },
  additionalProperties: false,
} as const;

/** `SiteInsightsQueryEventsAggregation`. */
export const aggregate = {
  type: 'object',
  required: ['range'],
  properties: {
    select: { type: 'array', maxItems: 20, items: column },
    where: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        required: ['column', 'values'],
        properties: { column: text(64), claim: text(128), values: { type: 'array', maxItems: 500 }, operator: text(32) },
        additionalProperties: false,
      },
    },
    groupBy: { type: 'array', maxItems: 10, items: column },
    order: { type: 'object', required: ['by', 'direction'], properties: { by: column, direction: { enum: ['asc', 'desc'] } }, additionalProperties: false },
    range: {
      anyOf: [
        { enum: ['lastYear', 'last3Months', 'last30Days', 'last7Days', 'last24Hours'] },
        { type: 'object', required: ['from', 'to'], properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' } }, additionalProperties: false },
      ],
    },
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 1000 },
  },
  additionalProperties: false,
} as const;

/** submitSiteAgentFeedback's body. */
export const agentFeedback = {
  type: 'object',
  required: ['feedback', 'url', 'spaceId', 'pageId'],
  properties: {
    feedback: { type: 'string', minLength: 1, maxLength: 2048 },
    goal: text(1024),
    url: { type: 'string', format: 'uri', maxLength: 2048 },
    spaceId: { type: 'string', minLength: 1, maxLength: 64 },
    pageId: { type: 'string', minLength: 1, maxLength: 64 },
    source: { enum: ['mcp', 'assistant'] },
  },
  additionalProperties: false,
} as const;

const short = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const count = { type: 'integer', minimum: 0 } as const;

/** submitAgentFeedbackToSite's `AgentFeedbackInput`: who reported it (never the user), what about, and what went wrong. */
export const agentReport = {
  type: 'object',
  required: ['subject', 'feedback'],
  properties: {
    reportedBy: {
      type: 'object',
      properties: { model: short(100), userAgent: short(512), correlationId: { type: 'string', minLength: 1, maxLength: 100 }, onDemand: { type: 'boolean' } },
      additionalProperties: false,
    },
    // `AgentFeedbackSubject`: what the feedback is about, its shape chosen by `kind`.
    subject: {
      type: 'object',
      required: ['kind'],
      properties: { kind: { type: 'string' } },
      discriminator: { propertyName: 'kind' },
      oneOf: [
        { type: 'object', required: ['kind', 'toolName'], properties: { kind: { const: 'mcp-tool' }, toolName: short(200), target: short(200) }, additionalProperties: false },
        {
          type: 'object',
          required: ['kind', 'command'],
          properties: { kind: { const: 'cli-command' }, command: short(200), flags: { type: 'array', maxItems: 50, items: short(100) } },
          additionalProperties: false,
        },
        {
          type: 'object',
          required: ['kind', 'method', 'path'],
          properties: { kind: { const: 'api-endpoint' }, method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] }, path: short(500) },
          additionalProperties: false,
        },
        { type: 'object', required: ['kind', 'url'], properties: { kind: { const: 'documentation' }, url: { type: 'string', format: 'uri', maxLength: 2048 } }, additionalProperties: false },
        { type: 'object', required: ['kind'], properties: { kind: { const: 'generic' } }, additionalProperties: false },
      ],
    },
    feedback: {
      type: 'object',
      required: ['category', 'summary'],
      properties: {
        category: { enum: ['usability', 'reliability', 'documentation', 'efficiency', 'interoperability', 'could-not-accomplish'] },
        severity: { enum: ['low', 'medium', 'high'] },
        goal: short(1024),
        summary: { type: 'string', minLength: 1, maxLength: 256 },
        detail: short(4096),
        workaround: short(2048),
        metrics: {
          type: 'object',
          properties: { callCount: count, successCount: count, retryCount: count },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

export type AgentReportBody = FromSchema<typeof agentReport>;
export type TrackEventsBody = FromSchema<typeof trackEvents>;
export type AggregateBody = FromSchema<typeof aggregate>;
export type AgentFeedbackBody = FromSchema<typeof agentFeedback>;
