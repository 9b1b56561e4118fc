import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { allRoutes } from '../../api/routes/index.js';
import { specPath } from '../../api/routes/table.js';
import { applyDivergences } from './divergences.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Operation = { operationId?: string; [key: string]: Json | undefined };
interface OpenApi {
  paths: Record<string, Record<string, Operation | Json>>;
  components: Record<string, Record<string, Json>>;
  [key: string]: Json | object;
}

const methods = new Set(['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace']);
const require = createRequire(import.meta.url);

export const upstreamSpecPath = require.resolve('@gitbook/api/spec/openapi.json');
const newerSpecPath = require.resolve('@gitbook/api-0.202/spec/openapi.json');

export interface ImplementedOperation {
  method: string;
  path: string;
  operationId: string;
}

/** The upstream operations Quire serves (its own `quire:` extensions have no upstream schema to fuzz against). */
export function implementedOperations(): ImplementedOperation[] {
  return allRoutes
    .filter((route) => !route.operationId.startsWith('quire:'))
    .map((route) => ({ method: route.method, path: specPath(route.path).replace(/^\/v1/, '') || '/', operationId: route.operationId }));
}

/**
 * The upstream spec cut down to the implemented operations and the components they reach, so the
 * fuzzer never generates requests for routes Quire doesn't have.
 */
export function filteredSpec(operations: ImplementedOperation[] = implementedOperations()): OpenApi {
  const spec = JSON.parse(readFileSync(upstreamSpecPath, 'utf8')) as OpenApi;
  const wanted = new Set(operations.map((operation) => operation.operationId));
  const paths = keepOperations(spec, new Set([...wanted].filter((operationId) => !checkedAsNewer.has(operationId))));
  const newer = JSON.parse(readFileSync(newerSpecPath, 'utf8')) as OpenApi;
  const missing = [...wanted].filter((operationId) => !found(paths, operationId));
  if (missing.length) addNewerOperations(spec, paths, newer, new Set(missing));
  const unknown = missing.filter((operationId) => !found(paths, operationId));
  if (unknown.length) throw new Error(`operations the routes name but neither upstream spec has: ${unknown.join(', ')}`);
  documentClientErrors(paths);
  describeEventPayloads(paths);
  const filtered: OpenApi = { ...spec, paths, components: reachableComponents(spec, paths) };
  makeDiscriminatorsExplicit(filtered);
  applyDivergences(filtered);
  return filtered;
}

function keepOperations(spec: OpenApi, wanted: Set<string>): OpenApi['paths'] {
  const paths: OpenApi['paths'] = {};
  for (const [template, item] of Object.entries(spec.paths)) {
    const kept = Object.fromEntries(Object.entries(item).filter(([key, value]) => !methods.has(key) || wanted.has((value as Operation).operationId ?? '')));
    if (Object.keys(kept).some((key) => methods.has(key))) paths[template] = kept;
  }
  return paths;
}

/**
 * Operations 0.146.0 has too, checked against 0.202.0's spec, where 0.202.0 changed them and Quire
 * follows it (test/helpers/upstream.ts checks their answers the same way): a site grant is its own
 * permission's origin (docs/permissions.md); redirects lead to external URLs and paths and are
 * listed in upstream's orders (docs/sites.md, "Redirects"); the site's assistant streams 0.202.0's
 * events, steps included, which GitBook's renderer reads (docs/ask.md); sorting the site's
 * structure takes a body, as 0.202.0 requires, and answers 204; cancelling an import answers 200
 * (0.146.0: 201).
 */
const checkedAsNewer = new Set([
  'listPermissionsAggregateInSite',
  'listSiteRedirects',
  'createSiteRedirect',
  'updateSiteRedirectById',
  'deleteSiteRedirectById',
  'getSiteRedirectBySource',
  'streamAIResponseInSite',
  'sortSiteStructure',
  'cancelImportRun',
]);

