import type { Database, Queryable } from '../../storage/db.js';
import { paginateArray, type Page, type PageRequest } from '../../storage/pagination.js';
import {
  findSiteAnswer,
  findSiteQuestion,
  insertSiteAnswer,
  listSiteAnswers,
  rateSiteAnswer,
  type AnswerChannel,
  type AnswerHelpfulness,
  type AnswerRelevance,
  type AnswerResolution,
  type AnswerSourceRecord,
  type QuestionType,
  type SiteAnswerRecord,
  type SiteQuestionRecord,
} from '../../storage/siteQuestions.js';
import { missing } from '../common/errors.js';
import { convertMarkdownToDocument } from '../../engine/index.js';
import type { Answer } from './ask.js';

export type { AnswerChannel, AnswerSourceRecord, QuestionType, SiteAnswerRecord, SiteQuestionRecord };

// What readers ask a site, kept for its editors (docs/ask.md, "Questions readers asked"): each
// answer given on the site's Ask page or through streamAskInSite, judged by rules anyone can
// read below, never by a model.

/**
 * What kind of question it is, from its words: something broken (`troubleshooting`), a task
 * (`how-to`), a broad look around (`exploring`), a fact (`reference`), else `unknown`.
 */
export function questionTypeOf(question: string): QuestionType {
  const text = question.toLowerCase();
  if (/\b(error|errors|fail|fails|failed|failing|failure|broken|crash(es|ed)?|not work(ing)?|doesn'?t work|does not work|can'?t|cannot|unable|problem|exception|denied|timed? ?out)\b/.test(text)) {
    return 'troubleshooting';
  }
  if (/^how\b|\bhow (do|can|to|should|would)\b|\b(steps? to|set ?up|configure|install|enable|create|add)\b/.test(text)) return 'how-to';
  if (/\b(overview|introduction|tell me about|what can|why|compare|comparison|difference|versus|vs\.?|should i|best)\b/.test(text)) return 'exploring';
  if (/^(what|which|where|when|who|is|are|does|do|can)\b|\b(default|limit|format|options?|parameters?|values?|versions?|supported)\b/.test(text)) return 'reference';
  return 'unknown';
}

/** A question's wording, as two askings of it are one question: lowercased, spaces folded, the final mark dropped. */
export const wordingOf = (question: string) =>
  question
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[?.!\s]+$/, '');

/**
 * How an answer did: `answered` yes when a section holds every content word of the question,
 * partially when some, no when nothing was found; `helpfulness` from the same share and how many
 * pages back it; `relevance` unclear for a question with no content word, off-topic when no
 * word of it is anywhere in the site, relevant otherwise.
 */
export function judgeAnswer(answer: Pick<Answer, 'coverage' | 'words' | 'sources'>): { answered: AnswerResolution; helpfulness: AnswerHelpfulness; relevance: AnswerRelevance } {
  const found = answer.sources.length > 0;
  const answered = !found ? 'no' : answer.coverage >= 1 ? 'yes' : 'partially';
  const helpfulness = answered === 'yes' && answer.sources.length > 1 ? 'high' : found && answer.coverage >= 0.5 ? 'medium' : 'low';
  const relevance = answer.words === 0 ? 'unclear' : found ? 'relevant' : 'off-topic';
  return { answered, helpfulness, relevance };
}

/** Keeps an answer given to a site's reader, with its question; nothing of the reader. */
export function recordSiteAnswer(db: Database, input: { siteId: string; question: string; answer: Answer; channel: AnswerChannel; language?: string }): Promise<SiteAnswerRecord> {
  const { answer } = input;
  // Each page's weight: its share of the sections the answer drew on.
  const sectionCount = answer.sources.reduce((sum, source) => sum + source.sections.length, 0) || 1;
  const sources: AnswerSourceRecord[] = answer.sources.map((source) => ({
    spaceId: source.spaceId,
    pageId: source.pageId,
    revision: source.revision,
    title: source.title,
    path: source.path,
    weight: Math.round((source.sections.length / sectionCount) * 1000) / 1000,
  }));
  return db.transaction((tx) =>
    insertSiteAnswer(tx, {
      siteId: input.siteId,
      question: { wording: wordingOf(input.question), text: input.question.trim(), type: questionTypeOf(input.question) },
      input: input.question,
      channel: input.channel,
      ...judgeAnswer(answer),
      language: input.language ?? 'en',
      response: answer.markdown,
      sources,
    }),
  );
}

