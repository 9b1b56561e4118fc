/**
 * Where Quire is deliberately stricter than the upstream spec, written into the fuzzer's copy of
 * the spec so that Schemathesis generates what Quire accepts, and tests that it refuses the rest.
 * Each rule is listed, with its reason, in docs/decisions/api.md ("The fuzzer, and where Quire is
 * stricter than the spec"); per-operation rules that a schema can't express are in schemathesis.toml.
 */
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Identifier and cursor fields: an empty string can name nothing, so Quire answers 400 rather than search for it. */
const identifierFields = new Set([
  'parent',
  'collection',
  'space',
  'spaces',
  'organization',
  'defaultTeam',
  'id',
  'members',
  'page',
  'team',
  'teams',
  'user',
  'users',
  'site',
  'siteSection',
  'siteSpace',
  'defaultSiteSection',
  'defaultSiteSpace',
  'node',
  'changeRequest',
]);
const isIdentifier = (field: string) => identifierFields.has(field) || /[a-z]Id$/.test(field);

export function applyDivergences(spec: Json): void {
  const schemas = spec.components.schemas ?? {};
  for (const item of Object.values<Json>(spec.paths)) {
    for (const operation of Object.values<Json>(item)) {
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      // `page` takes only a cursor Quire handed out (`next.page`); anything else is a 400, so the fuzzer
      // can't generate one (test/api/pagination.test.ts covers forged and foreign cursors).
      // Parameters are copied in place of their `$ref`: one shared parameter is tightened differently
      // for different operations.
      operation.parameters = (operation.parameters ?? []).map((parameter: Json) => structuredClone(resolve(spec, parameter)));
      operation.parameters = operation.parameters.filter((parameter: Json) => parameter?.name !== 'page');
      for (const parameter of operation.parameters) {
        tightenQueryParameter(parameter, operation.operationId);
        tightenPathParameter(parameter);
      }
      const media = operation.requestBody?.content?.['application/json'];
      if (media?.schema) {
        // A copy, so response schemas sharing the component keep upstream's openness.
        media.schema = structuredClone(media.schema.$ref ? schemas[media.schema.$ref.split('/').pop()] : media.schema);
        media.schema = mergeSiblingAlternatives(flattenAllOf(inlineReferences(media.schema, schemas, 3)));
        tightenBody(media.schema);
        // Inviting no one, or asking no one for a review, is a mistake worth a 400.
        if (operation.operationId === 'inviteUsersToOrganization') media.schema.properties.emails.minItems = 1;
        if (operation.operationId === 'requestReviewersForChangeRequest') media.schema.properties.users.minItems = 1;
      }
    }
  }
}

function resolve(spec: Json, node: Json): Json {
  return node?.$ref ? spec.components.parameters[node.$ref.split('/').pop()] : node;
}

/** Path segments with control characters (C0, DEL, C1) are a 400: no id or page path holds one. */
function tightenPathParameter(parameter: Json): void {
  if (parameter?.in !== 'path' || parameter.schema?.type !== 'string' || parameter.schema.pattern || parameter.schema.enum) return;
  // An OpenAPI specification's slug is letters and digits in dash-separated words, 100 at most, as when it is made.
  const pattern = parameter.name === 'specSlug' ? '^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$' : '^[^\\u0000-\\u001f\\u007f-\\u009f]+$';
  parameter.schema = { ...parameter.schema, pattern, ...(parameter.name === 'specSlug' && { maxLength: 100 }) };
}

/** Where an empty value means "no filter" and is accepted (an operation's own, or every operation's). */
const emptyAccepted = new Set(['search', 'listTeamsInOrganizationById title', 'listTeamsForOrganizationMember title', 'getSpaceById shareKey']);

function tightenQueryParameter(parameter: Json, operationId: string): void {
  if (parameter?.in !== 'query' || !parameter.schema) return;
  // Numbers in queries are plain decimal integers (issue 10, defect 6): `limit=1e3` or `2.5` is a 400.
  if (parameter.schema.type === 'number') parameter.schema.type = 'integer';
  // An empty id, filter or search (`owner=`, `creator=`, `space=`, `shareKey=`, `query=`) is a client
  // mistake, not a request for everything: Quire answers 400 (a few free-text filters accept it).
  const strings = parameter.schema.type === 'string' ? [parameter.schema] : parameter.schema.type === 'array' ? [parameter.schema.items] : [];
  const free = emptyAccepted.has(parameter.name) || emptyAccepted.has(`${operationId} ${parameter.name}`);
  for (const schema of strings) if (!free && schema?.type === 'string' && !schema.enum) schema.minLength ??= 1;
  // A repeated parameter (`authors=a&authors=b`, a site question's `topic`) takes at most 100 values.
  if (parameter.schema.type === 'array') parameter.schema.maxItems = Math.min(parameter.schema.maxItems ?? 100, 100);
  // Lists take at most 1000 items a page, whatever an operation's spec says (see Lists), and at least
  // 1 where the spec sets no lower bound.
  if (parameter.name === 'limit') {
    parameter.schema.maximum = Math.min(parameter.schema.maximum ?? 1000, 1000);
    parameter.schema.minimum ??= 1;
  }
}

