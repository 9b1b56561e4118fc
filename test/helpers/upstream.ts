import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * Validates response bodies against the public spec of @gitbook/api@0.146.0: the schema of the
 * operation (found from the request's method and path) for the response's status code, made
 * strict: an object may carry only the fields its schema names (see `strictCopy`).
 */
const require = createRequire(import.meta.url);
type Spec = {
  components?: { schemas: Record<string, { properties?: Record<string, unknown> } | undefined> };
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
};
const spec = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8')) as Spec;
// Operations 0.146.0 lacks (a change request's content writes, for one) are checked against 0.202.0's spec.
const newerSpec = JSON.parse(readFileSync(require.resolve('@gitbook/api-0.202/spec/openapi.json'), 'utf8')) as Spec;
let resolving: unknown = spec;

/** OpenAPI 3.0's `nullable` → JSON Schema's null type, which Ajv understands everywhere. */
function convertNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convertNullable);
  if (!node || typeof node !== 'object') return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, convertNullable(value)]));
  if (nullable !== true) return converted;
  if (Array.isArray(converted.enum) && !converted.enum.includes(null)) converted.enum = [...converted.enum, null];
  if (typeof converted.type === 'string') return { ...converted, type: [converted.type, 'null'] };
  return { anyOf: [converted, { type: 'null' }] };
}

type Schema = Record<string, unknown>;
const compositions = ['allOf', 'oneOf', 'anyOf'] as const;
const notSchemas = new Set(['example', 'examples', 'default', 'enum', 'const', 'discriminator']);
const isObject = (node: unknown): node is Schema => !!node && typeof node === 'object' && !Array.isArray(node);
const componentPrefix = '#/components/schemas/';
const openPrefix = '#/components/openSchemas/';

/** A schema node resolved through local component references. */
function resolve(node: unknown): Schema | undefined {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops < 20; hops += 1) {
    const ref: string = current.$ref;
    current = ref.startsWith(componentPrefix) ? (resolving as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas[ref.slice(componentPrefix.length)] : undefined;
  }
  return isObject(current) ? current : undefined;
}

const objectTyped = (node: Schema) => node.type === undefined || node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'));

/** Whether a schema admits fields it doesn't name: a free-form object, or a map of extra fields. */
function admitsUnknownFields(node: unknown): boolean {
  const schema = resolve(node);
  if (!schema) return false;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return true;
  if (schema.patternProperties !== undefined) return true;
  const branches = compositions.flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as unknown[]) : []));
  if (branches.length) return branches.some(admitsUnknownFields);
  return schema.type === 'object' && schema.properties === undefined && schema.additionalProperties === undefined;
}

/**
 * The spec with every object that names its fields closed to others (`unevaluatedProperties:
 * false`, draft 2020-12), so a misspelled or extra field fails. The branches of allOf/oneOf/anyOf
 * stay open (a closed branch would refuse its siblings' fields) and the object holding them is
 * closed instead, which counts the fields every matching branch evaluated; a component used as a
 * branch is referenced through its open twin under `components/openSchemas`. Objects upstream
 * leaves open on purpose (free-form, or with `additionalProperties`) stay open.
 */
function strictCopy(node: unknown, open = false): unknown {
  if (Array.isArray(node)) return node.map((item) => strictCopy(item));
  if (!isObject(node)) return node;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (notSchemas.has(key) || key.startsWith('x-')) copy[key] = value;
    else if (key === 'properties' && isObject(value)) copy[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, strictCopy(property)]));
    else if ((compositions as readonly string[]).includes(key) && Array.isArray(value)) copy[key] = value.map((branch) => strictCopy(openTwin(branch), true));
    else copy[key] = strictCopy(value);
  }
  const namesFields = isObject(copy.properties) || compositions.some((key) => Array.isArray(copy[key]));
  const leftOpen = copy.additionalProperties !== undefined || copy.unevaluatedProperties !== undefined || copy.patternProperties !== undefined;
  const branches = compositions.flatMap((key) => (Array.isArray(node[key]) ? (node[key] as unknown[]) : []));
  if (!open && namesFields && !leftOpen && objectTyped(copy) && !branches.some(admitsUnknownFields)) copy.unevaluatedProperties = false;
  return copy;
}

