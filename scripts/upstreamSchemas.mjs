// Writes the request schemas Quire takes from @gitbook/api@0.146.0, made ajv-strict (descriptions
// and examples dropped, OpenAPI's `nullable` as JSON Schema types, references under `definitions`):
// - api/schemas/upstreamDocument.ts: every schema JSONDocument reaches;
// - api/schemas/upstreamCustomization.ts: site customization (the settings, and a site space's
//   override body), closed: objects take only the fields upstream names, strings and lists bounded.
// `npm run -s docs:upstream-schemas` regenerates them; test/api/documentBodies.test.ts checks they
// match the installed package (`--check`).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const spec = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8'));
const schemas = spec.components.schemas;

// The customization settings also take what 0.202.0 requires beside 0.146.0's fields (Quire answers
// both versions at once, docs/decisions/sites.md): `socialAccounts`, `styling.codeTheme`, `pageActions.items`,
// optional here, with the schemas they name.
const newer = JSON.parse(readFileSync(require.resolve('@gitbook/api-0.202/spec/openapi.json'), 'utf8')).components.schemas;
const newerSettings = newer.SiteCustomizationSettingsBase.properties;
const settings = schemas.SiteCustomizationSettings.properties;
settings.socialAccounts = newerSettings.socialAccounts;
settings.styling.properties.codeTheme = newerSettings.styling.properties.codeTheme;
settings.pageActions.properties.items = newerSettings.pageActions.properties.items;
const pending = [settings.socialAccounts, settings.styling.properties.codeTheme, settings.pageActions.properties.items].flatMap((schema) => referenced(schema));
while (pending.length) {
  const name = pending.pop();
  if (schemas[name]) continue;
  schemas[name] = newer[name];
  pending.push(...referenced(newer[name]));
}

const dropped = new Set(['description', 'title', 'example', 'deprecated', 'discriminator']);
/** Formats ajv doesn't know and the API doesn't check (an icon is any name, an emoji any code). */
const droppedFormats = new Set(['icon', 'emoji']);

/** Bounds for a closed schema's strings and lists that upstream leaves unbounded. */
const closedBounds = { maxLength: 2048, maxItems: 100 };
/** Fields naming an object: empty names nothing (the fields scripts/fuzz/divergences.ts tightens the same way). */
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
  'user',
  'users',
  'site',
  'siteSection',
  'siteSpace',
  'defaultSiteSection',
  'defaultSiteSpace',
  'node',
]);
const isIdentifier = (field) => identifierFields.has(field) || /[a-z]Id$/.test(field);

function convert(schema, closed, inAllOf = false, field = undefined) {
  if (Array.isArray(schema)) return schema.map((item) => convert(item, closed, false, field));
  if (!schema || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (dropped.has(key) || key.startsWith('x-') || key === 'nullable') continue;
    if (key === 'format' && droppedFormats.has(value)) continue;
    if (key === '$ref') out.$ref = `#/definitions/${value.split('/').pop()}`;
    else if (key === 'properties') out.properties = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, convert(property, closed, false, name)]));
    else if (key === 'items' && typeof value === 'object') out[key] = convert(value, closed, false, field);
    else if (['additionalProperties', 'not'].includes(key) && typeof value === 'object') out[key] = convert(value, closed);
    else if (key === 'allOf') out[key] = value.map((item) => convert(item, closed, true));
    else if (['oneOf', 'anyOf'].includes(key)) out[key] = value.map((item) => convert(item, closed, false, field));
    else out[key] = value;
  }
  // ajv's strict mode wants the type beside the keywords of a type.
  if (out.type === undefined && (out.properties || out.additionalProperties !== undefined || out.required)) out.type = 'object';
  if (out.type === undefined && out.items) out.type = 'array';
  if (closed) {
    // A part of an allOf can't be closed on its own: the other parts' fields would be refused.
    if (out.type === 'object' && out.properties && out.additionalProperties === undefined && !inAllOf) out.additionalProperties = false;
    if (out.type === 'string' && out.maxLength === undefined && out.enum === undefined) out.maxLength = closedBounds.maxLength;
    if (out.type === 'string' && field !== undefined && isIdentifier(field) && out.minLength === undefined && out.enum === undefined) out.minLength = 1;
    if (out.type === 'array' && out.maxItems === undefined) out.maxItems = closedBounds.maxItems;
  }
  if (schema.nullable) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

/** The named schemas, and every one they reach, converted; `extra` are schemas of no name of their own. */
function definitions(roots, closed, extra = {}) {
  const reached = new Map(Object.entries(extra).map(([name, schema]) => [name, convert(schema, closed)]));
  const queue = [...roots, ...Object.values(extra).flatMap(referenced)];
  while (queue.length) {
    const name = queue.pop();
    if (reached.has(name)) continue;
    reached.set(name, convert(schemas[name], closed));
    queue.push(...referenced(schemas[name]));
  }
  return Object.fromEntries([...reached].sort(([a], [b]) => a.localeCompare(b)));
}

function referenced(schema) {
  const names = [];
  JSON.stringify(schema, (key, value) => {
    if (key === '$ref') names.push(value.split('/').pop());
    return value;
  });
  return names;
}

const overrideBody = spec.paths['/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization'].patch.requestBody.content['application/json'].schema;
const outputs = [
  { file: 'upstreamDocument.ts', name: 'upstreamDocument', schema: { $id: 'upstream-document.json', definitions: definitions(['JSONDocument'], false) } },
  {
    file: 'upstreamCustomization.ts',
    name: 'upstreamCustomization',
    schema: { $id: 'upstream-customization.json', definitions: definitions(['SiteCustomizationSettings'], true, { SiteSpaceCustomizationOverride: overrideBody }) },
  },
];

let stale = false;
for (const output of outputs) {
  const out = new URL(`../api/schemas/${output.file}`, import.meta.url);
  const text = [
    "// Generated by scripts/upstreamSchemas.mjs from @gitbook/api@0.146.0 (and 0.202.0's customization additions; npm run -s docs:upstream-schemas): do not edit.",
    `export const ${output.name}: Record<string, unknown> = ${JSON.stringify(output.schema)};`,
    '',
  ].join('\n');
  if (!process.argv.includes('--check')) writeFileSync(out, text);
  else if (readFileSync(out, 'utf8') !== text) {
    console.error(`api/schemas/${output.file} is not what @gitbook/api holds: run npm run -s docs:upstream-schemas`);
    stale = true;
  }
}
if (stale) process.exit(1);
