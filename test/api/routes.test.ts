import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { anyone } from '../../api/policies/index.js';
import { allRoutes } from '../../api/routes/index.js';
import { permissionsTable } from '../../api/routes/permissionsTable.js';
import { RouteTable, specPath } from '../../api/routes/table.js';
import { compileAllValidators } from '../../api/validate.js';
import { findOperation } from '../helpers/upstream.js';

const test = suite('route table');

test('every registered route declares a permission policy', () => {
  assert.ok(allRoutes.length > 0);
  for (const route of allRoutes) {
    assert.type(route.policy?.check, 'function', `${route.method} ${route.path} has no policy`);
    assert.ok(route.policy.rule.length > 0, `${route.method} ${route.path} has a policy without a rule`);
  }
  const open = allRoutes.filter((route) => route.policy === anyone).map((route) => route.operationId);
  // The API's information, and which published content a URL shows (what any visitor of the URL sees).
  assert.equal(open, ['getApiInformation', 'getPublishedContentByUrl', 'resolvePublishedContentByUrl'], 'only these need no token');
});

test("every route's request schemas compile (the server compiles each on its route's first request)", () => {
  assert.ok(allRoutes.length > 0);
  compileAllValidators();
});

test('a route declared without a policy is refused', () => {
  const table = new RouteTable();
  assert.throws(() => (table.get as (...args: unknown[]) => void)('/nothing', 'noPolicy', async () => undefined), /without a policy/);
});

test('each route carries the upstream operationId of its method and path', () => {
  for (const route of allRoutes) {
    const path = specPath(route.path).replace(/\{[^}]+\}/g, 'x');
    if (route.operationId.startsWith('quire:')) {
      assert.is(findOperation(route.method, path), undefined, `${route.operationId} exists upstream; use its id`);
      continue;
    }
    assert.is(findOperation(route.method, path)?.operationId, route.operationId, `${route.method} ${route.path}`);
  }
  const keys = allRoutes.map((route) => `${route.method} ${route.path}`);
  assert.is(new Set(keys).size, keys.length, 'no route is registered twice');
});

test('docs/permissions.md lists the route table as it is', () => {
  const doc = readFileSync(new URL('../../docs/permissions.md', import.meta.url), 'utf8');
  assert.ok(doc.includes(permissionsTable()), 'run npm run docs:permissions');
});

test.run();