function openTwin(branch: unknown): unknown {
  if (isObject(branch) && typeof branch.$ref === 'string' && branch.$ref.startsWith(componentPrefix)) {
    return { ...branch, $ref: openPrefix + branch.$ref.slice(componentPrefix.length) };
  }
  return branch;
}

/**
 * Fields Quire sends beyond the upstream schema, each checked as strictly as the rest. Keep this
 * short: a field belongs here only once it is a decision, not to make a test pass.
 */
/** Some properties of a schema of a spec, as that spec writes them. */
function propertiesOf(source: Spec, name: string, fields: string[]): Record<string, unknown> {
  // A schema made of others (`allOf`) has the properties of its parts.
  type Part = { properties?: Record<string, unknown>; allOf?: Part[]; $ref?: string } | undefined;
  const gather = (schema: Part): Record<string, unknown> => ({
    ...Object.assign({}, ...(schema?.allOf ?? []).map((part) => gather(part?.$ref ? (source.components?.schemas[part.$ref.split('/').pop()!] as Part) : part))),
    ...(schema?.properties ?? {}),
  });
  const properties = gather(source.components?.schemas[name] as Part);
  return Object.fromEntries(
    fields.map((field) => {
      if (!(field in properties)) throw new Error(`${name} has no property ${field}`);
      return [field, properties[field]];
    }),
  );
}

const quireFields: Record<string, Record<string, unknown>> = {
  // docs/decisions/organizations.md, "SAML": when the provider's certificate expires (issue 10, defect 9).
  OrganizationSAMLProvider: { certificateExpiresAt: { type: 'string' } },
  // docs/decisions/jobs.md, "Jobs": GET /v1/ reports whether Temporal answers.
  ApiInformation: { jobs: { type: 'object', properties: { status: { type: 'string', enum: ['up', 'down'] } }, required: ['status'], additionalProperties: false } },
  // api/presenters/search.ts: the titles of a found page's parents (test/api/search.test.ts), and
  // 0.202.0's relevance fields, which GitBook's renderer sorts results by (docs/decisions/content.md, "Search results name a page's ancestors").
  SearchPageResult: {
    ancestors: { type: 'array', items: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'], additionalProperties: false } },
    score: { type: 'number', minimum: 0 },
    rank: { type: 'integer', minimum: 1 },
    description: { type: 'string' },
  },
  SearchSectionResult: { score: { type: 'number', minimum: 0 } },
  SearchSpaceResult: { type: { enum: ['space'] }, score: { type: 'number', minimum: 0 } },
  // API.md lists SiteSpace `hidden` (navigation only, issue 13); 0.146.0's schema lacks it (docs/decisions/sites.md, *Docs sites*).
  // 0.202.0's additions to sites, site spaces and sections, answered in 0.146.0's shapes too: GitBook's
  // renderer is built on 0.202.0 (docs/decisions/sites.md, "Published content lookups and site tokens").
  SiteSpace: { hidden: { type: 'boolean' }, ...propertiesOf(newerSpec, 'SiteSpace', ['draft']) },
  Site: propertiesOf(newerSpec, 'Site', ['appliedType', 'defaultLevel', 'permissions', 'urls']),
  SiteSection: propertiesOf(newerSpec, 'SiteSection', ['draft']),
  // …and to revisions, pages and their layout options.
  RevisionBase: { tags: inlined(newerSpec, propertiesOf(newerSpec, 'RevisionBase', ['tags']).tags) },
  RevisionPageBase: { tags: inlined(newerSpec, propertiesOf(newerSpec, 'RevisionPageDocument', ['tags']).tags) },
  RevisionPageLayoutOptions: inlined(newerSpec, propertiesOf(newerSpec, 'RevisionPageLayoutOptions', ['coverMask', 'tags', 'actions', 'anchors'])) as Record<string, unknown>,
  // …and to OpenAPI specs and their content (the renderer reads a block's spec through `urls`).
  OpenAPISpec: propertiesOf(newerSpec, 'OpenAPISpec', ['lastProcessedErrorCount']),
  OpenAPISpecContent: inlined(newerSpec, propertiesOf(newerSpec, 'OpenAPISpecContent', ['urls'])) as Record<string, unknown>,
  // Redirects as 0.202.0 has them: wildcard sources, external destinations, permanent ones (docs/sites.md, "Redirects").
  SiteRedirect: inlined(newerSpec, propertiesOf(newerSpec, 'SiteRedirect', ['source', 'draft', 'captureWildcard', 'permanent', 'destination', 'createdAt', 'updatedAt'])) as Record<string, unknown>,
  // Import runs as 0.202.0 has them (docs/imports.md).
  ContentImportRun: inlined(
    newerSpec,
    propertiesOf(newerSpec, 'ContentImportRun', ['object', 'createdAt', 'updatedAt', 'startedAt', 'completedAt', 'status', 'reason', 'source', 'target', 'site', 'createdBy', 'urls', 'pages']),
  ) as Record<string, unknown>,
  // A site's list of who reaches it says so in 0.202.0's terms: a grant on the site is its own origin (docs/permissions.md).
  UserSitePermission: inlined(newerSpec, propertiesOf(newerSpec, 'UserSitePermission', ['origin', 'disabled', 'lastSeenAt'])) as Record<string, unknown>,
};

/** A schema of `source` with every `$ref` replaced by what it names, to be placed in the other spec. */
function inlined(source: Spec, schema: unknown, depth = 0): unknown {
  if (depth > 20 || typeof schema !== 'object' || schema === null) return schema;
  if (Array.isArray(schema)) return schema.map((item) => inlined(source, item, depth + 1));
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') return inlined(source, source.components?.schemas[ref.split('/').pop()!], depth + 1);
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inlined(source, value, depth + 1)]));
}

