import { randomUUID } from 'node:crypto';
import { aggregateInsights, countsOf, referrerHost, searchWords, siteVisitsOf, visitorSegments, type InsightQuery, type ReaderOfEvent, type SiteEvent } from '../../domain/insights/index.js';
import { rateAnswer } from '../../domain/answers/index.js';
import { siteOf } from '../../domain/sites/index.js';
import { organizationOf, type AppContext } from '../context.js';
import { siteActions } from '../policies/actions.js';
import { inSite } from '../policies/index.js';
import * as schemas from '../schemas/insights.js';
import { presentVisitorSegment } from '../presenters/insights.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

// What readers of a site do, counted per day without identifying anyone (docs/insights.md).
export const insightRoutes = new RouteTable();
const routes = insightRoutes;
const site = '/orgs/:organizationId/sites/:siteId';

routes.post(`${site}/insights/events`, 'trackEventsInSiteById', inSite(siteActions.view, { siteToken: 'read by POST' }), handle({ body: schemas.trackEvents }, track));
routes.post(`${site}/insights/events/aggregate`, 'aggregateSiteEvents', inSite(siteActions.view), handle({ body: schemas.aggregate }, aggregate));
routes.get(`${site}/insights/visitor-segments`, 'listSiteVisitorSegments', inSite(siteActions.view), handle({}, segments));
routes.post(`${site}/agents/feedback`, 'submitAgentFeedbackToSite', inSite(siteActions.view, { siteToken: 'read by POST' }), handle({ body: schemas.agentReport }, agentReport));
routes.post(`${site}/agent-feedback`, 'submitSiteAgentFeedback', inSite(siteActions.view, { siteToken: 'read by POST' }), handle({ body: schemas.agentFeedback }, agentFeedback));

const siteOfPath = (ctx: AppContext, siteId: string) => siteOf(ctx.db, organizationOf(ctx).organization.id, siteId);

type TrackedEvent = schemas.TrackEventsBody['events'][number];

/** What Quire keeps of an upstream event: where, and the one thing it was about (docs/insights.md). */
function siteEventOf(event: TrackedEvent): SiteEvent {
  const { location } = event;
  const session = (event.session ?? {}) as { referrer?: unknown };
  const link = (event.link?.target ?? {}) as Record<string, unknown>;
  const detail =
    event.type === 'page_view'
      ? referrerHost(typeof session.referrer === 'string' ? session.referrer : undefined)
      : event.query !== undefined
        ? searchWords(event.query)
        : event.feedback?.rating
          ? event.feedback.rating
          : event.type === 'link_click'
            ? String(link.url ?? link.page ?? link.space ?? link.kind ?? '')
            : (event.llmsVariant ?? '');
  return { type: event.type, url: location.url, siteSpace: location.siteSpace, space: location.space, page: location.page, detail, ...(event.timestamp && { timestamp: event.timestamp }) };
}

async function track(ctx: AppContext, { params, body }: { params: { siteId: string }; body: schemas.TrackEventsBody }) {
  const found = await siteOfPath(ctx, params.siteId);
  ctx.insights.record(countsOf(found.id, body.events.map(siteEventOf)));
  // Who read, for the visitor segments: the renderer's ids for its reader, sketched and never kept.
  const readers = body.events.flatMap((event): ReaderOfEvent[] => {
    const session = (event.session ?? {}) as { visitorId?: unknown; sessionId?: unknown; visitorAuthClaims?: unknown };
    if (typeof session.visitorId !== 'string' || typeof session.sessionId !== 'string' || !session.visitorId || !session.sessionId) return [];
    const claims = session.visitorAuthClaims && typeof session.visitorAuthClaims === 'object' ? (session.visitorAuthClaims as Record<string, unknown>) : undefined;
    return [{ visitorId: session.visitorId, sessionId: session.sessionId, ...(claims ? { claims } : {}), ...(event.timestamp ? { timestamp: event.timestamp } : {}) }];
  });
  ctx.insights.recordVisits(await siteVisitsOf(ctx.db, found.id, readers));
  // A reader's rating of an answer the site gave: kept on that answer (listSiteQuestionAnswers); one the site never gave is ignored.
  for (const event of body.events) {
    if (event.type === 'ask_rate_response' && event.responseId && event.rating) await rateAnswer(ctx.db, found.id, event.responseId, event.rating);
  }
  ctx.status = 204;
}

async function aggregate(ctx: AppContext, { params, body }: { params: { siteId: string }; body: schemas.AggregateBody }) {
  const found = await siteOfPath(ctx, params.siteId);
  // Counts waiting in memory are written first: an aggregate sees every event tracked before it.
  await ctx.insights.flush();
  ctx.body = await aggregateInsights(ctx.db, found.id, body as InsightQuery);
}

/** An agent's feedback on a page: counted as an `agent_feedback` event whose text is kept, for the site's editors. */
async function agentFeedback(ctx: AppContext, { params, body }: { params: { siteId: string }; body: schemas.AgentFeedbackBody }) {
  const found = await siteOfPath(ctx, params.siteId);
  ctx.insights.record(countsOf(found.id, [{ type: 'agent_feedback', url: body.url, space: body.spaceId, page: body.pageId, detail: body.feedback.trim() }]));
  ctx.status = 204;
}

/** What a report is about, in a line: the page's path, or the tool, command or endpoint the agent used. */
function subjectOf(subject: schemas.AgentReportBody['subject']): string {
  switch (subject.kind) {
    case 'documentation':
      return subject.url && URL.canParse(subject.url) ? new URL(subject.url).pathname : 'documentation';
    case 'mcp-tool':
      return `MCP tool ${subject.toolName ?? ''}${subject.target ? ` (${subject.target})` : ''}`;
    case 'cli-command':
      return `command ${subject.command ?? ''}`;
    case 'api-endpoint':
      return `${subject.method ?? ''} ${subject.path ?? ''}`;
    default:
      return 'the site';
  }
}

/**
 * An agent's structured report (0.202.0's AgentFeedbackInput), counted as agent feedback with its
 * subject and summary kept for the site's editors; nothing of the reporter is kept.
 */
async function agentReport(ctx: AppContext, { params, body }: { params: { siteId: string }; body: schemas.AgentReportBody }) {
  const found = await siteOfPath(ctx, params.siteId);
  const { subject, feedback } = body;
  const labels = [feedback.category, feedback.severity].filter(Boolean).join(', ');
  const { metrics } = feedback;
  const tally = metrics && [`${metrics.callCount ?? '?'} calls`, `${metrics.successCount ?? '?'} succeeded`, `${metrics.retryCount ?? '?'} retried`].join(', ');
  const detail = `${labels ? `[${labels}] ` : ''}${subjectOf(subject)}: ${feedback.summary.trim()}${tally ? ` (${tally})` : ''}`;
  ctx.insights.record(countsOf(found.id, [{ type: 'agent_feedback', url: subject.kind === 'documentation' ? subject.url : undefined, detail }]));
  ctx.status = 201;
  ctx.body = { id: randomUUID(), result: 'Thank you: the feedback is recorded, and the site’s editors see it with the site’s insights.' };
}

/** The site's readers grouped by the claims its adaptive schema declares, over the last 30 days (docs/insights.md). */
async function segments(ctx: AppContext, { params }: { params: { siteId: string } }) {
  const found = await siteOfPath(ctx, params.siteId);
  await ctx.insights.flush();
  const items = (await visitorSegments(ctx.db, found.id)).map(presentVisitorSegment);
  ctx.body = { items, count: items.length };
}
