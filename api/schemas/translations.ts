import type { FromSchema } from 'json-schema-to-ts';
import { listQuery } from './common.js';
import { document } from './changeRequests.js';

/** Upstream's TranslationLanguage. */
export const translationLanguages = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-br',
  'ru',
  'ja',
  'zh',
  'yue',
  'ko',
  'ar',
  'hi',
  'nl',
  'pl',
  'tr',
  'sv',
  'no',
  'da',
  'fi',
  'el',
  'cs',
  'hu',
  'ro',
  'th',
  'vi',
  'id',
  'ms',
  'he',
  'uk',
  'sk',
  'bg',
  'hr',
  'lt',
  'lv',
  'et',
  'sl',
] as const;
const language = { type: 'string', enum: translationLanguages } as const;

export const listTranslations = listQuery;

export const createTranslation = {
  type: 'object',
  properties: {
    language,
    source: { type: 'object', properties: { space: { type: 'string', minLength: 1, maxLength: 64 }, language }, required: ['space', 'language'], additionalProperties: false },
    instructions: document,
  },
  required: ['language', 'source'],
  additionalProperties: false,
} as const;

export const updateTranslation = { type: 'object', properties: { instructions: document }, required: ['instructions'], additionalProperties: false } as const;

export type ListTranslationsQuery = FromSchema<typeof listTranslations>;
export type CreateTranslationBody = FromSchema<typeof createTranslation>;
export type UpdateTranslationBody = FromSchema<typeof updateTranslation>;