const found = (paths: OpenApi['paths'], operationId: string) =>
  Object.values(paths).some((item) => Object.entries(item).some(([key, value]) => methods.has(key) && (value as Operation).operationId === operationId));

/**
 * Operations 0.146.0 lacks come from 0.202.0's spec, with the components they reach. A component
 * that 0.202.0 changed keeps both shapes: the newer one under `<name>_0202`, so each operation is
 * checked against the spec it comes from.
 */
function addNewerOperations(spec: OpenApi, paths: OpenApi['paths'], newer: OpenApi, wanted: Set<string>): void {
  const newerPaths = keepOperations(newer, wanted);
  const reached = reachableComponents(newer, newerPaths);
  const renamed = new Set<string>();
  for (const [kind, entries] of Object.entries(reached)) {
    for (const [name, value] of Object.entries(entries)) {
      const base = spec.components[kind]?.[name];
      if (base !== undefined && JSON.stringify(base) !== JSON.stringify(value)) renamed.add(`${kind}/${name}`);
    }
  }
  const rewrite = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => {
        if (key !== '$ref' || typeof value !== 'string') return [key, rewrite(value)];
        const match = /^#\/components\/([^/]+)\/(.+)$/.exec(value);
        return [key, match && renamed.has(`${match[1]}/${match[2]}`) ? `${value}_0202` : value];
      }),
    );
  };
  for (const [kind, entries] of Object.entries(reached)) {
    spec.components[kind] ??= {};
    for (const [name, value] of Object.entries(entries)) {
      const target = renamed.has(`${kind}/${name}`) ? `${name}_0202` : name;
      spec.components[kind]![target] ??= rewrite(value);
    }
  }
  for (const [template, item] of Object.entries(newerPaths)) {
    const merged = { ...(paths[template] ?? {}) };
    for (const [key, value] of Object.entries(item)) if (!(key in merged)) merged[key] = rewrite(value as Json);
    paths[template] = merged;
  }
}

/**
 * Upstream documents its error body once (`Error`, the `UnexpectedError` response) and lists only a
 * few error statuses per operation, though every operation can answer 400, 401, 403 or 404 with it.
 * A `4XX` response with that body on each operation lets the fuzzer check every error body against
 * the upstream shape instead of reporting each error status as undocumented. 5xx stay undocumented:
 * any of them is a failure.
 */
function documentClientErrors(paths: OpenApi['paths']): void {
  for (const item of Object.values(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!methods.has(method)) continue;
      const responses = (operation as { responses: Record<string, Json> }).responses;
      responses['4XX'] ??= { $ref: '#/components/responses/UnexpectedError' };
    }
  }
}

/**
 * Upstream (OpenAPI 3.0) gives an event stream's `schema` as the JSON each event's `data` carries;
 * Schemathesis reads it the OpenAPI 3.2 way, as the schema of the event itself (`{data, event, id}`).
 * Said the 3.2 way: each event's `data` is JSON matching upstream's schema.
 */
function describeEventPayloads(paths: OpenApi['paths']): void {
  for (const item of Object.values(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!methods.has(method)) continue;
      const responses = Object.values((operation as { responses?: Record<string, Json> }).responses ?? {});
      for (const response of responses) {
        const stream = (response as { content?: Record<string, { schema?: Json }> } | null)?.content?.['text/event-stream'];
        if (!stream?.schema) continue;
        stream.schema = {
          type: 'object',
          required: ['data'],
          properties: { data: { type: 'string', contentMediaType: 'application/json', contentSchema: stream.schema } },
        };
      }
    }
  }
}

