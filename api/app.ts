import type http from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import type { AppServices, AppState } from './context.js';
import { securityHeaders } from './middleware/securityHeaders.js';
import { rateLimit } from './middleware/rateLimit.js';
import { metricsEndpoint } from './middleware/metrics.js';
import type { EventLoopDelay } from './metrics.js';
import { HttpError } from './errors.js';
import { jsonBody } from './middleware/jsonBody.js';
import { storageUploads } from './uploads.js';
import { recheckPolicyInWrites } from './middleware/recheckPolicy.js';
import { requestContext } from './middleware/requestContext.js';
import { requestTarget } from './middleware/requestTarget.js';
import { routedRequests, storageRouting } from './middleware/storageRouting.js';
import { publishedSites } from './routes/publishedSites.js';
import { gitRouter } from './routes/git.js';
import { internalRouter } from './routes/internal.js';
import { allRoutes } from './routes/index.js';
import { lightReads } from './lightReads.js';
import { webAppRouter } from './webApp/routes.js';
import { RateLimiter } from './rateLimits.js';
import type { Route } from './routes/table.js';
import { RouteBuckets } from './routeBuckets.js';

/**
 * What a route shows that is never published, from its declared path (see AppState.unpublishedRoute):
 * comments; a change request and its content (a preview URL's token reads those of its own);
 * anything else of change requests (lists, reviews, contributors, diffs, PDFs) and Git Sync.
 */
function unpublishedKind(path: string): AppState['unpublishedRoute'] {
  if (path.includes('/comments')) return 'discussion';
  if (/\/change-requests\/:changeRequestId(\/content(\/.*)?)?$/.test(path)) return 'change-request';
  if (path.includes('/change-requests') || path.includes('/git/')) return 'private';
  return undefined;
}

const marking = (kind: NonNullable<AppState['unpublishedRoute']>) => (ctx: { state: AppState }, next: () => Promise<unknown>) => {
  ctx.state.unpublishedRoute = kind;
  return next();
};

/**
 * The API, the published sites and the git remote as one request listener: Koa, with the hottest
 * reads answered below it (lightReads) unless the config turns them off or requests may belong to
 * another storage node.
 */
export function createApp(services: AppServices, health: { eventLoopDelay: EventLoopDelay }): http.RequestListener {
  const app = new Koa<AppState, AppServices>({ proxy: false });
  app.context.db = services.db;
  app.context.config = services.config;
  app.context.urls = services.urls;
  app.context.jobs = services.jobs;
  app.context.repositories = services.repositories;
  app.context.insights = services.insights;
  app.silent = true;

  // The body is read after the policy has accepted the caller, and only where a method has one.
  const readBody = jsonBody({ limitBytes: services.config.bodyLimitBytes });
  const register = (into: Router<AppState, AppServices>, route: Route) => {
    // Writes under an organization re-run the policy inside their transaction (roles can change meanwhile).
    const writes = route.method === 'GET' ? [] : [readBody, ...(/^\/orgs?\/:organizationId/.test(route.path) ? [recheckPolicyInWrites(route.policy)] : [])];
    // The policy tells these routes by what they declare, not by the request's path: routing
    // ignores case, so a path test would let `/Change-Requests/…` pass as another route.
    const unpublished = unpublishedKind(route.path);
    const marks = unpublished ? [marking(unpublished)] : [];
    const chain = [...marks, route.policy.check, ...writes, ...route.middleware];
    into.register(route.path, [route.method], chain as never, { name: route.operationId });
  };
  // Every route in one router, for telling a 405 from a 404; requests are routed by `routeBuckets`.
  const router = new Router<AppState, AppServices>({ prefix: '/v1' });
  for (const route of allRoutes) register(router, route);
  const buckets = new RouteBuckets('/v1', allRoutes, register);
  const limiter = services.config.rateLimit && new RateLimiter(services.config.rateLimit);

  app.use(securityHeaders as never);
  app.use(requestContext({ accessLog: services.config.accessLog }) as never);
  if (services.storageNode) app.use(routedRequests(services.storageNode.secret) as never);
  app.use(rateLimit(limiter) as never);
  app.use(requestTarget as never);
  if (services.storageNode) app.use(storageRouting(services.storageNode.node, services.storageNode.secret, services.config.bodyLimitBytes) as never);
  app.use(metricsEndpoint(health.eventLoopDelay, services.config.metricsToken) as never);
  // Only the git remote's paths go through its router, which tests every route's pattern.
  const gitRoutes = gitRouter.routes();
  app.use(((ctx: Koa.Context, next: Koa.Next) => (/^\/git\//i.test(ctx.path) ? gitRoutes(ctx as never, next) : next())) as never);
  if (services.storageNode) app.use(internalRouter.routes() as never);
  app.use(((ctx: Koa.Context, next: Koa.Next) => (ctx.path.startsWith('/uploads/') ? storageUploads(ctx as never, next) : next())) as never);
  app.use(publishedSites as never);
  // The web app beside the API; its home is the instance's (a published site on its own hostname answered above).
  const webApp = webAppRouter.routes();
  app.use(((ctx: Koa.Context, next: Koa.Next) => {
    if (ctx.path === '/' && (ctx.method === 'GET' || ctx.method === 'HEAD')) return ctx.redirect('/app/');
    return /^\/app(\/|$)/.test(ctx.path) ? webApp(ctx as never, next) : next();
  }) as never);
  app.use(buckets.middleware());
  app.use(async (ctx) => {
    // Reached only when no route answered: a known path with another method is a 405.
    if (router.match(ctx.path, ctx.method).path.length > 0) {
      ctx.set('Allow', [...new Set(router.match(ctx.path, ctx.method).path.flatMap((layer) => layer.methods))].join(', '));
      throw new HttpError(405, `${ctx.method} is not allowed on ${ctx.path}`);
    }
  });
  const koa = app.callback();
  if (!services.config.lightReads || services.storageNode) return koa;
  return lightReads({ services, buckets, operations: new Set(allRoutes.filter((route) => route.light).map((route) => route.operationId)), limiter }, koa);
}
