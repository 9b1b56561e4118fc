import type { FromSchema } from 'json-schema-to-ts';
import { roleOrGuest, uri } from './common.js';

const fields = {
  label: { type: 'string', minLength: 1, maxLength: 30 },
  entityID: { type: 'string', maxLength: 1024 },
  certificate: { type: 'string', maxLength: 10000 },
  ssoURL: uri,
  defaultTeam: { type: 'string', minLength: 1, maxLength: 64 },
  defaultRole: roleOrGuest,
} as const;

export const createSamlProvider = { type: 'object', required: ['label'], properties: fields, additionalProperties: false } as const;
// `required: []`: no field is required, but the body is, as upstream says (see api/validate.ts).
export const updateSamlProvider = { type: 'object', required: [], properties: fields, additionalProperties: false } as const;

export type CreateSamlProviderBody = FromSchema<typeof createSamlProvider>;
export type UpdateSamlProviderBody = FromSchema<typeof updateSamlProvider>;
