import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type Koa from 'koa';
import type { AppContext, AppMiddleware } from './context.js';
import { badRequest } from './errors.js';
import { upstreamCustomization } from './schemas/upstreamCustomization.js';
import { upstreamDocument } from './schemas/upstreamDocument.js';

// ajv-formats is CommonJS: its plugin is the module's `default` property.
const addFormats = addFormatsModule.default;

// Refs are compiled as functions of their own, not inlined where used: upstream's Document schemas,
// referenced from many bodies, would otherwise be compiled into each (about 6 MB of code more, measured).
// `discriminator`: a change is checked against the one shape its `operation` names, so errors are that shape's.
const bodies = addFormats(new Ajv({ allErrors: false, strict: true, useDefaults: false, inlineRefs: false, discriminator: true }), ['uri', 'email', 'date-time']);
// Document blocks are checked against upstream's own schemas (api/schemas/upstreamDocument.ts).
bodies.addSchema(upstreamDocument);
// Site customization is upstream's shape too, closed and bounded (api/schemas/upstreamCustomization.ts).
bodies.addSchema(upstreamCustomization);
const queries = addFormats(new Ajv({ allErrors: false, strict: true, coerceTypes: true, useDefaults: true }), ['uri', 'email', 'date-time']);

/** The schemas of one operation's request: path parameters, query string, JSON body. */
export interface RequestSchemas {
  params?: JSONSchema;
  query?: JSONSchema;
  body?: JSONSchema;
  /** The body must be sent even though it needs no field (upstream's PATCHes of a grant: `{}` changes nothing, no body is a 400). */
  bodyRequired?: true;
}

type Typed<S, Otherwise> = S extends JSONSchema ? (S extends boolean ? Otherwise : FromSchema<S>) : Otherwise;

/**
 * What a handler receives once its request is valid: query and body typed from the schemas, the
 * path parameters from the route's path (PathParams), or from their schema where a route has one.
 */
export interface ValidRequest<S extends RequestSchemas, P = Record<string, never>> {
  params: S['params'] extends JSONSchema ? Typed<S['params'], P> : P;
  query: Typed<S['query'], Record<string, never>>;
  body: Typed<S['body'], undefined>;
}

/** The parameters a route's path names: `/spaces/:spaceId/files/:fileId` → `{ spaceId: string; fileId: string }` (a `*pagePath` wildcard too). */
export type PathParams<Path extends string> = { [Name in ParamNames<Path>]: string };
type ParamNames<Path extends string> = Path extends `${string}${':' | '*'}${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}${':' | '*'}${infer Name}`
    ? Name
    : never;

declare const needs: unique symbol;
/** `handle`'s middleware, marked with the path parameters its handler reads: a route table refuses it on a path that lacks one (a type error). */
export type Handled<P> = AppMiddleware & { readonly [needs]?: (params: P) => void };

/** What a route without a query schema accepts: no parameters at all. */
const noQuery = { type: 'object', additionalProperties: false } as const;
/** What a route without a body schema accepts: no body, or an empty object. */
const noBody = { type: 'object', maxProperties: 0 } as const;
/** Any path parameter: the router has decoded it; ids, slugs and page paths all fit this. */
const pathParameter = { type: 'string', minLength: 1, maxLength: 1024, pattern: '^[^\\u0000-\\u001f\\u007f]*$' } as const;

/** Marks the middleware `validate` and `handle` return, so the route table can tell a route that has one. */
export const validation = Symbol('validation');

/** On `handle`'s middleware: its two steps, so the route table can run a policy's own rules between them. */
export const steps = Symbol('steps');
export interface HandlerSteps {
  validateRequest(ctx: AppContext): void;
  run(ctx: AppContext): Promise<void>;
}

/**
 * A route's validation and handler in one step: the path parameters, query string and JSON body
 * are checked against the schemas (a route that gives none accepts no query and no body), a
 * failure answers 400 naming the field, and the handler receives them typed from the schemas.
 */
export function handle<const S extends RequestSchemas, P = Record<string, never>>(schemas: S, handler: (ctx: AppContext, request: ValidRequest<S, P>) => Promise<void>): Handled<P> {
  const check = validator(schemas);
  const run = (ctx: AppContext) => handler(ctx, { params: ctx.params, query: ctx.state.query, body: ctx.request.body } as ValidRequest<S, P>);
  const middleware = async (ctx: AppContext) => {
    check(ctx);
    await run(ctx);
  };
  const split: HandlerSteps = { validateRequest: check, run };
  return Object.assign(middleware, { [validation]: schemas, [steps]: split });
}

/** Validation alone, for routes whose handler reads the request from the context. */
export function validate(schemas: RequestSchemas) {
  const check = validator(schemas);
  const middleware = async (ctx: AppContext, next: Koa.Next) => {
    check(ctx);
    return next();
  };
  return Object.assign(middleware, { [validation]: schemas });
}

/**
 * The route's check, its schemas compiled by ajv on the route's first request: compiling every
 * route's at start-up took about 0.5 s of a 2 s start and memory for routes a deployment may never
 * serve. `compileAllValidators` compiles them all at once (a test does, so a schema mistake still
 * fails before any request meets it).
 */
function validator(schemas: RequestSchemas): (ctx: AppContext) => void {
  let check: ((ctx: AppContext) => void) | undefined;
  const compile = () => (check ??= compiledValidator(schemas));
  pending.add(compile);
  return (ctx) => compile()(ctx);
}

const pending = new Set<() => unknown>();

/** Compiles every route's schemas now, as their first requests would. */
export function compileAllValidators(): void {
  for (const compile of pending) compile();
}