/**
 * The body's own object schemas, copied in place of their `$ref` a few levels deep, so that closing
 * them to unknown fields leaves the shared components (and response schemas) as upstream wrote them.
 * Recursive schemas (documents) stay references, and open.
 */
function inlineReferences(schema: Json, schemas: Json, depth: number, seen: Set<string> = new Set()): Json {
  if (Array.isArray(schema)) return schema.map((item) => inlineReferences(item, schemas, depth, seen));
  if (!schema || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop();
    if (depth === 0 || seen.has(name) || !schemas[name]) return schema;
    return inlineReferences(structuredClone(schemas[name]), schemas, depth - 1, new Set([...seen, name]));
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inlineReferences(value, schemas, depth, seen)]));
}

/**
 * `allOf: [common fields, oneOf: [variants]]` → `anyOf: [common + variant, …]`: closing each part of
 * an allOf to unknown fields would refuse the other parts' fields, so the parts are merged first.
 */
function flattenAllOf(schema: Json): Json {
  if (!Array.isArray(schema?.allOf)) return schema;
  const alternatives = (part: Json): Json[] => {
    const branches = part.oneOf ?? part.anyOf;
    return Array.isArray(branches) ? branches.flatMap((branch: Json) => alternatives(flattenAllOf(branch))) : [part];
  };
  let merged: Json[] = [{ type: 'object', properties: {}, required: [] }];
  for (const part of schema.allOf) {
    merged = merged.flatMap((left) =>
      alternatives(part).map((right) => ({
        ...left,
        properties: { ...left.properties, ...right.properties },
        required: [...new Set([...left.required, ...(right.required ?? [])])],
        ...(right.description && { description: right.description }),
      })),
    );
  }
  for (const alternative of merged) if (!alternative.required.length) delete alternative.required;
  return merged.length === 1 ? merged[0] : { anyOf: merged };
}

/**
 * `{properties: {role}, anyOf: [{properties: {users}}, {properties: {teams}}]}` (an invite) →
 * `anyOf: [{role, users}, {role, teams}]`: closing the object and its alternatives apart would
 * leave no body that all of them accept.
 */
function mergeSiblingAlternatives(schema: Json): Json {
  const key = Array.isArray(schema?.anyOf) ? 'anyOf' : Array.isArray(schema?.oneOf) ? 'oneOf' : undefined;
  if (!key || !schema.properties) return schema;
  const { [key]: branches, properties, required = [], ...rest } = schema;
  return {
    anyOf: branches.map((branch: Json) => ({
      ...rest,
      ...branch,
      type: 'object',
      properties: { ...properties, ...branch.properties },
      required: [...new Set([...required, ...(branch.required ?? [])])],
    })),
  };
}

/** Unknown fields are refused (a typo must not pass silently), and identifiers can't be empty. */
function tightenBody(schema: Json, field?: string): void {
  if (!schema || typeof schema !== 'object' || schema.$ref) return;
  if (schema.type === 'string' && field && isIdentifier(field)) schema.minLength ??= 1;
  // A whole number beyond ±2^53 would come back altered: a 400 (docs/decisions/api.md).
  if (schema.type === 'integer') {
    schema.maximum ??= Number.MAX_SAFE_INTEGER;
    schema.minimum ??= -Number.MAX_SAFE_INTEGER;
  }
  // Addresses, domains and the organization's hostname are checked as such (upstream says only "string"): an invite to "x" or a
  // domain "-" can never match a user, so Quire refuses them.
  if (schema.type === 'string' && (field === 'email' || field === 'emails')) schema.format = 'email';
  if (schema.type === 'string' && field === 'hostname') schema.pattern = '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$';
  if (schema.type === 'string' && field === 'emailDomains') schema.pattern = '^([a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?\\.){1,3}[a-z]{2,10}$';
  if (schema.type === 'array') tightenBody(schema.items, field);
  if (schema.properties) {
    schema.additionalProperties = false;
    for (const [name, property] of Object.entries<Json>(schema.properties)) tightenBody(property, name);
  }
  for (const key of ['oneOf', 'anyOf', 'allOf']) for (const branch of schema[key] ?? []) tightenBody(branch, field);
}
