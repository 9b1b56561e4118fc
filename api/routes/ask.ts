import { PassThrough } from 'node:stream';
import { answerDocument, answerQuestion, recommendedQuestions, recordSiteAnswer } from '../../domain/answers/index.js';
import { documentText } from '../../domain/documents/index.js';
import type { DocumentNode } from '../../engine/index.js';
import { organizationAccess } from '../../domain/organizations/index.js';
import type { SiteSearchScope } from '../../domain/publishing/index.js';
import { contentDeps, grantsOf, indexingDeps, organizationOf, siteReaderOf, type AppContext } from '../context.js';
import { siteSpaceIdsForReader } from '../../domain/publishing/index.js';
import { siteOf } from '../../domain/sites/index.js';
import { inOrganization, inSite } from '../policies/index.js';
import { siteActions } from '../policies/actions.js';
import { presentAnswer } from '../presenters/answer.js';
import * as schemas from '../schemas/ask.js';
import { handle } from '../validate.js';
import { badRequest, toHttpError } from '../errors.js';
import { errorFields, log } from '../../domain/common/log.js';
import { RouteTable } from './table.js';

// Answers for readers (docs/ask.md): a question answered from the search index's best sections,
// quoted, or written by a chat model from them (QUIRE_OPENAI_URL); the pages cited either way.
export const askRoutes = new RouteTable();
const routes = askRoutes;

const organization = '/orgs/:organizationId';
const site = `${organization}/sites/:siteId`;
routes.post(`${organization}/ask`, 'askInOrganization', inOrganization(null), handle({ query: schemas.askQuery, body: schemas.askBody }, ask));
routes.get(`${organization}/ask/stream`, 'streamAskInOrganization', inOrganization(null), handle({ query: schemas.streamAskQuery }, streamAsk));
routes.get(`${organization}/ask/questions`, 'getRecommendedQuestionsInOrganization', inOrganization(null), handle({}, questions));
routes.get(`${organization}/ask/questions/stream`, 'streamRecommendedQuestionsInOrganization', inOrganization(null), handle({}, streamQuestions));
routes.post(`${site}/ask`, 'streamAskInSite', inSite(siteActions.view, { siteToken: 'read by POST' }), handle({ query: schemas.formatQuery, body: schemas.siteAskBody }, streamAskInSite));
routes.post(`${site}/ai/response`, 'streamAIResponseInSite', inSite(siteActions.view, { siteToken: 'read by POST' }), handle({ body: schemas.siteAIResponseBody }, streamAIResponseInSite));
routes.get(`${site}/ask/questions`, 'streamRecommendedQuestionsInSite', inSite(siteActions.view, { siteToken: true }), handle({ query: schemas.siteQuestionsQuery }, streamSiteQuestions));

/** The spaces of the path's site the caller reads, within `scope`. */
async function siteSpacesOf(ctx: AppContext, siteId: string, scope: SiteSearchScope): Promise<string[]> {
  const site = await siteOf(ctx.db, organizationOf(ctx).organization.id, siteId);
  return siteSpaceIdsForReader(ctx.db, site, await siteReaderOf(ctx), scope);
}

/** The spaces of the organization the caller reads (guests: what is shared with them). */
async function readableSpaceIds(ctx: AppContext): Promise<string[]> {
  const { organization, role } = organizationOf(ctx);
  return [...(await organizationAccess(ctx.db, organization.id, role, await grantsOf(ctx))).spaces.keys()];
}

async function ask(ctx: AppContext, { query, body }: { query: schemas.AskQuery; body: schemas.AskBody }) {
  const answer = await answerQuestion(contentDeps(ctx), await readableSpaceIds(ctx), body.query, { organizationId: organizationOf(ctx).organization.id });
  ctx.body = { answer: await presentAnswer(answer, query.format ?? 'document') };
}

async function streamAsk(ctx: AppContext, { query }: { query: schemas.StreamAskQuery }) {
  const spaceIds = await readableSpaceIds(ctx);
  await sendEvents(ctx, async (send) => {
    const answer = await answerQuestion(contentDeps(ctx), spaceIds, query.query, { organizationId: organizationOf(ctx).organization.id });
    send({ type: 'answer', answer: await presentAnswer(answer, query.format ?? 'document') });
  });
}

async function questions(ctx: AppContext) {
  ctx.body = { questions: await recommendedQuestions(contentDeps(ctx), await readableSpaceIds(ctx)) };
}

async function streamQuestions(ctx: AppContext) {
  const found = await recommendedQuestions(contentDeps(ctx), await readableSpaceIds(ctx));
  await sendEvents(ctx, async (send) => {
    for (const question of found) send({ question });
  });
}