/**
 * Fields added below the top of a component schema (its path of properties): the customization
 * settings' nested objects. 0.202.0's required additions are checked in 0.146.0's shape too, and
 * 0.146.0's fields that 0.202.0 dropped in 0.202.0's.
 */
type NestedFields = Array<[schema: string, path: string[], fields: Record<string, unknown>]>;
const newerSettings = (path: string[]) =>
  (newerSpec.components?.schemas.SiteCustomizationSettingsBase as { properties: Record<string, { properties?: Record<string, unknown> }> } | undefined)?.properties[path[0]!]?.properties ?? {};
const nestedQuireFields: NestedFields = [
  ['SiteCustomizationSettings', [], { socialAccounts: inlined(newerSpec, newerSpec.components?.schemas.SiteCustomizationSettingsBase?.properties?.socialAccounts) }],
  ['SiteCustomizationSettings', ['styling'], { codeTheme: inlined(newerSpec, newerSettings(['styling']).codeTheme) }],
  ['SiteCustomizationSettings', ['pageActions'], { items: inlined(newerSpec, newerSettings(['pageActions']).items) }],
  // 0.202.0's createOrganization answers an Organization whose permissions add `access`: answered everywhere.
  ['Organization', ['permissions'], { access: { type: 'boolean' } }],
];
const olderSettings = (spec.components?.schemas.SiteCustomizationSettings?.properties ?? {}) as Record<string, { properties?: Record<string, unknown> }>;
const nestedOlderFields: NestedFields = [
  ['SiteCustomizationSettingsBase', [], { pdf: olderSettings.pdf, git: olderSettings.git }],
  ['SiteCustomizationSettingsBase', ['pageActions'], olderSettings.pageActions?.properties ?? {}],
  ['Organization', ['permissions'], { ingestConversations: { type: 'boolean' } }],
];

