import Router from '@koa/router';
import { spaceBundle } from '../../domain/storages/index.js';
import { contentDeps, type AppContext, type AppServices, type AppState, pathParam } from '../context.js';
import { HttpError } from '../errors.js';

/**
 * Calls between the nodes of one instance (storage nodes), never a client's: each must carry the
 * routing secret (`routedRequests` checks it), and anything else is not found.
 */
export const internalRouter = new Router<AppState, AppServices>({ prefix: '/internal' });

internalRouter.use((ctx: AppContext, next) => {
  if (ctx.state.routed !== true) throw new HttpError(404, 'Not found');
  return next();
});

/** A space's repository as a git bundle, for the node its move copies it to (domain/storages/spaceMove.ts). */
internalRouter.get('/spaces/:spaceId/bundle', (ctx: AppContext) => {
  const bundle = spaceBundle(contentDeps(ctx), pathParam(ctx, 'spaceId'));
  ctx.type = 'application/x-git-bundle';
  ctx.body = bundle;
});