/** A reader's rating of an answer given on the site (ask_rate_response): false when the site gave no such answer. */
export function rateAnswer(db: Queryable, siteId: string, answerId: string, rating: 1 | -1): Promise<boolean> {
  return rateSiteAnswer(db, siteId, answerId, rating);
}

export interface AnswerQuery {
  from?: string;
  to?: string;
  relevance?: AnswerRelevance[];
  channelType?: string[];
  answered?: AnswerResolution[];
  helpfulness?: AnswerHelpfulness[];
  /** Topics: Quire finds none, so asking for any gives nothing. */
  topic?: string[];
  type?: QuestionType[];
  language?: string;
  question?: string;
}

const within = <T>(allowed: T[] | undefined, value: T) => allowed === undefined || allowed.length === 0 || allowed.includes(value);

/** The site's answers that pass the filters, newest first. */
async function answersMatching(db: Queryable, siteId: string, query: AnswerQuery): Promise<SiteAnswerRecord[]> {
  const answers = await listSiteAnswers(db, siteId, { from: query.from, to: query.to, questionId: query.question });
  if (query.topic?.length) return [];
  return answers.filter(
    (answer) =>
      within(query.relevance, answer.relevance) &&
      within(query.channelType, answer.channel) &&
      within(query.answered, answer.answered) &&
      within(query.helpfulness, answer.helpfulness) &&
      within(query.type, answer.question.type) &&
      (query.language === undefined || answer.language === query.language),
  );
}

export interface QuestionStats {
  total: number;
  answers: number;
  feedback: { positive: number; negative: number; unrated: number };
  answered: Record<AnswerResolution, number>;
  relevance: Record<AnswerRelevance, number>;
  types: Record<QuestionType, number>;
  channelTypes: Record<string, number>;
  channels: Record<string, number>;
  /** Answers in each of the 13 weeks up to `to` (or now), the oldest first. */
  weeklyPulse: number[];
}

const week = 7 * 24 * 3600 * 1000;

/** The figures of a set of answers: `total` counts their distinct questions. */
function statsOf(answers: SiteAnswerRecord[], until: number): QuestionStats {
  const stats: QuestionStats = {
    total: new Set(answers.map((answer) => answer.question.id)).size,
    answers: answers.length,
    feedback: { positive: 0, negative: 0, unrated: 0 },
    answered: { yes: 0, partially: 0, no: 0 },
    relevance: { relevant: 0, spam: 0, 'off-topic': 0, unclear: 0 },
    types: { exploring: 0, 'how-to': 0, troubleshooting: 0, reference: 0, unknown: 0 },
    channelTypes: {},
    channels: {},
    weeklyPulse: new Array<number>(13).fill(0),
  };
  for (const answer of answers) {
    stats.feedback[answer.rating === 1 ? 'positive' : answer.rating === -1 ? 'negative' : 'unrated'] += 1;
    stats.answered[answer.answered] += 1;
    stats.relevance[answer.relevance] += 1;
    stats.types[answer.question.type] += 1;
    stats.channelTypes[answer.channel] = (stats.channelTypes[answer.channel] ?? 0) + 1;
    stats.channels[answer.channel] = (stats.channels[answer.channel] ?? 0) + 1;
    const weeksAgo = Math.floor((until - Date.parse(answer.createdAt)) / week);
    if (weeksAgo >= 0 && weeksAgo < 13) stats.weeklyPulse[12 - weeksAgo]! += 1;
  }
  return stats;
}

const untilOf = (query: AnswerQuery) => (query.to ? Date.parse(query.to) : Date.now());

/** The figures of the site's questions that pass the filters. */
export async function siteQuestionStats(db: Queryable, siteId: string, query: AnswerQuery): Promise<QuestionStats> {
  return statsOf(await answersMatching(db, siteId, query), untilOf(query));
}

export interface SiteQuestionView extends SiteQuestionRecord {
  askedAt: string;
  stats: QuestionStats;
}

export type QuestionSort = 'askedAt' | 'stats.answered' | 'stats.feedback' | 'stats.answers';

