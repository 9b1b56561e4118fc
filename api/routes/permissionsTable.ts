import { allRoutes } from './index.js';
import { specPath } from './table.js';

/** The route-by-route part of docs/permissions.md, generated from the route table itself. */
export function permissionsTable(): string {
  const lines = ['| Operation | Route | Who may call it |', '|---|---|---|'];
  for (const route of allRoutes) lines.push(`| \`${route.operationId}\` | \`${route.method} ${specPath(route.path)}\` | ${route.policy.rule} |`);
  return lines.join('\n');
}
