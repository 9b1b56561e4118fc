// `npm run -s routes`: every registered route as `METHOD /v1/path`, one a line.
// `npm run -s routes -- --coverage`: which operations of the specification (the GitBook API v1 as
// published in @gitbook/api@0.146.0, listed in specifiedOperations.json) still lack a route, by area.
import { allRoutes } from './index.js';
import { specifiedOperations, unroutedOperations } from './specification.js';
import { specPath } from './table.js';

if (process.argv.includes('--coverage')) {
  const missing = unroutedOperations(allRoutes);
  const byArea = new Map<string, string[]>();
  for (const op of missing) byArea.set(op.area, [...(byArea.get(op.area) ?? []), `${op.method} ${op.path} (${op.operationId})`]);
  for (const [area, list] of byArea) process.stdout.write(`${area}: ${list.length} missing\n  ${list.join('\n  ')}\n`);
  process.stdout.write(`${specifiedOperations.length - missing.length} of ${specifiedOperations.length} specified operations have a route\n`);
} else {
  for (const route of allRoutes) process.stdout.write(`${route.method} ${specPath(route.path)}\n`);
}
