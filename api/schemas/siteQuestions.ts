import type { FromSchema } from 'json-schema-to-ts';

// The site-questions operations' query strings (0.202.0). A filter given once arrives as a
// string and repeated as an array (up to 100 values, as comments' `authors`): both are accepted.
// Free-text values are as long as the request line allows (Node's 16 KB of headers).
const oneOrMore = <S extends object>(item: S) => ({ anyOf: [item, { type: 'array', maxItems: 100, items: item }] }) as const;

const timestamp = { type: 'string', format: 'date-time' } as const;
const relevance = oneOrMore({ enum: ['relevant', 'spam', 'off-topic', 'unclear'] } as const);
const channelType = oneOrMore({ enum: ['site', 'embed', 'api', 'builtin:slack', 'builtin:discord', 'builtin:github', 'builtin:linear'] } as const);
const answered = oneOrMore({ enum: ['no', 'partially', 'yes'] } as const);
const topic = oneOrMore({ type: 'string', minLength: 1 } as const);
const questionType = { enum: ['exploring', 'how-to', 'troubleshooting', 'reference', 'unknown'] } as const;
const page = { type: 'string', minLength: 1, maxLength: 2048 } as const;
const limit = { type: 'integer', minimum: 0, maximum: 1000, default: 20 } as const;

export const listQuestions = {
  type: 'object',
  properties: {
    from: timestamp,
    to: timestamp,
    type: questionType,
    relevance,
    channelType,
    answered,
    topic,
    order: { enum: ['asc', 'desc'], default: 'desc' },
    sort: { enum: ['askedAt', 'stats.answered', 'stats.feedback', 'stats.answers'], default: 'askedAt' },
    page,
    limit,
  },
  additionalProperties: false,
} as const;

export const questionStats = {
  type: 'object',
  properties: { from: timestamp, to: timestamp, topic, relevance, channelType, answered },
  additionalProperties: false,
} as const;

export const getQuestion = {
  type: 'object',
  properties: { from: timestamp, to: timestamp, relevance, channelType, answered },
  additionalProperties: false,
} as const;

export const questionSources = {
  type: 'object',
  properties: { from: timestamp, to: timestamp, relevance, channelType, answered, page, limit },
  additionalProperties: false,
} as const;

export const listAnswers = {
  type: 'object',
  properties: {
    question: { type: 'string', minLength: 1 },
    from: timestamp,
    to: timestamp,
    language: { type: 'string', minLength: 1 },
    answered,
    helpfulness: oneOrMore({ enum: ['low', 'medium', 'high'] } as const),
    relevance,
    channelType,
    'question.type': oneOrMore(questionType),
    topic,
    thread: { type: 'string', minLength: 1 },
    page,
    limit,
  },
  additionalProperties: false,
} as const;

export const pageOnly = { type: 'object', properties: { page, limit }, additionalProperties: false } as const;

export type ListQuestionsQuery = FromSchema<typeof listQuestions>;
export type QuestionStatsQuery = FromSchema<typeof questionStats>;
export type GetQuestionQuery = FromSchema<typeof getQuestion>;
export type QuestionSourcesQuery = FromSchema<typeof questionSources>;
export type ListAnswersQuery = FromSchema<typeof listAnswers>;
export type PageOnlyQuery = FromSchema<typeof pageOnly>;