function compiledValidator(schemas: RequestSchemas): (ctx: AppContext) => void {
  const checkBody = bodies.compile(schemas.body ?? noBody);
  const checkQuery = queries.compile(schemas.query ?? noQuery);
  const checkParams = schemas.params ? bodies.compile(schemas.params) : undefined;
  const checkParameter = bodies.compile(pathParameter);
  const declared = typeof schemas.body === 'object' ? schemas.body : {};
  const bodyRequired = schemas.bodyRequired || Array.isArray(declared.required) || (declared.minProperties ?? 0) > 0;
  // What an empty query string validates to (the schema's defaults), worked out once: most requests have none.
  let emptyQuery: Record<string, unknown> | undefined;
  return (ctx) => {
    if (checkParams && !checkParams(ctx.params)) throw badRequest(describe('path parameter', checkParams));
    for (const [name, value] of Object.entries(ctx.params ?? {})) {
      if (!checkParameter(value)) throw badRequest(`Invalid path parameter: "${name}" ${explainParameter(checkParameter)}`);
    }
    if (schemas.query && ctx.querystring === '' && emptyQuery) {
      ctx.state.query = { ...emptyQuery };
    } else if (schemas.query || ctx.querystring !== '') {
      const query: Record<string, unknown> = { ...ctx.query };
      const loose = looseNumber(schemas.query, query);
      if (loose) throw badRequest(`Invalid query parameter: "${loose}" must be a whole number written in decimal digits`);
      if (!checkQuery(query)) throw badRequest(describe('query parameter', checkQuery));
      if (ctx.querystring === '') emptyQuery = { ...query };
      ctx.state.query = query;
    } else {
      ctx.state.query = {};
    }
    if (!schemas.body && ctx.request.body !== undefined && !checkBody(ctx.request.body)) {
      throw badRequest('This operation takes no request body');
    }
    if (schemas.body) {
      // A body whose schema requires no field may be left out entirely.
      if (ctx.request.body === undefined && !bodyRequired) ctx.request.body = {};
      if (ctx.request.body === undefined) throw badRequest('A JSON request body is required');
      if (!checkBody(ctx.request.body)) throw badRequest(describe('request body', checkBody));
    }
  };
}

/**
 * ajv's coercion reads `" "` as 0 and accepts `1e3`, `0x10` and `+5` as integers: a query
 * parameter typed integer or number must be plain decimal digits (a leading minus allowed).
 * Returns the first parameter that isn't.
 */
function looseNumber(schema: JSONSchema | undefined, query: Record<string, unknown>): string | undefined {
  const properties = typeof schema === 'object' ? (schema.properties ?? {}) : {};
  for (const [name, value] of Object.entries(query)) {
    const property = properties[name];
    if (typeof property !== 'object' || (property.type !== 'integer' && property.type !== 'number')) continue;
    const text = Array.isArray(value) ? value[0] : value;
    if (typeof text === 'string' && !/^-?\d{1,15}$/.test(text)) return name;
  }
  return undefined;
}

function explainParameter(check: ValidateFunction): string {
  const error = check.errors?.[0];
  if (error?.keyword === 'pattern') return 'must not contain control characters';
  return error?.message ?? 'is invalid';
}

function describe(where: string, check: ValidateFunction): string {
  const error = check.errors?.[0];
  if (!error) return `Invalid ${where}`;
  const documentNode = deepestDocumentMismatch(check.errors!);
  if (documentNode) return `Invalid ${where}: ${documentNode}`;
  return `Invalid ${where}: ${explain(error)}`;
}

/**
 * In a Document, the first error is that of the first shape tried (a paragraph, say), which is
 * rarely the one meant: the deepest node that matches none of upstream's shapes says where it is.
 */
function deepestDocumentMismatch(errors: ErrorObject[]): string | undefined {
  const mismatches = errors.filter((error) => error.keyword === 'oneOf' && /\/nodes\/\d+/.test(error.instancePath));
  if (!mismatches.length) return undefined;
  const deepest = mismatches.reduce((a, b) => (b.instancePath.split('/').length > a.instancePath.split('/').length ? b : a));
  const list = deepest.instancePath
    .split('/')
    .filter((part) => !/^\d+$/.test(part))
    .pop();
  const kind = { nodes: 'node', leaves: 'leaf', marks: 'mark' }[list ?? ''] ?? 'value';
  return `"${fieldName(deepest)}" is not a Document ${kind} of any type upstream defines (check its "type", "object" and fields)`;
}

function fieldName(error: ErrorObject): string {
  return error.instancePath
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
}

function explain(error: ErrorObject): string {
  const field = fieldName(error);
  const subject = field ? `"${field}"` : 'the body';
  switch (error.keyword) {
    case 'required':
      return `"${[field, error.params.missingProperty].filter(Boolean).join('.')}" is required`;
    case 'additionalProperties':
      return `"${[field, error.params.additionalProperty].filter(Boolean).join('.')}" is not an accepted field`;
    case 'enum':
      return `${subject} must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'discriminator': {
      const tag = [field, error.params.tag].filter(Boolean).join('.');
      return error.params.error === 'tag' ? `"${tag}" is required` : `"${tag}" ${JSON.stringify(error.params.tagValue)} is not one this operation accepts`;
    }
    case 'pattern':
      if (error.params.pattern === '\\S') return `${subject} must not be blank`;
      return `${subject} ${error.message ?? 'is invalid'}`;
    case 'minProperties':
      return `${subject} must have at least ${error.params.limit} field${error.params.limit === 1 ? '' : 's'}`;
    default:
      return `${subject} ${error.message ?? 'is invalid'}`;
  }
}
