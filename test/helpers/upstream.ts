import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * Validates response bodies against the public spec of @gitbook/api@0.146.0: the schema of the
 * operation (found from the request's method and path) for the response's status code.
 */
const require = createRequire(import.meta.url);
const spec = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
};

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

const ajv = new Ajv({ strict: false, allErrors: true, discriminator: false, validateSchema: false });
addFormatsModule.default(ajv);
ajv.addFormat('emoji', true).addFormat('icon', true).addFormat('int32', true).addFormat('byte', true);
ajv.addSchema(convertNullable(spec) as object, 'openapi.json');

/** Operations Quire adds beyond the upstream spec, with the upstream schema their body follows. */
const extensions: Record<string, { operationId: string; schema: string }> = {
  'POST /orgs': { operationId: 'quire:createOrganization', schema: 'openapi.json#/components/schemas/Organization' },
};

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  literals: number;
  operationId: string;
}

const operations: Operation[] = Object.entries(spec.paths).flatMap(([template, item]) =>
  Object.entries(item)
    .filter(([, op]) => op && typeof op === 'object' && op.operationId)
    .map(([method, op]) => ({
      method: method.toUpperCase(),
      template,
      pattern: new RegExp('^' + template.replace(/\{[^}]+\}/g, '[^/]+').replace(/\/$/, '') + '/?$'),
      literals: template.split('/').filter((part) => part && !part.startsWith('{')).length,
      operationId: op.operationId as string,
    })),
);

export function findOperation(method: string, path: string): Operation | undefined {
  const bare = path.replace(/^\/v1/, '').split('?')[0] || '/';
  return operations
    .filter((op) => op.method === method && op.pattern.test(bare))
    .sort((a, b) => b.literals - a.literals)[0];
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

/** Throws unless `body` is what the upstream spec says this request answers with `status`. */
export function assertUpstreamResponse(method: string, path: string, status: number, body: unknown): void {
  const bare = path.replace(/^\/v1/, '').split('?')[0] || '/';
  const extension = extensions[`${method} ${bare}`];
  let ref: string;
  if (extension) {
    ref = extension.schema;
  } else {
    const op = findOperation(method, path);
    if (!op) throw new Error(`${method} ${path}: no upstream operation has this path`);
    const responses = spec.paths[op.template]?.[method.toLowerCase()]?.responses ?? {};
    const response = responses[String(status)];
    if (!response) throw new Error(`${method} ${path} (${op.operationId}) answered ${status}; upstream lists ${Object.keys(responses).join(', ')}`);
    if (!response.content?.['application/json']) {
      if (body !== undefined && body !== '') throw new Error(`${op.operationId} ${status} has no body upstream, got ${JSON.stringify(body)}`);
      return;
    }
    ref = `openapi.json#/paths/${pointer(op.template)}/${method.toLowerCase()}/responses/${status}/content/${pointer('application/json')}/schema`;
  }
  const validate = validatorFor(ref);
  if (!validate(body)) {
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`);
    throw new Error(`${method} ${path} ${status} does not match the upstream schema:\n  ${errors.join('\n  ')}\nbody: ${JSON.stringify(body).slice(0, 2000)}`);
  }
}

/** Throws unless `value` matches the named schema of the upstream spec's components. */
export function assertUpstreamSchema(name: string, value: unknown): void {
  const validate = validatorFor(`openapi.json#/components/schemas/${name}`);
  if (!validate(value)) {
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`);
    throw new Error(`value does not match the upstream ${name} schema:\n  ${errors.join('\n  ')}`);
  }
}
