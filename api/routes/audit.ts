import { listAuditActions, readAuditEvent, readAuditLog } from '../../domain/audit/index.js';
import { organizationOf, type AppContext } from '../context.js';
import { inOrganization } from '../policies/index.js';
import { presentAuditEvent, presentAuditEventDetails } from '../presenters/auditEvent.js';
import { presentList } from '../presenters/list.js';
import * as schemas from '../schemas/audit.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

// Who changed what in the organization: for its admins only (docs/audit.md).
export const auditRoutes = new RouteTable();
const routes = auditRoutes;

routes.get('/orgs/:organizationId/audit-events', 'listOrganizationAuditEvents', inOrganization('admin'), handle({ query: schemas.listAuditEvents }, list));
routes.get('/orgs/:organizationId/audit-events/:auditEventId', 'getOrganizationAuditEvent', inOrganization('admin'), handle({}, get));
routes.get('/orgs/:organizationId/audit-event-actions', 'listOrganizationAuditEventActions', inOrganization('admin'), handle({}, actions));

async function list(ctx: AppContext, { query }: { query: schemas.ListAuditEventsQuery }) {
  const { organization } = organizationOf(ctx);
  const { page, limit, from, to, ...filter } = query;
  // Times compared as stored (UTC, milliseconds): an offset or a second without them is the same instant.
  const instant = (value: string | undefined) => (value === undefined ? {} : { value: new Date(value).toISOString() });
  const events = await readAuditLog(ctx.db, organization.id, { ...filter, from: instant(from).value, to: instant(to).value }, { page, limit: limit ?? 20 });
  ctx.body = presentList(events, (event) => presentAuditEvent(event, ctx.urls));
}

async function get(ctx: AppContext, { params }: { params: { auditEventId: string } }) {
  const { organization } = organizationOf(ctx);
  ctx.body = presentAuditEventDetails(await readAuditEvent(ctx.db, organization.id, params.auditEventId), ctx.urls);
}

async function actions(ctx: AppContext) {
  ctx.body = { items: listAuditActions().map((action) => ({ object: 'audit-event-action' as const, ...action })) };
}
