import {
  listSiteAnswersMatching,
  listSiteQuestions,
  readSiteAnswer,
  readSiteQuestion,
  siteAnswerSources,
  siteQuestionSources,
  siteQuestionStats,
  type AnswerQuery,
  type QuestionSort,
} from '../../domain/answers/index.js';
import { siteSpacePaths } from '../../domain/publishing/index.js';
import { siteOf } from '../../domain/sites/index.js';
import { contentDeps, organizationOf, type AppContext } from '../context.js';
import { siteActions } from '../policies/actions.js';
import { inSite } from '../policies/index.js';
import { presentList } from '../presenters/list.js';
import { presentAnswerSource, presentQuestionStats, presentSiteAnswer, presentSiteAnswerWithResponse, presentSiteQuestion } from '../presenters/siteQuestion.js';
import * as schemas from '../schemas/siteQuestions.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

// What readers asked a site and how the documentation answered (docs/ask.md): for the site's
// members, never for its readers.
export const siteQuestionRoutes = new RouteTable();
const routes = siteQuestionRoutes;
const site = '/orgs/:organizationId/sites/:siteId';
const read = inSite(siteActions.view);

routes.get(`${site}/questions`, 'listSiteQuestions', read, handle({ query: schemas.listQuestions }, listQuestions));
routes.get(`${site}/question-stats`, 'getSiteQuestionStats', read, handle({ query: schemas.questionStats }, stats));
routes.get(`${site}/questions/:siteQuestionId`, 'getSiteQuestionById', read, handle({ query: schemas.getQuestion }, getQuestion));
routes.get(`${site}/questions/:siteQuestionId/sources`, 'listSiteQuestionSources', read, handle({ query: schemas.questionSources }, questionSources));
routes.get(`${site}/answers`, 'listSiteQuestionAnswers', read, handle({ query: schemas.listAnswers }, listAnswers));
routes.get(`${site}/answers/:siteQuestionAnswerId`, 'getSiteQuestionAnswerById', read, handle({}, getAnswer));
routes.get(`${site}/answers/:siteQuestionAnswerId/sources`, 'listSiteQuestionAnswerSources', read, handle({ query: schemas.pageOnly }, answerSources));
routes.get(`${site}/answers/:siteQuestionAnswerId/thread`, 'getSiteQuestionAnswerThreadById', read, handle({}, thread));

const siteOfPath = (ctx: AppContext, siteId: string) => siteOf(ctx.db, organizationOf(ctx).organization.id, siteId);
const all = <T>(value: T | T[] | undefined): T[] | undefined => (value === undefined ? undefined : ([value].flat() as T[]));
/** Times compared as stored (UTC, milliseconds). */
const instant = (value: string | undefined) => (value === undefined ? undefined : new Date(value).toISOString());

/** The filters every operation shares, from their query strings. */
function answerQueryOf(query: { from?: string; to?: string; relevance?: unknown; channelType?: unknown; answered?: unknown; topic?: unknown }): AnswerQuery {
  return {
    from: instant(query.from),
    to: instant(query.to),
    relevance: all(query.relevance as AnswerQuery['relevance']),
    channelType: all(query.channelType as string[]),
    answered: all(query.answered as AnswerQuery['answered']),
    topic: all(query.topic as string[]),
  };
}

async function listQuestions(ctx: AppContext, { params, query }: { params: { siteId: string }; query: schemas.ListQuestionsQuery }) {
  const found = await siteOfPath(ctx, params.siteId);
  const filter = { ...answerQueryOf(query), type: query.type ? [query.type] : undefined, sort: query.sort as QuestionSort };
  const page = await listSiteQuestions(ctx.db, found.id, filter, { page: query.page, limit: query.limit ?? 20, order: query.order });
  ctx.body = presentList(page, (question) => presentSiteQuestion(question, found, ctx.urls));
}

async function stats(ctx: AppContext, { params, query }: { params: { siteId: string }; query: schemas.QuestionStatsQuery }) {
  const found = await siteOfPath(ctx, params.siteId);
  ctx.body = presentQuestionStats(await siteQuestionStats(ctx.db, found.id, answerQueryOf(query)));
}

async function getQuestion(ctx: AppContext, { params, query }: { params: { siteId: string; siteQuestionId: string }; query: schemas.GetQuestionQuery }) {
  const found = await siteOfPath(ctx, params.siteId);
  ctx.body = presentSiteQuestion(await readSiteQuestion(ctx.db, found.id, params.siteQuestionId, answerQueryOf(query)), found, ctx.urls);
}

async function questionSources(ctx: AppContext, { params, query }: { params: { siteId: string; siteQuestionId: string }; query: schemas.QuestionSourcesQuery }) {
  const found = await siteOfPath(ctx, params.siteId);
  const page = await siteQuestionSources(ctx.db, found.id, params.siteQuestionId, answerQueryOf(query), { page: query.page, limit: query.limit ?? 20 });
  const paths = await siteSpacePaths(contentDeps(ctx), found.id);
  ctx.body = presentList(page, (source) => presentAnswerSource(source, found, paths, ctx.urls));
}

async function listAnswers(ctx: AppContext, { params, query }: { params: { siteId: string }; query: schemas.ListAnswersQuery }) {
  const found = await siteOfPath(ctx, params.siteId);
  // Each answer is its own thread (Quire keeps no conversation): a thread filter is that answer.
  const filter: AnswerQuery = {
    ...answerQueryOf(query),
    helpfulness: all(query.helpfulness as AnswerQuery['helpfulness']),
    type: all(query['question.type'] as AnswerQuery['type']),
    language: query.language,
    question: query.question,
  };
  const page = await listSiteAnswersMatching(ctx.db, found.id, filter, { page: query.page, limit: query.limit ?? 20 });
  const answers = query.thread ? { ...page, items: page.items.filter((answer) => answer.id === query.thread) } : page;
  ctx.body = presentList(answers, (answer) => presentSiteAnswer(answer, found, ctx.urls));
}

async function getAnswer(ctx: AppContext, { params }: { params: { siteId: string; siteQuestionAnswerId: string } }) {
  const found = await siteOfPath(ctx, params.siteId);
  ctx.body = await presentSiteAnswerWithResponse(await readSiteAnswer(ctx.db, found.id, params.siteQuestionAnswerId), found, ctx.urls);
}

async function answerSources(ctx: AppContext, { params, query }: { params: { siteId: string; siteQuestionAnswerId: string }; query: schemas.PageOnlyQuery }) {
  const found = await siteOfPath(ctx, params.siteId);
  const page = await siteAnswerSources(ctx.db, found.id, params.siteQuestionAnswerId, { page: query.page, limit: query.limit ?? 20 });
  const paths = await siteSpacePaths(contentDeps(ctx), found.id);
  ctx.body = presentList(page, (source) => presentAnswerSource(source, found, paths, ctx.urls));
}

/** The conversation an answer belongs to: Quire answers each question on its own, so the answer alone. */
async function thread(ctx: AppContext, { params }: { params: { siteId: string; siteQuestionAnswerId: string } }) {
  const found = await siteOfPath(ctx, params.siteId);
  ctx.body = [await presentSiteAnswerWithResponse(await readSiteAnswer(ctx.db, found.id, params.siteQuestionAnswerId), found, ctx.urls)];
}
