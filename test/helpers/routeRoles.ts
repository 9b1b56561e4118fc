import type { Route } from '../../api/routes/table.js';
import { documentedDifferences, expectedRoles } from '../fixtures/expectedRoles.js';

/** The least role a route's policy lets through, in the form of test/fixtures/expectedRoles.ts. */
export function declaredRole(route: Route): string {
  const scope = route.policy.scope;
  if (scope) return `${scope.kind}:${scope.role ?? 'guest'}`;
  if (route.policy.rule === 'anyone') return 'anyone';
  if (route.policy.rule === 'any signed-in user') return 'signed-in';
  return `unknown (${route.policy.rule})`;
}

/** The role an operation should ask for: GitBook's roles', or the one docs/ explains instead. */
export function intendedRole(operationId: string): string | undefined {
  return documentedDifferences[operationId]?.route ?? expectedRoles[operationId];
}
