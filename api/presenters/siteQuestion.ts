import { answerResponseDocument, type AnswerSourceRecord, type QuestionStats, type SiteAnswerRecord, type SiteQuestionView } from '../../domain/answers/index.js';
import { publishedSiteUrl } from './site.js';
import type { Urls } from '../urls.js';

/** Where a site's questions are read in the app: its page's questions section. */
const questionsApp = (urls: Urls, site: { id: string; organizationId: string }) => urls.app(`/o/${site.organizationId}/sites/${site.id}#questions`);

/** `SiteQuestion`. */
export function presentSiteQuestion(question: SiteQuestionView, site: { id: string; organizationId: string }, urls: Urls) {
  return {
    object: 'site-question' as const,
    id: question.id,
    question: question.question,
    type: question.type,
    createdAt: question.createdAt,
    askedAt: question.askedAt,
    stats: presentQuestionStats(question.stats),
    urls: { location: questionsApp(urls, site) },
  };
}

/** `SiteQuestionStats`. */
export function presentQuestionStats(stats: QuestionStats) {
  return { ...stats, weeklyPulse: [...stats.weeklyPulse] };
}

/** `SiteQuestionAnswer`: how the documentation answered one asking of a question. */
export function presentSiteAnswer(answer: SiteAnswerRecord, site: { id: string; organizationId: string }, urls: Urls) {
  return {
    object: 'site-question-answer' as const,
    id: answer.id,
    question: { id: answer.question.id, type: answer.question.type },
    topics: [] as string[],
    input: { text: answer.question.question, raw: answer.input },
    ...(answer.rating !== null ? { feedback: { rating: answer.rating } } : {}),
    responseId: answer.id,
    language: answer.language,
    answered: answer.answered,
    helpfulness: answer.helpfulness,
    relevance: answer.relevance,
    channel: { type: answer.channel },
    createdAt: answer.createdAt,
    updatedAt: answer.updatedAt,
    urls: { location: questionsApp(urls, site) },
  };
}

/** `SiteQuestionAnswerWithResponse`: the answer with its text as an assistant's message. */
export async function presentSiteAnswerWithResponse(answer: SiteAnswerRecord, site: { id: string; organizationId: string }, urls: Urls) {
  return {
    ...presentSiteAnswer(answer, site, urls),
    response: {
      id: answer.id,
      role: 'assistant' as const,
      steps: [{ content: await answerResponseDocument(answer) }],
      createdAt: answer.createdAt,
    },
  };
}

/** `SiteQuestionAnswerSourcePage`: a page an answer drew on, linked where the site publishes it. */
export function presentAnswerSource(source: AnswerSourceRecord, site: { id: string }, paths: Map<string, string>, urls: Urls) {
  const spacePath = paths.get(source.spaceId);
  return {
    object: 'site-question-answer-source' as const,
    id: `${source.spaceId}:${source.pageId}`,
    type: 'page' as const,
    title: source.title,
    weight: source.weight,
    space: source.spaceId,
    revision: source.revision,
    page: source.pageId,
    // A space no longer on the site: its page in the app.
    urls: {
      location: spacePath === undefined ? urls.pageApp(source.spaceId, source.pageId) : `${publishedSiteUrl(urls, site.id)}${spacePath}${source.path.split('/').map(encodeURIComponent).join('/')}`,
    },
  };
}
