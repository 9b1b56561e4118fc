import type http from 'node:http';
import type { AppContext, AppServices, AppState } from './context.js';
import { errorFields, log, logRequest } from '../domain/common/log.js';
import { RouteBuckets } from './routeBuckets.js';
import type { RateLimiter } from './rateLimits.js';
import { countedRequests, rateLimitHeaders } from './middleware/rateLimit.js';
import { credentialsOf, rateLimitKey } from './auth/index.js';
import { requestIdOf } from './middleware/requestContext.js';
import { requestTargetProblem } from './middleware/requestTarget.js';
import { credentialedCaching } from './middleware/securityHeaders.js';

type Listener = (request: http.IncomingMessage, response: http.ServerResponse) => void;

export interface LightReadsOptions {
  services: AppServices;
  buckets: RouteBuckets;
  /** The operations served this way: GETs whose policy and handler read no more of the context than LightContext has. */
  operations: ReadonlySet<string>;
  limiter?: RateLimiter;
}

/** GETs of the light routes since start, answered below Koa or passed on to it (for /metrics). */
export const lightReadCounts = { answered: 0, passedOn: 0 };

/** Thrown into a route's chain when it calls `next`: the request is another route's, which Koa finds. */
const passedOn = Symbol('passed on');

/**
 * The hottest authenticated reads, answered below Koa: a small read spends more in Koa's context
 * and the application's middleware (request id, rate limit, request target, security headers,
 * access log, each a layer of promises) than in its own work. For a GET of one of `operations`
 * with a user's bearer token, the route's own chain (policy, validation, handler) runs on a
 * LightContext, and the answer is written with the headers the Koa path would write.
 *
 * Anything else the route does is Koa's: an error, a status other than 200, a body that isn't
 * JSON, a chain passing the request on, a handler reaching for what LightContext lacks (it
 * throws). The request then goes to Koa whole, as if it had come straight there: a read has no
 * effect to undo, and its rate-limit count is carried over, not taken twice.
 */
export function lightReads(options: LightReadsOptions, koa: Listener): Listener {
  return (request, response) => {
    const light = request.method === 'GET' && lightRequest(options, request);
    if (!light) return koa(request, response);
    answer(options, light, request, response).then(
      (answered) => {
        if (answered) lightReadCounts.answered += 1;
        else passOn(koa, request, response);
      },
      (error: unknown) => {
        // Written already: the answer stands (Koa would run the route again on a finished response).
        if (response.headersSent) log.error('a light read failed after its answer was written', { path: light.path, ...errorFields(error, true) });
        else passOn(koa, request, response);
      },
    );
  };
}

function passOn(koa: Listener, request: http.IncomingMessage, response: http.ServerResponse) {
  lightReadCounts.passedOn += 1;
  koa(request, response);
}

interface LightRequest {
  path: string;
  querystring: string;
  authorization: string;
  route: NonNullable<ReturnType<typeof RouteBuckets.match>>;
}

