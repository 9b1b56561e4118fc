import type { FromSchema } from 'json-schema-to-ts';
import { listQuery, pagination } from './common.js';
import { id } from './sites.js';

const icon = { type: 'string', maxLength: 50 } as const;
const nullable = <S extends object>(schema: S) => ({ anyOf: [schema, { type: 'null' }] }) as const;
const condition = nullable({ type: 'string', maxLength: 1024 } as const);
const path = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9][A-Za-z0-9._~-]*$' } as const;
const sectionTitle = { type: 'string', minLength: 2, maxLength: 128 } as const;
const groupTitle = { type: 'string', minLength: 1, maxLength: 100 } as const;

export const listWithShareKey = { type: 'object', properties: { ...pagination, shareKey: { type: 'string', minLength: 1, maxLength: 256 } }, additionalProperties: false } as const;
export const listSiteSpaces = {
  type: 'object',
  properties: { ...pagination, shareKey: { type: 'string', minLength: 1, maxLength: 256 }, default: { type: 'boolean' } },
  additionalProperties: false,
} as const;

export const addSection = {
  type: 'object',
  properties: { spaceId: id, title: nullable(sectionTitle), icon: nullable(icon) },
  required: ['spaceId'],
  additionalProperties: false,
} as const;

export const updateSection = {
  type: 'object',
  // No field is required, but upstream requires the body (see api/validate.ts).
  required: [],
  properties: {
    title: sectionTitle,
    path,
    defaultSiteSpace: id,
    condition,
    icon: nullable(icon),
    description: nullable({ type: 'string', maxLength: 256 } as const),
  },
  additionalProperties: false,
} as const;

const pointer = <K extends string, T extends readonly string[]>(key: K, types: T) =>
  ({ type: 'object', properties: { type: { type: 'string', enum: types }, [key]: id } as const, required: ['type', key], additionalProperties: false }) as const;
const movePosition = <P extends object>(ref: P) =>
  ({ type: 'object', properties: { position: { type: 'object', properties: { before: ref, after: ref }, additionalProperties: false } }, additionalProperties: false }) as const;

export const moveSection = movePosition(pointer('siteSection', ['site-section'] as const));
export const moveSiteSpace = movePosition(pointer('siteSpace', ['site-space'] as const));
export const moveGroup = movePosition(pointer('id', ['site-section', 'site-section-group'] as const));

const structurePointer = {
  type: 'object',
  required: ['type', 'id'],
  properties: { type: { enum: ['site-space', 'site-section', 'site-section-group', 'site-external-link'] }, id },
  additionalProperties: false,
} as const;

/** sortSiteStructure: one item of any kind, placed before or after a sibling of its kind's level. */
export const sortStructure = {
  type: 'object',
  required: ['item', 'position'],
  properties: { item: structurePointer, position: { type: 'object', properties: { before: structurePointer, after: structurePointer }, additionalProperties: false } },
  additionalProperties: false,
} as const;

export const duplicateSiteSpace = { type: 'object', required: [], properties: { draft: { type: 'boolean' } }, additionalProperties: false } as const;

export const addSiteSpace = { type: 'object', properties: { spaceId: id, sectionId: id }, required: ['spaceId'], additionalProperties: false } as const;
export const updateSiteSpace = {
  type: 'object',
  // No field is required, but upstream requires the body (see api/validate.ts).
  required: [],
  properties: { path, condition, spaceId: id, hidden: { type: 'boolean' } },
  additionalProperties: false,
} as const;

export const addGroup = {
  type: 'object',
  properties: { title: groupTitle, icon: nullable(icon), sections: { type: 'array', items: id, maxItems: 200 }, parent: id },
  required: ['title'],
  additionalProperties: false,
} as const;
export const updateGroup = { type: 'object', required: [], properties: { title: groupTitle, icon: nullable(icon) }, additionalProperties: false } as const;
export const listGroups = listQuery;
export const addSectionToGroup = { type: 'object', properties: { sectionId: id }, required: ['sectionId'], additionalProperties: false } as const;

export type ListWithShareKeyQuery = FromSchema<typeof listWithShareKey>;
export type ListSiteSpacesQuery = FromSchema<typeof listSiteSpaces>;
export type AddSectionBody = FromSchema<typeof addSection>;
export type UpdateSectionBody = FromSchema<typeof updateSection>;
export type MoveSectionBody = FromSchema<typeof moveSection>;
export type MoveSiteSpaceBody = FromSchema<typeof moveSiteSpace>;
export type MoveGroupBody = FromSchema<typeof moveGroup>;
export type AddSiteSpaceBody = FromSchema<typeof addSiteSpace>;
export type UpdateSiteSpaceBody = FromSchema<typeof updateSiteSpace>;
export type AddGroupBody = FromSchema<typeof addGroup>;
export type UpdateGroupBody = FromSchema<typeof updateGroup>;
export type ListGroupsQuery = FromSchema<typeof listGroups>;
export type AddSectionToGroupBody = FromSchema<typeof addSectionToGroup>;

export type SortStructureBody = FromSchema<typeof sortStructure>;
export type DuplicateSiteSpaceBody = FromSchema<typeof duplicateSiteSpace>;
