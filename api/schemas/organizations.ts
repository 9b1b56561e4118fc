import type { FromSchema } from 'json-schema-to-ts';
import { listQuery, roleOrGuest, uri } from './common.js';

export { listQuery };

const userIds = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 64 }, maxItems: 100 } as const;

/** Merge rules an organization can set (upstream MergeRulesStandaloneConfiguration). */
export const mergeRules = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { enum: ['none', 'rules'] },
    rules: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        required: ['rule'],
        properties: {
          rule: {
            enum: [
              'require_specific_reviewers',
              'require_one_of_specific_reviewers',
              'allow_bypass',
              'require_at_least_one_review',
              'require_all_reviews_approved',
              'require_agent_review',
              'require_up_to_date_change_request',
              'require_change_request_subject',
              'require_change_request_description',
              'custom',
            ],
          },
          users: userIds,
          expression: { type: 'string', maxLength: 1024 },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;

const domain = {
  type: 'string',
  minLength: 3,
  maxLength: 253,
  pattern: '^(?=.{3,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}$',
} as const;

/** createOrganization (0.202.0): `onboardingPreferences` is accepted and not kept (docs/decisions/organizations.md). */
export const createOrganization = {
  type: 'object',
  required: ['title'],
  properties: {
    title: { type: 'string', minLength: 2, maxLength: 255, pattern: '\\S.*\\S' },
    emailDomains: { type: 'array', items: domain, maxItems: 50, uniqueItems: true },
    onboardingPreferences: {
      type: 'object',
      required: ['source', 'audience', 'interests'],
      properties: {
        source: { enum: ['markdown-in-git', 'import', 'template', null] },
        audience: { enum: ['public', 'mixed', 'protected', 'internal', null] },
        interests: { type: 'array', maxItems: 3, uniqueItems: true, items: { enum: ['adaptive-content', 'api-docs', 'proactive-agent'] } },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

export const createOrganizationQuery = {
  type: 'object',
  properties: {
    withDefaultSite: { type: 'boolean', default: false },
    openapiUrl: { type: 'string', format: 'uri', maxLength: 2048, pattern: '^https?://' },
  },
  additionalProperties: false,
} as const;

export const updateOrganization = {
  type: 'object',
  // No field is required, but the body is, as upstream says (api/validate.ts reads `required` so).
  required: [],
  properties: {
    title: { type: 'string', minLength: 2, maxLength: 255 },
    emailDomains: { type: 'array', items: domain, maxItems: 50, uniqueItems: true },
    hostname: { type: ['string', 'null'], minLength: 3, maxLength: 32, pattern: '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$' },
    defaultRole: roleOrGuest,
    defaultContent: {
      type: ['object', 'null'],
      required: ['type', 'site'],
      properties: { type: { const: 'site' }, site: { type: 'string', minLength: 1, maxLength: 64 } },
      additionalProperties: false,
    },
    logo: { anyOf: [uri, { type: 'null' }] },
    sso: { type: 'boolean' },
    ai: { type: 'boolean' },
    inviteLinks: { type: 'boolean' },
    mergeRules,
  },
  additionalProperties: false,
} as const;

/** The patch `updateOrganization` applies: the domain declares it, the schema above admits it. */
export type { OrganizationPatch as UpdateOrganizationBody } from '../../domain/organizations/index.js';

/** A Document, checked for its outline here; its blocks are checked where documents are rendered. */
export const updateAgentInstructions = {
  type: 'object',
  required: ['instructions'],
  properties: {
    instructions: {
      type: 'object',
      required: ['object', 'nodes'],
      properties: {
        object: { const: 'document' },
        data: { type: 'object' },
        nodes: {
          type: 'array',
          maxItems: 10000,
          items: {
            type: 'object',
            required: ['object', 'type'],
            properties: { object: { const: 'block' }, type: { type: 'string', minLength: 1 }, nodes: { type: 'array' } },
          },
        },
      },
    },
  },
  additionalProperties: false,
} as const;

export const emailDomainParam = domain;

export type ListQuery = FromSchema<typeof listQuery>;
export type CreateOrganizationBody = FromSchema<typeof createOrganization>;
export type CreateOrganizationQuery = FromSchema<typeof createOrganizationQuery>;
export type UpdateOrganizationRequest = FromSchema<typeof updateOrganization>;
