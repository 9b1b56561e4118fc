import type { FromSchema } from 'json-schema-to-ts';
import { pagination } from './common.js';
import { defaultLevel, moveSpace, transfer } from './spaces.js';

export type { MoveBody, TransferBody } from './spaces.js';

export const listCollections = {
  type: 'object',
  properties: { ...pagination, nested: { type: 'boolean', default: true } },
  additionalProperties: false,
} as const;

export const createCollection = {
  type: 'object',
  properties: { title: { type: 'string', maxLength: 50 }, parent: { type: 'string', minLength: 1, maxLength: 64 } },
  additionalProperties: false,
} as const;

export const updateCollection = {
  type: 'object',
  // No field is required, but upstream requires the body (see api/validate.ts).
  required: [],
  properties: { title: { type: 'string', maxLength: 50 }, description: { type: 'string', maxLength: 100 }, defaultLevel },
  additionalProperties: false,
} as const;

export const listCollectionSpaces = { type: 'object', properties: { ...pagination }, additionalProperties: false } as const;
export const moveCollection = moveSpace;
export const transferCollection = transfer;

export type ListCollectionsQuery = FromSchema<typeof listCollections>;
export type CreateCollectionBody = FromSchema<typeof createCollection>;
export type UpdateCollectionBody = FromSchema<typeof updateCollection>;
export type ListCollectionSpacesQuery = FromSchema<typeof listCollectionSpaces>;
