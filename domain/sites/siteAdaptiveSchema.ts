import type { Database } from '../../storage/db.js';
import { setAdaptiveSchema, type AdaptiveSchemaRecord } from '../../storage/sites.js';
import { Ajv } from 'ajv';
import { invalidInput } from '../common/errors.js';
import { parseCondition } from '../common/conditions.js';

/** Draft-07 is Ajv's own: its meta-schema checks that a visitor schema is a valid JSON Schema. Made on first use, not at every start. */
let draft07Instance: Ajv | undefined;
const draft07 = () => (draft07Instance ??= new Ajv({ strict: false, allErrors: false }));

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => !!value && typeof value === 'object' && !Array.isArray(value);

const claimName = /^[A-Za-z_$][\w$]{0,63}$/;

/**
 * Refuses a visitor schema that draft-07 itself rejects (the API schema has checked its shape
 * already), or whose claim names a condition couldn't read with dots.
 */
export function assertAdaptiveSchema(jsonSchema: JsonObject): void {
  for (const claim of declaredClaims(jsonSchema)) {
    const name = claim.path[claim.path.length - 1]!;
    if (!claimName.test(name)) {
      const where = ['jsonSchema', ...claim.path.flatMap((part) => ['properties', part])].join('.');
      throw invalidInput(`Invalid request body: "${where}" is not a claim name: letters, digits, _ and $, not starting with a digit, at most 64`);
    }
  }
  const ajv = draft07();
  if (ajv.validateSchema(jsonSchema)) return;
  const error = ajv.errors?.[0];
  const path = (error?.instancePath ?? '').split('/').slice(1).join('.');
  throw invalidInput(`Invalid request body: "jsonSchema${path ? '.' + path : ''}" is not a valid draft-07 JSON Schema: ${error?.message ?? 'invalid'}`);
}

/** A declared claim: its path under visitor.claims and its schema. */
export interface Claim {
  path: string[];
  schema: JsonObject;
}

/** Every claim the schema declares, objects and what they hold alike, `unsigned` ones under `unsigned`. */
export function declaredClaims(jsonSchema: JsonObject): Claim[] {
  const claims: Claim[] = [];
  const walk = (properties: unknown, prefix: string[]) => {
    if (!isObject(properties)) return;
    for (const [name, schema] of Object.entries(properties)) {
      if (!isObject(schema)) continue;
      const path = [...prefix, name];
      if (prefix.length === 0 && name === 'unsigned') {
        walk(schema.properties, path);
        continue;
      }
      claims.push({ path, schema });
      if (schema.type === 'object') walk(schema.properties, path);
    }
  };
  walk(jsonSchema.properties, []);
  return claims;
}

/**
 * The claim paths of a condition that the schema doesn't declare. A path may go one step past a
 * declared array or string claim only for its `length`.
 */
export function undeclaredClaims(condition: string, jsonSchema: JsonObject): string[] {
  const declared = new Map(declaredClaims(jsonSchema).map((claim) => [claim.path.join('.'), claim.schema]));
  const unsigned = isObject(jsonSchema.properties) && isObject(jsonSchema.properties.unsigned);
  return parseCondition(condition)
    .claims.filter((path) => {
      const key = path.join('.');
      if (declared.has(key) || (key === 'unsigned' && unsigned)) return false;
      const parent = declared.get(path.slice(0, -1).join('.'));
      return !(parent && path[path.length - 1] === 'length' && (parent.type === 'array' || parent.type === 'string'));
    })
    .map((path) => `visitor.claims.${path.join('.')}`);
}

export interface TemplateCondition {
  description: string;
  condition: string;
}

/** One suggested condition per claim holding a value (objects are represented by what they hold). */
export function templateConditions(jsonSchema: JsonObject): TemplateCondition[] {
  return declaredClaims(jsonSchema)
    .filter((claim) => claim.schema.type !== 'object')
    .map((claim) => {
      const name = `visitor.claims.${claim.path.join('.')}`;
      const about = typeof claim.schema.description === 'string' && claim.schema.description ? ` (${claim.schema.description})` : '';
      const example = exampleOf(claim.schema);
      switch (claim.schema.type) {
        case 'boolean':
          return { description: `Visitors whose ${name}${about} is true`, condition: `${name} == true` };
        case 'number':
          return { description: `Visitors whose ${name}${about} is above 0`, condition: `${name} > 0` };
        case 'array':
          return { description: `Visitors whose ${name}${about} includes ${JSON.stringify(example)}`, condition: `${name}.includes(${JSON.stringify(example)})` };
        default:
          return { description: `Visitors whose ${name}${about} is ${JSON.stringify(example)}`, condition: `${name} == ${JSON.stringify(example)}` };
      }
    });
}

/** A value the claim (or the items of an array claim) may hold. */
function exampleOf(schema: JsonObject): string | number | boolean {
  const value = schema.type === 'array' && isObject(schema.items) ? schema.items : schema;
  if (Array.isArray(value.enum) && typeof value.enum[0] === 'string') return value.enum[0];
  if (value.type === 'boolean') return true;
  if (value.type === 'number') return 1;
  return 'example';
}

/** The site's visitor schema, replaced once assertAdaptiveSchema accepts it. */
export function saveAdaptiveSchema(db: Database, siteId: string, jsonSchema: JsonObject): Promise<AdaptiveSchemaRecord> {
  assertAdaptiveSchema(jsonSchema);
  return setAdaptiveSchema(db, siteId, jsonSchema);
}
