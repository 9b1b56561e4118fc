import { ingestConversations, readConversation } from '../../domain/conversations/index.js';
import { getConversationIssue, listConversationIssues, listConversations } from '../../storage/conversations.js';
import { listIssueClusters, readIssueCluster } from '../../storage/issueClusters.js';
import { callerOf, jobDeps, organizationOf, type AppContext } from '../context.js';
import { conversationActions } from '../policies/actions.js';
import { inOrganization } from '../policies/index.js';
import { presentConversation, presentConversationDetail, presentIssueListing, presentIssuesCluster } from '../presenters/conversation.js';
import { presentList } from '../presenters/list.js';
import * as schemas from '../schemas/conversations.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

export const conversationRoutes = new RouteTable();
const routes = conversationRoutes;
const { view, ingest } = conversationActions;
const org = '/orgs/:organizationId';

routes.get(`${org}/conversations-clusters`, 'listConversationsIssuesClusters', inOrganization(view), handle({ query: schemas.listConversationsIssuesClusters }, listClusters));
routes.get(`${org}/conversations-clusters/:clusterId`, 'getConversationsIssuesCluster', inOrganization(view), handle({}, getCluster));
routes.get(`${org}/conversations`, 'listConversations', inOrganization(view), handle({ query: schemas.listConversations }, list));
routes.post(`${org}/conversations`, 'ingestConversation', inOrganization(ingest), handle({ body: schemas.ingestConversation }, ingestPosted));
routes.get(`${org}/conversations-issues`, 'listConversationsIssues', inOrganization(view), handle({ query: schemas.listConversationsIssues }, listIssues));
routes.get(`${org}/conversations-issues/:issueId`, 'getConversationIssueById', inOrganization(view), handle({}, getIssue));
routes.get(`${org}/conversations/:conversationId`, 'getConversationById', inOrganization(view), handle({}, get));

/** Conversations posted through the API come from the integration "api", installed as the posting user. */
const sourceOf = (ctx: AppContext) => `integration:api:${callerOf(ctx).id}`;

/** 204 at once: the organization's processing job extracts the issues and clusters them (docs/decisions/conversations.md). */
async function ingestPosted(ctx: AppContext, { body }: { body: schemas.IngestConversationBody }) {
  await ingestConversations(jobDeps(ctx), organizationOf(ctx).organization.id, Array.isArray(body) ? body : [body], sourceOf(ctx));
  ctx.status = 204;
}

/** Newest first. */
async function list(ctx: AppContext, { query }: { query: schemas.ListConversationsQuery }) {
  const { page, limit, ...filter } = query;
  const found = await listConversations(ctx.db, organizationOf(ctx).organization.id, filter, { page, limit });
  ctx.body = presentList(found, (conversation) => presentConversation(conversation, ctx.urls));
}

async function get(ctx: AppContext, { params }: { params: { conversationId: string } }) {
  ctx.body = presentConversationDetail(await readConversation(ctx.db, organizationOf(ctx).organization.id, params.conversationId), ctx.urls);
}

/** Newest first. */
async function listIssues(ctx: AppContext, { query }: { query: schemas.ListConversationsIssuesQuery }) {
  const { page, limit, ...filter } = query;
  const found = await listConversationIssues(ctx.db, organizationOf(ctx).organization.id, filter, { page, limit });
  ctx.body = presentList(found, (item) => presentIssueListing(item, ctx.urls));
}

async function getIssue(ctx: AppContext, { params }: { params: { issueId: string } }) {
  ctx.body = presentIssueListing(await getConversationIssue(ctx.db, organizationOf(ctx).organization.id, params.issueId), ctx.urls);
}

async function listClusters(ctx: AppContext, { query }: { query: schemas.ListConversationsIssuesClustersQuery }) {
  const { page, limit, order, orderBy, status } = query;
  const found = await listIssueClusters(ctx.db, organizationOf(ctx).organization.id, { orderBy, status }, { page, limit, order });
  ctx.body = presentList(found, ({ cluster, activity }) => presentIssuesCluster(cluster, activity, ctx.urls));
}

async function getCluster(ctx: AppContext, { params }: { params: { clusterId: string } }) {
  const { cluster, activity } = await readIssueCluster(ctx.db, organizationOf(ctx).organization.id, params.clusterId);
  ctx.body = presentIssuesCluster(cluster, activity, ctx.urls);
}
