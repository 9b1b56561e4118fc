import { readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { allRoutes } from '../../api/routes/index.js';
import { documentedDifferences, expectedRoles } from '../fixtures/expectedRoles.js';
import { projectRoot } from '../helpers/processes.js';
import { declaredRole, intendedRole } from '../helpers/routeRoles.js';

// The route table against the roles written apart from it (test/fixtures/expectedRoles.ts, from
// GitBook's roles): a route declared with too weak a policy fails here, whatever the generated
// docs/permissions.md says (that table is the routes' own, so it agrees with them by construction).
const test = suite('each route asks for the role GitBook’s roles give its operation');

test('every route has an expected role, and every expected role a route', () => {
  const routed = new Set(allRoutes.map((route) => route.operationId));
  assert.equal(
    allRoutes.map((route) => route.operationId).filter((operationId) => !(operationId in expectedRoles)),
    [],
    'routes without an expected role',
  );
  assert.equal(
    Object.keys(expectedRoles).filter((operationId) => !routed.has(operationId)),
    [],
    'expected roles without a route',
  );
});

test('each route asks for its expected role, or for the one docs/ explains', () => {
  const wrong: string[] = [];
  for (const route of allRoutes) {
    const declared = declaredRole(route);
    const difference = documentedDifferences[route.operationId];
    const expected = intendedRole(route.operationId);
    if (declared !== expected) wrong.push(`${route.operationId}: the route asks for ${declared}, ${difference ? 'its documented difference says' : 'GitBook’s roles give'} ${expected}`);
  }
  assert.equal(wrong, [], wrong.join('\n'));
});

test('each documented difference is where it says, and is a difference', () => {
  for (const [operationId, difference] of Object.entries(documentedDifferences)) {
    assert.ok(readFileSync(path.join(projectRoot, difference.file), 'utf8').includes(difference.says), `${operationId}: ${difference.file} says why`);
    assert.is.not(difference.route, expectedRoles[operationId], `${operationId}: no difference to explain`);
  }
});

test.run();