/** 0.146.0's fields that 0.202.0 no longer lists and Quire still answers, for the check against 0.202.0. */
const olderFields: Record<string, Record<string, unknown>> = {
  Site: { agentsContext: spec.components?.schemas.SiteAgentsContext },
  OpenAPISpecContent: { url: { type: 'string' } },
  SiteSpace: { hidden: { type: 'boolean' } },
};

/**
 * Upstream `oneOf`s whose branches overlap (no field tells them apart), so no body can match
 * exactly one: checked as `anyOf`. A page edit's `attributes` (document, group, link) all accept
 * `{title}`.
 */
const overlappingOneOf: Array<[string, string]> = [['RevisionSemanticChangePageEdited', 'attributes']];
/**
 * `PlainObject`'s values are a `oneOf` of itself (a schema without `type`, so any string or
 * number matches it too), string, boolean, number or array: a plain value matches two branches.
 * Checked as `anyOf`, at both levels (visitor segments' `claims`).
 */
const overlappingValues = ['PlainObject'];

/** docs/decisions/change-requests.md, "Change requests": a merge or update that meets conflicts lists them. */
const conflictsField = {
  type: 'array',
  items: {
    type: 'object',
    properties: { kind: { enum: ['page', 'file'] }, page: { type: 'string' }, title: { type: 'string' }, path: { type: 'string' }, reason: { type: 'string' } },
    required: ['kind', 'reason'],
    additionalProperties: false,
  },
};
const quireResponseFields: Array<[string, Record<string, unknown>]> = [
  ['/spaces/{spaceId}/change-requests/{changeRequestId}/merge', { conflicts: conflictsField }],
  ['/spaces/{spaceId}/change-requests/{changeRequestId}/update', { conflicts: conflictsField }],
];

function strictSpec(document: unknown, addedFields = quireFields, nestedFields = nestedQuireFields): unknown {
  resolving = document;
  const converted = convertNullable(document) as { components: { schemas: Record<string, Schema> }; paths: Spec['paths'] };
  for (const [template, fields] of document === spec ? quireResponseFields : []) {
    const schema = converted.paths[template]?.post?.responses?.['200']?.content?.['application/json']?.schema as Schema | undefined;
    if (!schema || !isObject(schema.properties)) throw new Error(`upstream has no object response for POST ${template} to add Quire's fields to`);
    schema.properties = { ...schema.properties, ...fields };
  }
  for (const [name, property] of overlappingOneOf) {
    const node = (converted.components.schemas[name]?.properties as Record<string, Schema> | undefined)?.[property];
    if (node?.oneOf) node.anyOf = node.oneOf;
    if (node) delete node.oneOf;
  }
  for (const name of overlappingValues) {
    const values = converted.components.schemas[name]?.additionalProperties as Schema | undefined;
    const items = (values?.oneOf as Schema[] | undefined)?.find((branch) => branch.type === 'array')?.items as Schema | undefined;
    for (const node of [values, items]) {
      if (node?.oneOf) node.anyOf = node.oneOf;
      if (node) delete node.oneOf;
    }
  }
  for (const [name, fields] of Object.entries(addedFields)) {
    const schema = converted.components.schemas[name];
    if (!schema || !isObject(schema.properties)) throw new Error(`upstream has no object schema ${name} to add Quire's fields to`);
    schema.properties = { ...schema.properties, ...fields };
  }
  for (const [name, path, fields] of nestedFields) {
    let schema = converted.components.schemas[name];
    for (const step of path) schema = (schema?.properties as Record<string, Schema> | undefined)?.[step];
    if (!schema || !isObject(schema.properties)) throw new Error(`upstream has no object schema ${[name, ...path].join('.')} to add fields to`);
    schema.properties = { ...schema.properties, ...fields };
  }
  const strict = strictCopy(converted) as { components: Record<string, unknown> };
  strict.components.openSchemas = Object.fromEntries(Object.entries(converted.components.schemas).map(([name, schema]) => [name, strictCopy(schema, true)]));
  return strict;
}

