import type { Element } from 'hast';
import { el, type Child } from './hast.js';

/**
 * One operation of a bundled OpenAPI document (3.x, or Swagger 2.0) as the page shows it: method,
 * full URL, summary and description, parameters by location, the request body's schema and each
 * response's schema and example. Local `$ref`s are followed (never in a cycle); schemas are shown
 * to a bounded depth and width, so a huge spec can't make a huge page. Undefined when the
 * document has no such operation.
 */
export function openapiOperationTree(spec: unknown, path: string, method: string, anchor: (title: string) => string): Element | undefined {
  const document = record(spec);
  const pathItem = record(record(document.paths)[path]);
  const operation = record(pathItem[method]);
  if (Object.keys(operation).length === 0) return undefined;
  const resolver = new References(document);
  const parameters = [...list(pathItem.parameters), ...list(operation.parameters)].map((parameter) => resolver.resolve(parameter));
  const summary = text(operation.summary) || `${method.toUpperCase()} ${path}`;
  const body = requestBody(resolver, operation, parameters);
  return el(
    'section',
    { className: ['openapi'], id: anchor(`${method} ${path}`), ariaLabel: summary },
    el('p', { className: ['openapi-title'] }, el('strong', {}, summary)),
    el('p', { className: ['openapi-endpoint'] }, el('span', { className: ['method', `method-${method}`] }, method.toUpperCase()), ' ', el('code', {}, `${baseUrl(document)}${path}`)),
    paragraphs(text(operation.description)),
    ['path', 'query', 'header', 'cookie'].map((place) =>
      parameterTable(
        resolver,
        place,
        parameters.filter((parameter) => parameter.in === place),
      ),
    ),
    body ? el('div', { className: ['openapi-body'] }, el('p', {}, el('strong', {}, 'Body'), body.type ? ` (${body.type})` : ''), schemaTree(resolver, body.schema, 0)) : null,
    responses(resolver, operation),
  );
}

/** Named schemas of a bundled OpenAPI document (`components.schemas`, or Swagger's `definitions`), each with its properties. */
export function openapiSchemasTree(spec: unknown, names: string[], anchor: (title: string) => string): Element | undefined {
  const document = record(spec);
  const schemas = record(record(document.components).schemas ?? document.definitions);
  const resolver = new References(document);
  const shown = names.filter((name) => name in schemas).slice(0, 200);
  if (shown.length === 0) return undefined;
  return el(
    'div',
    { className: ['openapi-schemas'] },
    shown.map((name) => {
      const schema = resolver.resolve(schemas[name]);
      return el(
        'section',
        { className: ['openapi'], id: anchor(name), ariaLabel: name },
        el('p', { className: ['openapi-title'] }, el('strong', {}, name), ' ', el('span', { className: ['type'] }, typeOf(resolver, schema))),
        paragraphs(text(schema.description)),
        schemaTree(resolver, schemas[name], 0),
      );
    }),
  );
}

type Json = Record<string, unknown>;
const record = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Local `$ref`s (`#/…`), resolved with a guard so a cycle stops rather than recursing. */
class References {
  constructor(private readonly document: Json) {}
  resolve(value: unknown, seen: Set<string> = new Set()): Json {
    let current = record(value);
    while (typeof current.$ref === 'string' && current.$ref.startsWith('#/') && !seen.has(current.$ref)) {
      seen.add(current.$ref);
      current = current.$ref
        .slice(2)
        .split('/')
        .reduce<Json>((node, part) => record(node[part.replace(/~1/g, '/').replace(/~0/g, '~')]), this.document);
    }
    return current;
  }
}

function baseUrl(document: Json): string {
  const server = text(record(list(document.servers)[0]).url);
  if (server) return server.replace(/\/$/, '');
  const host = text(document.host);
  return host ? `${text(list(document.schemes)[0]) || 'https'}://${host}${text(document.basePath).replace(/\/$/, '')}` : '';
}

const paragraphs = (description: string): Element[] =>
  description
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean)
    .slice(0, 20)
    .map((part) => el('p', {}, part));

function typeOf(resolver: References, schema: unknown): string {
  const resolved = resolver.resolve(schema);
  const type = Array.isArray(resolved.type) ? resolved.type.join(' | ') : text(resolved.type);
  if (type === 'array') return `${typeOf(resolver, resolved.items)}[]`;
  const format = text(resolved.format);
  return [type || (resolved.properties ? 'object' : ''), format ? `(${format})` : ''].filter(Boolean).join(' ') || 'any';
}

