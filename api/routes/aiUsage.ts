import type { FromSchema } from 'json-schema-to-ts';
import { aiUsageReport, type UsageInterval } from '../../domain/aiUsage/index.js';
import { organizationOf, type AppContext } from '../context.js';
import { inOrganization } from '../policies/index.js';
import { handle } from '../validate.js';
import { RouteTable } from './table.js';

// The chat model's use by the organization's features, in credits (docs/ask.md, "AI usage"): for its admins.
export const aiUsageRoutes = new RouteTable();
const routes = aiUsageRoutes;

const usageQuery = {
  type: 'object',
  required: ['from', 'to'],
  properties: {
    from: { type: 'string', format: 'date-time' },
    to: { type: 'string', format: 'date-time' },
    interval: { enum: ['day', 'week', 'month', 'year'], default: 'day' },
  },
  additionalProperties: false,
} as const;

routes.get('/orgs/:organizationId/billing/ai-usage', 'getOrganizationAIUsage', inOrganization('admin'), handle({ query: usageQuery }, usage));

async function usage(ctx: AppContext, { query }: { query: FromSchema<typeof usageQuery> }) {
  const report = await aiUsageReport(ctx.db, organizationOf(ctx).organization.id, { from: query.from, to: query.to }, (query.interval ?? 'day') as UsageInterval);
  ctx.body = presentUsage(report);
}

/** `OrganizationAIUsage`. */
const presentUsage = (report: Awaited<ReturnType<typeof aiUsageReport>>) => ({ from: report.from, to: report.to, periods: report.periods });