const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: false, validateSchema: false });
addFormatsModule.default(ajv);
ajv.addFormat('emoji', true).addFormat('icon', true).addFormat('int32', true).addFormat('byte', true);
ajv.addSchema(strictSpec(spec) as object, 'openapi.json');
ajv.addSchema(strictSpec(newerSpec, olderFields, nestedOlderFields) as object, 'openapi-0.202.json');

/** Operations Quire adds beyond the upstream spec, with the upstream schema their body follows. */
const extensions: Record<string, { operationId: string; schema: string }> = {};

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  literals: number;
  operationId: string;
  /** The spec it comes from, and its schema id in ajv. */
  spec: Spec;
  schemaId: string;
}

const operationsOf = (source: Spec, schemaId: string): Operation[] =>
  Object.entries(source.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([, op]) => op && typeof op === 'object' && op.operationId)
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        template,
        // A page path ({pagePath}) spans segments; every other parameter is one segment.
        pattern: new RegExp(
          '^' +
            template
              .replace(/\{[A-Za-z]*Path\}/g, '.+')
              .replace(/\{[^}]+\}/g, '[^/]+')
              .replace(/\/$/, '') +
            '/?$',
        ),
        literals: template.split('/').filter((part) => part && !part.startsWith('{')).length,
        operationId: op.operationId as string,
        spec: source,
        schemaId,
      })),
  );
const operations = operationsOf(spec, 'openapi.json');
const newerOperations = operationsOf(newerSpec, 'openapi-0.202.json');

export function findOperation(method: string, path: string): Operation | undefined {
  const bare = path.replace(/^\/v1/, '').split('?')[0] || '/';
  const best = (list: Operation[]) => list.filter((op) => op.method === method && op.pattern.test(bare)).sort((a, b) => b.literals - a.literals)[0];
  // Quire's own operations (`extensions`) stay Quire's, even where a newer upstream added one.
  return best(operations) ?? (extensions[`${method} ${bare}`] ? undefined : best(newerOperations));
}

const pointer = (part: string) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1'));
const validators = new Map<string, ValidateFunction>();

function validatorFor(ref: string): ValidateFunction {
  let validator = validators.get(ref);
  if (!validator) {
    validator = ajv.compile({ $ref: ref });
    validators.set(ref, validator);
  }
  return validator;
}