function parameterTable(resolver: References, place: string, parameters: Json[]): Element | null {
  if (parameters.length === 0) return null;
  const titles: Record<string, string> = { path: 'Path parameters', query: 'Query parameters', header: 'Headers', cookie: 'Cookies' };
  return el(
    'div',
    { className: ['table'] },
    el(
      'table',
      {},
      el('caption', {}, titles[place]!),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ['Name', 'Type', 'Description'].map((title) => el('th', { scope: 'col' }, title)),
        ),
      ),
      el(
        'tbody',
        {},
        parameters
          .slice(0, 100)
          .map((parameter) =>
            el(
              'tr',
              {},
              el('td', {}, el('code', {}, text(parameter.name)), parameter.required === true ? el('span', { className: ['required'] }, ' required') : null),
              el('td', {}, typeOf(resolver, parameter.schema ?? parameter)),
              el('td', {}, text(parameter.description)),
            ),
          ),
      ),
    ),
  );
}

/** The request body: 3.x's `requestBody` (its first media type), or Swagger 2.0's `in: body` parameter. */
function requestBody(resolver: References, operation: Json, parameters: Json[]): { type: string; schema: unknown } | undefined {
  const body = resolver.resolve(operation.requestBody);
  const [type, media] = Object.entries(record(body.content))[0] ?? [];
  if (type) return { type, schema: record(media).schema };
  const legacy = parameters.find((parameter) => parameter.in === 'body');
  return legacy ? { type: '', schema: legacy.schema } : undefined;
}

const maxDepth = 4;
const maxProperties = 60;

/** The named schemas a schema is (its `$ref`, or its items' for an array): a schema met again inside itself stops there. */
const refsOf = (schema: unknown, resolved: Json): string[] => [text(record(schema).$ref), resolved.type === 'array' ? text(record(resolved.items).$ref) : ''].filter(Boolean);

function schemaTree(resolver: References, schema: unknown, depth: number, seen: Set<string> = new Set()): Element | null {
  const resolved = resolver.resolve(schema);
  const refs = refsOf(schema, resolved);
  if (refs.some((ref) => seen.has(ref))) return null;
  const inner = new Set([...seen, ...refs]);
  const target = resolved.type === 'array' ? resolver.resolve(resolved.items) : resolved;
  const properties = Object.entries(record(target.properties)).slice(0, maxProperties);
  if (properties.length === 0 || depth >= maxDepth) return null;
  const required = new Set(list(target.required).map(String));
  return el(
    'ul',
    { className: ['schema'] },
    properties.map(([name, property]) =>
      el(
        'li',
        {},
        el('code', {}, name),
        ' ',
        el('span', { className: ['type'] }, typeOf(resolver, property)),
        required.has(name) ? el('span', { className: ['required'] }, ' required') : null,
        descriptionOf(resolver, property),
        schemaTree(resolver, property, depth + 1, inner),
      ),
    ),
  );
}

const descriptionOf = (resolver: References, property: unknown): Child => {
  const description = text(resolver.resolve(property).description);
  return description ? [' — ', description] : null;
};

function responses(resolver: References, operation: Json): Child {
  const entries = Object.entries(record(operation.responses)).slice(0, 20);
  if (entries.length === 0) return null;
  return el(
    'div',
    { className: ['openapi-responses'] },
    el('p', {}, el('strong', {}, 'Responses')),
    entries.map(([status, value]) => {
      const response = resolver.resolve(value);
      const [type, media] = Object.entries(record(response.content))[0] ?? [];
      const schema = type ? record(media).schema : response.schema;
      const example = exampleOf(resolver, record(media), schema);
      return el(
        'details',
        { className: ['openapi-response'], open: /^2/.test(status) },
        el('summary', {}, el('code', {}, status), ' ', text(response.description)),
        schemaTree(resolver, schema, 0),
        example === undefined ? null : el('pre', { tabIndex: 0 }, el('code', { className: ['language-json'] }, JSON.stringify(example, null, 2).slice(0, 8000))),
      );
    }),
  );
}

/** A response's example: the one its media type gives, or one built from its schema's own examples. */
function exampleOf(resolver: References, media: Json, schema: unknown): unknown {
  if (media.example !== undefined) return media.example;
  const first = Object.values(record(media.examples))[0];
  if (first !== undefined) return resolver.resolve(first).value;
  return schema === undefined ? undefined : sampleOf(resolver, schema, 0, new Set());
}

function sampleOf(resolver: References, schema: unknown, depth: number, seen: Set<string>): unknown {
  const resolved = resolver.resolve(schema);
  const refs = refsOf(schema, resolved);
  if (depth > maxDepth || refs.some((ref) => seen.has(ref))) return undefined;
  const inner = new Set([...seen, ...refs]);
  if (resolved.example !== undefined) return resolved.example;
  if (Array.isArray(resolved.enum) && resolved.enum.length) return resolved.enum[0];
  if (resolved.type === 'array') {
    const item = sampleOf(resolver, resolved.items, depth + 1, inner);
    return item === undefined ? [] : [item];
  }
  const properties = Object.entries(record(resolved.properties)).slice(0, maxProperties);
  if (properties.length) return Object.fromEntries(properties.map(([name, property]) => [name, sampleOf(resolver, property, depth + 1, inner) ?? null]));
  const samples: Record<string, unknown> = { string: 'string', integer: 0, number: 0, boolean: true };
  return samples[text(resolved.type)];
}