async function streamAskInSite(ctx: AppContext, { params, query, body }: { params: { siteId: string }; query: schemas.FormatQuery; body: schemas.SiteAskBody }) {
  const spaceIds = await siteSpacesOf(ctx, params.siteId, body.scope as SiteSearchScope);
  await sendEvents(ctx, async (send) => {
    const answer = await answerQuestion(indexingDeps(ctx), spaceIds, body.question, { organizationId: organizationOf(ctx).organization.id });
    // Kept for the site's editors (listSiteQuestions), the caller's identity not with it.
    await recordSiteAnswer(ctx.db, { siteId: params.siteId, question: body.question, answer, channel: 'api' });
    send({ type: 'answer', answer: await presentAnswer(answer, query.format ?? 'document') });
  });
}

/** The text of the conversation's last user message: what the assistant answers. */
function lastQuestion(input: schemas.SiteAIResponseBody['input']): string {
  const asked = [...input].reverse().find((message) => message.role === 'user');
  if (!asked) return '';
  const text = typeof asked.content === 'string' ? asked.content : documentText(asked.content.nodes as DocumentNode[]);
  return text.trim().slice(0, 512);
}

/**
 * The site's assistant (0.202.0's streamAIResponseInSite, what GitBook's renderer calls when a
 * site's `ai.mode` is `assistant`): the last user message answered as streamAskInSite answers it,
 * from every site space the reader sees, sent as one final-answer step; the response's id is the
 * kept answer's, which a reader's rating (ask_rate_response) names.
 */
async function streamAIResponseInSite(ctx: AppContext, { params, body }: { params: { siteId: string }; body: schemas.SiteAIResponseBody }) {
  const question = lastQuestion(body.input);
  if (!question) throw badRequest('"input" holds no user message with text to answer');
  const spaceIds = await siteSpacesOf(ctx, params.siteId, { mode: 'all' });
  const organizationId = organizationOf(ctx).organization.id;
  await sendEvents(ctx, async (send) => {
    const answer = await answerQuestion(indexingDeps(ctx), spaceIds, question, { organizationId });
    const kept = await recordSiteAnswer(ctx.db, { siteId: params.siteId, question, answer, channel: body.channel?.type ?? 'api' });
    const messageId = kept.id;
    send({ type: 'response_start', messageId });
    send({ type: 'response_step_start', messageId, stepIndex: 0, phase: 'final_answer' });
    send({ type: 'response_document', messageId, stepIndex: 0, operation: 'insert', blocks: (await answerDocument(answer)).nodes });
    if (answer.followupQuestions.length) send({ type: 'response_followup_suggestion', messageId, suggestions: answer.followupQuestions });
    send({ type: 'response_finish', messageId, response: { id: kept.id, ...(body.previousResponseId ? { previous: body.previousResponseId } : {}) } });
  });
}

async function streamSiteQuestions(ctx: AppContext, { params, query }: { params: { siteId: string }; query: schemas.SiteQuestionsQuery }) {
  // `spaceId` (deprecated upstream) names a space, not a site space.
  const scope: SiteSearchScope = query.siteSpaceId ? { mode: 'specific', siteSpaceIds: [query.siteSpaceId] } : query.spaceId ? { mode: 'space', spaceId: query.spaceId } : { mode: 'default' };
  const spaceIds = await siteSpacesOf(ctx, params.siteId, scope);
  const found = await recommendedQuestions(contentDeps(ctx), spaceIds);
  await sendEvents(ctx, async (send) => {
    for (const question of found) send({ question });
  });
}

/**
 * Answers with server-sent events (`text/event-stream`): each `data:` line one JSON object, the
 * stream ended once `produce` is done. An error after the stream began is sent as an `error`
 * event in the upstream error shape, as the status can no longer say it.
 */
async function sendEvents(ctx: AppContext, produce: (send: (event: unknown) => void) => Promise<void>) {
  const stream = new PassThrough();
  ctx.status = 200;
  ctx.type = 'text/event-stream; charset=utf-8';
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('X-Accel-Buffering', 'no');
  ctx.body = stream;
  const send = (event: unknown) => stream.write(`data: ${JSON.stringify(event)}\n\n`);
  try {
    await produce(send);
  } catch (error) {
    // A domain error says what went wrong; anything else is the server's, told by its request id only.
    const known = toHttpError(error);
    if (!known) log.error('an answer failed after its stream began', { requestId: ctx.state.requestId, ...errorFields(error, true) });
    const body = known ? { code: known.status, message: known.message } : { code: 500, message: `Internal server error (request ${ctx.state.requestId})` };
    stream.write(`event: error\ndata: ${JSON.stringify({ error: body })}\n\n`);
  } finally {
    stream.end();
  }
}
