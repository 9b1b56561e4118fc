import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AppContext } from '../../api/context.js';
import { pathParam } from '../../api/context.js';
import { anyone } from '../../api/policies/index.js';
import { allRoutes } from '../../api/routes/index.js';
import { permissionsTable } from '../../api/routes/permissionsTable.js';
import { RouteTable, specPath } from '../../api/routes/table.js';
import { compileAllValidators, handle } from '../../api/validate.js';
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

test('a handler reads only the path parameters its route names, typed (checked by tsc, which npm test runs first)', () => {
  const table = new RouteTable();
  const seen: string[] = [];
  async function getPage(_ctx: AppContext, { params }: { params: { spaceId: string; pageId: string } }) {
    seen.push(`${params.spaceId}/${params.pageId}`);
  }
  table.get('/spaces/:spaceId/content/page/:pageId', 'getPageInSpace', anyone, handle({}, getPage));
  table.get(
    '/spaces/:spaceId/content/path/*pagePath',
    'getPageByPath',
    anyone,
    handle({}, async function byPath(_ctx: AppContext, { params }: { params: { pagePath: string } }) {
      seen.push(params.pagePath);
    }),
  );
  // @ts-expect-error: the handler reads :pageId, which this path doesn't name (tsc fails if this stops being an error)
  table.get('/spaces/:spaceId', 'getSpaceById', anyone, handle({}, getPage));
  assert.is(table.routes.length, 3);
  // A helper several handlers share asks for its parameter by name: a route without it is a defect, not a 404 for "".
  const ctx = { params: { spaceId: 's1' }, method: 'GET', path: '/spaces/s1' } as unknown as AppContext;
  assert.is(pathParam(ctx, 'spaceId'), 's1');
  assert.throws(() => pathParam(ctx, 'siteId'), /GET \/spaces\/s1: the route has no :siteId parameter/);
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