/** Only the components the kept paths reference, directly or through other components. */
function reachableComponents(spec: OpenApi, paths: OpenApi['paths']): OpenApi['components'] {
  const reached = new Map<string, Set<string>>();
  const pending: Json[] = [paths as Json, spec.security as Json];
  const visit = (node: Json) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') {
          const match = /^#\/components\/([^/]+)\/(.+)$/.exec(value);
          if (!match) continue;
          const [, kind, name] = match as unknown as [string, string, string];
          const names = reached.get(kind) ?? reached.set(kind, new Set()).get(kind)!;
          if (!names.has(name)) {
            names.add(name);
            pending.push(spec.components[kind]?.[name] ?? null);
          }
        } else visit(value);
      }
    }
  };
  while (pending.length) visit(pending.pop()!);
  const components: OpenApi['components'] = { securitySchemes: spec.components.securitySchemes ?? {} };
  for (const [kind, names] of reached) {
    components[kind] = Object.fromEntries([...names].sort().map((name) => [name, spec.components[kind]![name]!]));
  }
  return components;
}

/**
 * The upstream spec gives most discriminators a property name and no mapping: validators that
 * don't infer the mapping from the referenced schemas' names then test every branch of the oneOf.
 * Each branch's `const`/single-value `enum` of that property makes the mapping explicit.
 */
function makeDiscriminatorsExplicit(spec: OpenApi): void {
  const schemas = spec.components.schemas ?? {};
  const resolve = (node: Json): Json => {
    if (node && typeof node === 'object' && !Array.isArray(node) && typeof node.$ref === 'string') {
      return schemas[node.$ref.replace('#/components/schemas/', '')] ?? null;
    }
    return node;
  };
  const visit = (node: Json) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const discriminator = node.discriminator as { propertyName?: string; mapping?: Record<string, string> } | undefined;
    const branches = (node.oneOf ?? node.anyOf) as Json[] | undefined;
    if (discriminator?.propertyName && !discriminator.mapping && Array.isArray(branches)) {
      const mapping: Record<string, string> = {};
      for (const branch of branches) {
        const ref = branch && typeof branch === 'object' && !Array.isArray(branch) ? branch.$ref : undefined;
        const values = typeof ref === 'string' ? discriminatorValues(resolve(branch), discriminator.propertyName, resolve) : [];
        for (const value of values) mapping[value] ??= ref as string;
      }
      if (Object.keys(mapping).length) (node.discriminator as Record<string, Json>).mapping = mapping;
    }
    Object.values(node).forEach(visit);
  };
  visit(spec.components as Json);
  visit(spec.paths as Json);
}

function discriminatorValues(schema: Json, property: string, resolve: (node: Json) => Json): string[] {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return [];
  const own = resolve(((schema.properties as Record<string, Json> | undefined) ?? {})[property] ?? null);
  if (own && typeof own === 'object' && !Array.isArray(own)) {
    if (typeof own.const === 'string') return [own.const];
    if (Array.isArray(own.enum)) return own.enum.filter((value): value is string => typeof value === 'string');
  }
  const parts = (schema.allOf as Json[] | undefined) ?? [];
  return parts.flatMap((part) => discriminatorValues(resolve(part), property, resolve));
}

/**
 * Operations whose request body reaches a recursive schema (a Document): Schemathesis' coverage
 * phase never finishes on those (it grew past 9 GB on agent instructions) and its examples phase
 * takes half a minute each, so run.ts turns both off for them; the fuzzing phase still sends them
 * generated documents.
 */
export function recursiveBodyOperations(spec: OpenApi): string[] {
  const schemas = spec.components.schemas ?? {};
  const recursive = (node: Json, path: string[]): boolean => {
    if (Array.isArray(node)) return node.some((item) => recursive(item, path));
    if (!node || typeof node !== 'object') return false;
    if (typeof node.$ref === 'string') {
      const name = node.$ref.split('/').pop()!;
      return path.includes(name) || recursive(schemas[name] ?? null, [...path, name]);
    }
    return Object.values(node).some((value) => recursive(value, path));
  };
  const found: string[] = [];
  for (const item of Object.values(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!methods.has(method)) continue;
      const { operationId, requestBody } = operation as { operationId: string; requestBody?: Json };
      if (requestBody && recursive(requestBody, [])) found.push(operationId);
    }
  }
  return found;
}