/** The site's questions asked in the range, each with the figures of its answers that pass the filters. */
export async function listSiteQuestions(db: Queryable, siteId: string, query: AnswerQuery & { sort?: QuestionSort }, page: PageRequest): Promise<Page<SiteQuestionView>> {
  const byQuestion = new Map<string, SiteAnswerRecord[]>();
  for (const answer of await answersMatching(db, siteId, query)) byQuestion.set(answer.question.id, [...(byQuestion.get(answer.question.id) ?? []), answer]);
  const until = untilOf(query);
  const questions = [...byQuestion.values()].map((answers) => ({ ...answers[0]!.question, askedAt: answers[0]!.createdAt, stats: statsOf(answers, until) }));
  const sortValue = (question: SiteQuestionView): string | number => {
    switch (query.sort) {
      case 'stats.answered':
        return question.stats.answered.yes;
      case 'stats.feedback':
        return question.stats.feedback.positive - question.stats.feedback.negative;
      case 'stats.answers':
        return question.stats.answers;
      default:
        return question.askedAt;
    }
  };
  return paginateArray(questions, (question) => [sortValue(question), question.id], `site-questions:${siteId}:${JSON.stringify(query)}`, { ...page, order: page.order ?? 'desc' });
}

/** One of the site's questions, with the figures of its answers that pass the filters. */
export async function readSiteQuestion(db: Queryable, siteId: string, questionId: string, query: AnswerQuery): Promise<SiteQuestionView> {
  const question = await findSiteQuestion(db, siteId, questionId);
  if (!question) throw missing(`Question "${questionId}" was not asked on this site`);
  const answers = await answersMatching(db, siteId, { ...query, question: questionId });
  return { ...question, askedAt: answers[0]?.createdAt ?? question.createdAt, stats: statsOf(answers, untilOf(query)) };
}

/** The site's answers that pass the filters, newest first. */
export async function listSiteAnswersMatching(db: Queryable, siteId: string, query: AnswerQuery, page: PageRequest): Promise<Page<SiteAnswerRecord>> {
  const answers = await answersMatching(db, siteId, query);
  return paginateArray(answers, (answer) => [answer.createdAt, answer.id], `site-answers:${siteId}:${JSON.stringify(query)}`, { ...page, order: 'desc' });
}

export async function readSiteAnswer(db: Queryable, siteId: string, answerId: string): Promise<SiteAnswerRecord> {
  const answer = await findSiteAnswer(db, siteId, answerId);
  if (!answer) throw missing(`Answer "${answerId}" was not given on this site`);
  return answer;
}

/** The pages one answer drew on, the weightiest first. */
export async function siteAnswerSources(db: Queryable, siteId: string, answerId: string, page: PageRequest): Promise<Page<AnswerSourceRecord>> {
  const answer = await readSiteAnswer(db, siteId, answerId);
  return paginateArray(answer.sources, (source) => [source.weight, `${source.spaceId}:${source.pageId}`], `site-answer-sources:${siteId}:${answerId}`, { ...page, order: 'desc' });
}

/** The pages a question's answers drew on: each page's weight its mean share over those answers. */
export async function siteQuestionSources(db: Queryable, siteId: string, questionId: string, query: AnswerQuery, page: PageRequest): Promise<Page<AnswerSourceRecord>> {
  if (!(await findSiteQuestion(db, siteId, questionId))) throw missing(`Question "${questionId}" was not asked on this site`);
  const answers = await answersMatching(db, siteId, { ...query, question: questionId });
  const pages = new Map<string, AnswerSourceRecord>();
  for (const answer of answers) {
    for (const source of answer.sources) {
      const key = `${source.spaceId}:${source.pageId}`;
      const seen = pages.get(key);
      // The newest answer's revision and title, as answers come newest first.
      pages.set(key, seen ? { ...seen, weight: seen.weight + source.weight } : { ...source });
    }
  }
  const sources = [...pages.values()].map((source) => ({ ...source, weight: Math.round((source.weight / answers.length) * 1000) / 1000 }));
  return paginateArray(sources, (source) => [source.weight, `${source.spaceId}:${source.pageId}`], `site-question-sources:${siteId}:${questionId}:${JSON.stringify(query)}`, {
    ...page,
    order: 'desc',
  });
}

/** A kept answer's text as an upstream JSON Document. */
export const answerResponseDocument = (answer: Pick<SiteAnswerRecord, 'response'>) => convertMarkdownToDocument(answer.response, 'An answer');
