import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import { errorBody, toHttpError } from '../errors.js';
import type Koa from 'koa';
import { errorFields, log, logRequest } from '../../domain/common/log.js';

const acceptableRequestId = /^[A-Za-z0-9._-]{1,128}$/;

/** The caller's `X-Request-Id` when it is a plain token, else a new one. */
export function requestIdOf(incoming: string): string {
  return acceptableRequestId.test(incoming) ? incoming : randomUUID();
}

/**
 * Gives each request an id (echoed as `X-Request-Id`), turns every thrown error into the upstream
 * error body, and writes one structured access-log line when the response is done.
 */
export function requestContext(options: { accessLog: boolean }) {
  return async (ctx: AppContext, next: Koa.Next) => {
    const started = performance.now();
    ctx.state.requestId = requestIdOf(ctx.get('x-request-id'));
    ctx.set('X-Request-Id', ctx.state.requestId);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = errorBody(404, `No route for ${ctx.method} ${ctx.path}`);
      }
    } catch (error) {
      const httpError = toHttpError(error);
      if (httpError) {
        ctx.status = httpError.status;
        ctx.body = errorBody(httpError.status, httpError.message);
      } else {
        ctx.status = 500;
        ctx.body = errorBody(500, `Internal server error (request ${ctx.state.requestId})`);
        log.error('request failed', { requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, ...errorFields(error, true) });
      }
    } finally {
      if (options.accessLog) {
        logRequest({
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          durationMs: performance.now() - started,
          userId: ctx.state.caller?.id,
        });
      }
    }
  };
}
