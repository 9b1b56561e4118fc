// `npm run -s routes`: every registered route as `METHOD /v1/path`, one a line.
// `npm run -s routes -- --coverage`: which operations of the specification (the GitBook API v1 as
// published in @gitbook/api@0.146.0, listed in specifiedOperations.json) still lack a route, by area.
import { createRequire } from 'node:module';
import { allRoutes } from './index.js';
import { specifiedOperations, unroutedOperations } from './specification.js';
import { specPath } from './table.js';

if (process.argv.includes('--coverage')) {
  const missing = unroutedOperations(allRoutes);
  const byArea = new Map<string, string[]>();
  for (const op of missing) byArea.set(op.area, [...(byArea.get(op.area) ?? []), `${op.method} ${op.path} (${op.operationId})`]);
  for (const [area, list] of byArea) process.stdout.write(`${area}: ${list.length} missing\n  ${list.join('\n  ')}\n`);
  process.stdout.write(`${specifiedOperations.length - missing.length} of ${specifiedOperations.length} specified operations have a route\n`);
  process.stdout.write(`${newerCoverage()} of @gitbook/api@0.202.0's operations have a route\n`);
} else {
  for (const route of allRoutes) process.stdout.write(`${route.method} ${specPath(route.path)}\n`);
}

/** How many of 0.202.0's operations Quire routes, as `<routed> of <all>` (the issues' yardstick for what is still missing). */
function newerCoverage(): string {
  const spec = createRequire(import.meta.url)('@gitbook/api-0.202/spec/openapi.json') as { paths: Record<string, Record<string, { operationId?: string }>> };
  const ids = Object.values(spec.paths).flatMap((item) => Object.values(item).flatMap((op) => (op && typeof op === 'object' && op.operationId ? [op.operationId] : [])));
  const routed = new Set(allRoutes.map((route) => route.operationId));
  return `${ids.filter((id) => routed.has(id)).length} of ${ids.length}`;
}
