import Router from '@koa/router';
import Koa from 'koa';
import type { AppServices, AppState } from './context.js';
import { HttpError } from './errors.js';
import { jsonBody } from './middleware/jsonBody.js';
import { recheckPolicyInWrites } from './middleware/recheckPolicy.js';
import { requestContext } from './middleware/requestContext.js';
import { requestTarget } from './middleware/requestTarget.js';
import { publishedSitePlaceholder } from './middleware/publishedSites.js';
import { allRoutes } from './routes/index.js';

export function createApp(services: AppServices) {
  const app = new Koa<AppState, AppServices>({ proxy: false });
  app.context.db = services.db;
  app.context.config = services.config;
  app.context.urls = services.urls;
  app.context.jobs = services.jobs;
  app.silent = true;

  const router = new Router<AppState, AppServices>({ prefix: '/v1' });
  // The body is read after the policy has accepted the caller, and only where a method has one.
  const readBody = jsonBody({ limitBytes: services.config.bodyLimitBytes });
  for (const route of allRoutes) {
    // Writes under an organization re-run the policy inside their transaction (roles can change meanwhile).
    const writes = route.method === 'GET' ? [] : [readBody, ...(route.path.startsWith('/orgs/:organizationId') ? [recheckPolicyInWrites(route.policy)] : [])];
    const chain = [route.policy.check, ...writes, ...route.middleware];
    router.register(route.path, [route.method], chain as never, { name: route.operationId });
  }

  app.use(requestContext({ accessLog: services.config.accessLog }) as never);
  app.use(requestTarget as never);
  app.use(publishedSitePlaceholder as never);
  app.use(router.routes());
  app.use(async (ctx) => {
    // Reached only when no route answered: a known path with another method is a 405.
    if (router.match(ctx.path, ctx.method).path.length > 0) {
      ctx.set('Allow', [...new Set(router.match(ctx.path, ctx.method).path.flatMap((layer) => layer.methods))].join(', '));
      throw new HttpError(405, `${ctx.method} is not allowed on ${ctx.path}`);
    }
  });
  return app;
}