/** Throws unless `body` is what the upstream spec says this request answers with `status` (an error body for 4xx and 5xx). */
export function assertUpstreamResponse(method: string, path: string, status: number, body: unknown): void {
  if (status >= 400) return assertErrorBody(status, body, `${method} ${path}`);
  const bare = path.replace(/^\/v1/, '').split('?')[0] || '/';
  const extension = extensions[`${method} ${bare}`];
  let ref: string;
  if (extension) {
    ref = extension.schema;
  } else {
    let op = findOperation(method, path);
    if (!op) throw new Error(`${method} ${path}: no upstream operation has this path`);
    // A status 0.146.0 doesn't list for an operation 0.202.0 answers it with (sortSiteStructure's 204): the newer spec decides.
    const listed = (candidate: Operation) => candidate.spec.paths[candidate.template]?.[method.toLowerCase()]?.responses?.[String(status)] !== undefined;
    if (!listed(op)) {
      const bare = path.replace(/^\/v1/, '').split('?')[0] || '/';
      const newer = newerOperations.filter((candidate) => candidate.method === method && candidate.pattern.test(bare)).sort((a, b) => b.literals - a.literals)[0];
      if (newer && newer.operationId === op.operationId && listed(newer)) op = newer;
    }
    const responses = op.spec.paths[op.template]?.[method.toLowerCase()]?.responses ?? {};
    const response = responses[String(status)];
    if (!response) throw new Error(`${method} ${path} (${op.operationId}) answered ${status}; upstream lists ${Object.keys(responses).join(', ')}`);
    if (!response.content?.['application/json']) {
      if (body !== undefined && body !== '') throw new Error(`${op.operationId} ${status} has no body upstream, got ${JSON.stringify(body)}`);
      return;
    }
    ref = `${op.schemaId}#/paths/${pointer(op.template)}/${method.toLowerCase()}/responses/${status}/content/${pointer('application/json')}/schema`;
  }
  const validate = validatorFor(ref);
  if (!validate(body)) {
    const errors = (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`);
    throw new Error(`${method} ${path} ${status} does not match the upstream schema:\n  ${errors.join('\n  ')}\nbody: ${JSON.stringify(body).slice(0, 2000)}`);
  }
}

/** Throws unless `body` is what @gitbook/api 0.202.0's spec says this request answers with `status` (GitBook's renderer is built on it). */
export function assertNewerResponse(method: string, path: string, status: number, body: unknown): void {
  const bare = path.replace(/^\/v1/, '').split('?')[0] || '/';
  const op = newerOperations.filter((candidate) => candidate.method === method && candidate.pattern.test(bare)).sort((a, b) => b.literals - a.literals)[0];
  if (!op) throw new Error(`${method} ${path}: no operation of 0.202.0 has this path`);
  const response = op.spec.paths[op.template]?.[method.toLowerCase()]?.responses?.[String(status)];
  if (!response?.content?.['application/json']) throw new Error(`${method} ${path} (${op.operationId}) answered ${status}, which 0.202.0 lists without a JSON body`);
  const validate = validatorFor(`${op.schemaId}#/paths/${pointer(op.template)}/${method.toLowerCase()}/responses/${status}/content/${pointer('application/json')}/schema`);
  if (!validate(body)) {
    const errors = (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`);
    throw new Error(`${method} ${path} ${status} does not match 0.202.0's schema:\n  ${errors.join('\n  ')}\nbody: ${JSON.stringify(body).slice(0, 2000)}`);
  }
}

/** Throws unless `body` is the upstream error body for `status`: exactly `{error: {code, message}}`, `code` being the status. */
export function assertErrorBody(status: number, body: unknown, what = 'the error body'): void {
  const problem = (reason: string) => new Error(`${what} (${status}) ${reason}: ${JSON.stringify(body)?.slice(0, 2000)}`);
  if (!isObject(body)) throw problem('is not a JSON object');
  const extra = Object.keys(body).filter((key) => key !== 'error');
  if (extra.length) throw problem(`has fields beside "error": ${extra.join(', ')}`);
  const error = body.error;
  if (!isObject(error)) throw problem('has no "error" object');
  const unknown = Object.keys(error).filter((key) => key !== 'code' && key !== 'message');
  if (unknown.length) throw problem(`has fields in "error" beside code and message: ${unknown.join(', ')}`);
  if (error.code !== status) throw problem(`has code ${JSON.stringify(error.code)}, not the status`);
  if (typeof error.message !== 'string' || error.message === '') throw problem('has no message');
}

/** Throws unless `value` matches the named schema of the upstream spec's components (0.202.0's with `newer`, for its operations). */
export function assertUpstreamSchema(name: string, value: unknown, spec: 'older' | 'newer' = 'older'): void {
  const validate = validatorFor(`${spec === 'newer' ? 'openapi-0.202.json' : 'openapi.json'}#/components/schemas/${name}`);
  if (!validate(value)) {
    const errors = (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`);
    throw new Error(`value does not match the upstream ${name} schema:\n  ${errors.join('\n  ')}`);
  }
}

/**
 * Reads a response got with a direct `fetch` and checks it as `t.call` does: JSON bodies against
 * the upstream schema of the operation (errors as the upstream error body); returns the body.
 */
export async function checkedBody(method: string, path: string, response: Response): Promise<unknown> {
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json');
  const body = text && json ? JSON.parse(text) : text || undefined;
  if (json || response.status >= 400) assertUpstreamResponse(method, path, response.status, body);
  return body;
}