/** A GET of a light route, with a user's bearer token and a plain request target; undefined for anything else (Koa's). */
function lightRequest(options: LightReadsOptions, request: http.IncomingMessage): LightRequest | undefined {
  const target = request.url ?? '';
  const authorization = request.headers.authorization;
  // Exactly `/v1/` (the published sites take other spellings on their hosts), and nothing
  // parseurl (Koa's path) would read another way than a split at `?`.
  if (!authorization || !target.startsWith('/v1/') || /[^\x21-\x7e]|#/.test(target)) return undefined;
  const queryAt = target.indexOf('?');
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  const querystring = queryAt < 0 ? '' : target.slice(queryAt + 1);
  if (credentialsOf(authorization).kind !== 'user token' || requestTargetProblem(path, querystring)) return undefined;
  const bucket = options.buckets.candidates(path);
  const route = bucket && RouteBuckets.match(bucket, 'GET', path);
  if (!route?.operationId || !options.operations.has(route.operationId)) return undefined;
  return { path, querystring, authorization, route };
}

/** Runs the route on a LightContext and writes its answer; false when Koa is to answer instead. */
async function answer(options: LightReadsOptions, { path, querystring, authorization, route }: LightRequest, request: http.IncomingMessage, response: http.ServerResponse): Promise<boolean> {
  const started = performance.now();
  const counted = options.limiter?.take(await rateLimitKey(options.services.db, authorization, request.socket.remoteAddress));
  if (counted) countedRequests.set(request, counted);
  if (counted && !counted.allowed) return false;

  const ctx = new LightContext(request, path, querystring, route.params, options.services);
  await route.chain(ctx as unknown as AppContext as never, () => Promise.reject(passedOn));
  const body = ctx.encodedBody();
  // The type and length are written here, as Koa would write them: a route setting its own is Koa's.
  if (body === undefined || ctx.headers.has('content-type') || ctx.headers.has('content-length')) return false;

  const requestId = requestIdOf(ctx.get('x-request-id'));
  const headers: Array<[string, string]> = [['X-Request-Id', requestId], ...(counted ? rateLimitHeaders(counted) : []), ...ctx.headers.values()];
  headers.push(['Content-Type', 'application/json; charset=utf-8'], ['X-Content-Type-Options', 'nosniff']);
  if (!ctx.headers.has('cache-control')) headers.push(['Cache-Control', credentialedCaching]);
  headers.push(['Content-Length', String(body.length)]);
  response.writeHead(200, headers.flat());
  response.end(body);
  if (options.services.config.accessLog) {
    logRequest({ requestId, method: 'GET', path, status: 200, durationMs: performance.now() - started, userId: ctx.state.caller?.id });
  }
  return true;
}

/**
 * What the light reads' routes read and write of a Koa context, and nothing more: a route that
 * reaches for anything else meets `undefined` and throws, and Koa answers it.
 */
class LightContext {
  readonly method = 'GET';
  readonly state = {} as AppState;
  readonly request = { body: undefined };
  readonly headers = new Map<string, [string, string]>();
  readonly db: AppServices['db'];
  readonly config: AppServices['config'];
  readonly urls: AppServices['urls'];
  readonly jobs: AppServices['jobs'];
  readonly repositories: AppServices['repositories'];
  status = 200;
  body: unknown;
  private contentType: string | undefined;
  private parsedQuery: Record<string, string | string[]> | undefined;

  constructor(
    readonly req: http.IncomingMessage,
    readonly path: string,
    readonly querystring: string,
    public params: Record<string, string>,
    services: AppServices,
  ) {
    this.db = services.db;
    this.config = services.config;
    this.urls = services.urls;
    this.jobs = services.jobs;
    this.repositories = services.repositories;
  }

  /** A request header, as Koa's `ctx.get` reads it. */
  get(field: string): string {
    const name = field.toLowerCase();
    const value = name === 'referer' || name === 'referrer' ? (this.req.headers.referrer ?? this.req.headers.referer) : this.req.headers[name];
    return (Array.isArray(value) ? value.join(', ') : value) ?? '';
  }

  set(field: string, value: string | number): void {
    if (typeof value !== 'string' && typeof value !== 'number') throw new TypeError(`LightContext: ${field} is set to a list`);
    this.headers.set(field.toLowerCase(), [field, String(value)]);
  }

  /** The query string's parameters, as Koa parses them (a repeated one as a list). */
  get query(): Record<string, string | string[]> {
    if (!this.parsedQuery) {
      const parameters = new URLSearchParams(this.querystring);
      const parsed: Record<string, string | string[]> = Object.create(null);
      for (const key of new Set(parameters.keys())) {
        const values = parameters.getAll(key);
        parsed[key] = values.length <= 1 ? values[0]! : values;
      }
      this.parsedQuery = parsed;
    }
    return this.parsedQuery;
  }

  set type(type: string) {
    this.contentType = type;
  }

  get type(): string {
    return this.contentType ?? '';
  }

  /** The answer's bytes when it is JSON with status 200, as Koa would send it; undefined otherwise. */
  encodedBody(): Buffer | undefined {
    const { body } = this;
    if (this.status !== 200 || body === undefined || body === null) return undefined;
    const json = this.contentType === undefined || /^application\/json(?:;\s*charset=utf-8)?$/i.test(this.contentType);
    if (Buffer.isBuffer(body)) return json && this.contentType !== undefined ? body : undefined;
    if (typeof body === 'string') return json && this.contentType !== undefined ? Buffer.from(body) : undefined;
    // A plain object or list, as presenters make: Koa would stream or convert anything else.
    const plain = Array.isArray(body) || (typeof body === 'object' && Object.getPrototypeOf(body) === Object.prototype);
    if (!plain || !json) return undefined;
    return Buffer.from(JSON.stringify(body));
  }
}
