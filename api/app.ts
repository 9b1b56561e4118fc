import Router from '@koa/router';
import Koa from 'koa';
import type { Database } from '../storage/db.js';
import type { Config } from './config.js';
import type { AppServices, AppState } from './context.js';
import { HttpError } from './errors.js';
import { jsonBody } from './middleware/jsonBody.js';
import { requestContext } from './middleware/requestContext.js';
import { allRoutes } from './routes/index.js';
import { Urls } from './urls.js';

export function createApp(services: { db: Database; config: Config; urls: Urls }) {
  const app = new Koa<AppState, AppServices>({ proxy: false });
  app.context.db = services.db;
  app.context.config = services.config;
  app.context.urls = services.urls;
  app.silent = true;

  const router = new Router<AppState, AppServices>({ prefix: '/v1' });
  for (const route of allRoutes) {
    router.register(route.path, [route.method], [route.policy.check, ...route.middleware] as never, { name: route.operationId });
  }

  app.use(requestContext({ accessLog: services.config.accessLog }) as never);
  app.use(jsonBody({ limitBytes: services.config.bodyLimitBytes }) as never);
  app.use(router.routes());
  app.use(
    router.allowedMethods({
      throw: true,
      methodNotAllowed: () => new HttpError(405, 'This method is not allowed on this path'),
      notImplemented: () => new HttpError(501, 'This method is not implemented'),
    }),
  );
  return app;
}
