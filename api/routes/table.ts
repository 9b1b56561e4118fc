import type { AppContext, AppMiddleware } from '../context.js';
import type { Policy } from '../policies/index.js';
import type { Requirement } from '../policies/requirements.js';
import { steps, validate, validation, type Handled, type HandlerSteps, type PathParams, type RequestSchemas } from '../validate.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  method: Method;
  /** Koa path under /v1, with `:param` placeholders. */
  path: string;
  /** The upstream operationId (or a `quire:` name for operations Quire adds). */
  operationId: string;
  policy: Policy;
  middleware: AppMiddleware[];
  /** Answered below Koa when it can be (api/lightReads.ts): a GET whose policy and handler read only what LightContext has. */
  light?: boolean;
}

/** A route's line; its handler may read only the parameters its path names (PathParams), typed. */
type Define = <const Path extends string>(path: Path, operationId: string, policy: Policy, ...middleware: Array<Handled<PathParams<Path>>>) => void;

/**
 * A readable list of routes: each line says method, path, operation, who may call it, then its
 * validation and handler. A route without a policy is refused when the table is built.
 */
export class RouteTable {
  readonly routes: Route[] = [];
  get: Define = (...args) => this.add('GET', ...args);
  post: Define = (...args) => this.add('POST', ...args);
  put: Define = (...args) => this.add('PUT', ...args);
  patch: Define = (...args) => this.add('PATCH', ...args);
  delete: Define = (...args) => this.add('DELETE', ...args);

  /** Marks GET routes of this table to be answered below Koa when they can be (api/lightReads.ts). */
  light(...operationIds: string[]): void {
    for (const operationId of operationIds) {
      const route = this.routes.find((candidate) => candidate.operationId === operationId);
      if (!route || route.method !== 'GET') throw new Error(`${operationId}: only a GET route of this table can be a light read`);
      route.light = true;
    }
  }

  private add(method: Method, path: string, operationId: string, policy: Policy, ...middleware: AppMiddleware[]) {
    if (!policy || typeof policy.check !== 'function' || !policy.rule) {
      throw new Error(`${method} ${path} (${operationId}) is declared without a policy`);
    }
    // A route that declares no validation still refuses stray query parameters and bodies.
    const validated = middleware.some((step) => validation in step);
    let chain = validated ? middleware : [validate({}), ...middleware];
    // The policy's own rules read the body: they run once it is read and valid, before the handler.
    const requirements = policy.scope?.also ?? [];
    if (requirements.length > 0) {
      const split = chain.findIndex((step) => steps in step);
      if (split < 0) chain = [checkRequirements(requirements), ...chain];
      else chain = chain.map((step, index) => (index === split ? withRequirementsBetween(step as AppMiddleware & HandlerMarks, requirements) : step));
    }
    this.routes.push({ method, path, operationId, policy, middleware: chain });
  }
}

/** `/orgs/:organizationId` (or a `*rest` wildcard) → `/v1/orgs/{organizationId}`: the spec's notation. */
export function specPath(path: string): string {
  return ('/v1' + path).replace(/[:*]([A-Za-z_]\w*)/g, '{$1}');
}

type HandlerMarks = { [validation]: RequestSchemas; [steps]: HandlerSteps };

/** `handle`'s middleware with the requirements run between its validation and its handler; still marked with its schemas. */
function withRequirementsBetween(handler: AppMiddleware & HandlerMarks, requirements: readonly Requirement[]): AppMiddleware {
  const { validateRequest, run } = handler[steps];
  return Object.assign(
    async (ctx: AppContext) => {
      validateRequest(ctx);
      for (const requirement of requirements) await requirement.check(ctx);
      await run(ctx);
    },
    { [validation]: handler[validation], [steps]: handler[steps] },
  );
}

function checkRequirements(requirements: readonly Requirement[]): AppMiddleware {
  return async (ctx, next) => {
    for (const requirement of requirements) await requirement.check(ctx);
    return next();
  };
}
