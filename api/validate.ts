import { Ajv, type ErrorObject, type Schema, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type Koa from 'koa';
import type { AppContext } from './context.js';
import { badRequest } from './errors.js';

// ajv-formats is CommonJS: its plugin is the module's `default` property.
const addFormats = addFormatsModule.default;

const bodies = addFormats(new Ajv({ allErrors: false, strict: true, useDefaults: false }), ['uri', 'email', 'date-time']);
const queries = addFormats(new Ajv({ allErrors: false, strict: true, coerceTypes: true, useDefaults: true }), ['uri', 'email', 'date-time']);

export interface RequestSchemas {
  body?: Schema;
  query?: Schema;
}

/** What a route without a query schema accepts: no parameters at all. */
const noQuery = { type: 'object', additionalProperties: false } as const;
/** What a route without a body schema accepts: no body, or an empty object. */
const noBody = { type: 'object', maxProperties: 0 } as const;

/** Marks the middleware `validate` returns, so the route table can tell a route that has one. */
export const validation = Symbol('validation');

/**
 * Validates the query string and the JSON body against the route's schemas; a route that gives
 * none accepts no query parameters and no body. A failure answers 400 naming the field; the
 * validated query (with defaults and numbers coerced) is `ctx.state.query`.
 */
export function validate(schemas: RequestSchemas) {
  const checkBody = bodies.compile(schemas.body ?? noBody);
  const checkQuery = queries.compile(schemas.query ?? noQuery);
  const bodyRequired = Array.isArray((schemas.body as { required?: unknown[] } | undefined)?.required);
  const middleware = async (ctx: AppContext, next: Koa.Next) => {
    if (schemas.query || ctx.querystring !== '') {
      const query: Record<string, unknown> = { ...ctx.query };
      if (!checkQuery(query)) throw badRequest(describe('query parameter', checkQuery));
      ctx.state.query = query;
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
    return next();
  };
  return Object.assign(middleware, { [validation]: true });
}

function describe(where: string, check: ValidateFunction): string {
  const error = check.errors?.[0];
  if (!error) return `Invalid ${where}`;
  return `Invalid ${where}: ${explain(error)}`;
}

function fieldName(error: ErrorObject): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
  return path;
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
    default:
      return `${subject} ${error.message ?? 'is invalid'}`;
  }
}
