// `npm run -s routes`: every registered route as `METHOD /v1/path`, for ../shared/tools/coverage.mjs.
import { allRoutes } from './index.js';
import { specPath } from './table.js';

for (const route of allRoutes) process.stdout.write(`${route.method} ${specPath(route.path)}\n`);
