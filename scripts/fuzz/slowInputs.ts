// The fuzz run's slow-input phase: to every operation that takes text, inputs known to make parsers
// and patterns take super-linear time (nested and unbalanced brackets and emphasis, long runs of one
// character, deep JSON), one at a time, timing each answer. Any answer over a second fails the run.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: unknown };
interface Spec {
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
}

export interface SlowAnswer {
  operation: string;
  where: string;
  shape: string;
  ms: number;
  status: number | string;
  /** The limit it was held to, when not answerLimitMs. */
  limitMs?: number;
}

/** Longest an answer may take, whatever the input. */
export const answerLimitMs = 1000;
/** Size of each text payload: where the original quadratic bracket parse took 9.8 s. */
const payloadChars = 64 * 1024;

const repeatTo = (unit: string, chars = payloadChars) => unit.repeat(Math.max(1, Math.floor(chars / unit.length)));
const half = (unit: string) => unit.repeat(Math.floor(payloadChars / 2 / unit.length));

/** The shapes, by name: each has made some parser or pattern take super-linear time somewhere. */
export const shapes: Record<string, () => string> = {
  'nested brackets': () => `${half('[')}x${half(']')}`,
  'unbalanced brackets': () => repeatTo('['),
  'flat brackets': () => repeatTo('[a] '),
  images: () => repeatTo('![a] '),
  'nested emphasis': () => `${half('*')}x${half('*')}`,
  'unclosed emphasis': () => repeatTo('*a '),
  underscores: () => repeatTo('_a '),
  strikes: () => repeatTo('~a~ '),
  quotes: () => `${repeatTo('> ', payloadChars - 4)}deep`,
  dots: () => repeatTo('.'),
  'dotted words': () => repeatTo('a.'),
  ats: () => repeatTo('@'),
  'at words': () => repeatTo('a@'),
  stars: () => repeatTo('*'),
  backticks: () => repeatTo('`'),
  'angle brackets': () => repeatTo('<a '),
  entities: () => repeatTo('&a '),
  backslashes: () => repeatTo('\\'),
  'digits and spaces': () => repeatTo('1 '),
  'credential phrases': () => repeatTo('pw=.'),
  'liquid tags': () => repeatTo('{% hint %}'),
};
/** The few that CI's short run sends. */
export const shortShapes = ['nested brackets', 'flat brackets', 'unclosed emphasis', 'dotted words', 'at words', 'digits and spaces'];

function resolve(spec: Spec, schema: Schema | undefined, seen = 0): Schema {
  let current = schema ?? {};
  for (let hops = 0; typeof current.$ref === 'string' && hops < 20; hops += 1) {
    const [, , section, name] = (current.$ref as string).split('/');
    current = (spec.components[section!]?.[name!] as Schema | undefined) ?? {};
  }
  if (Array.isArray(current.allOf) && seen < 10) {
    const parts = (current.allOf as Schema[]).map((part) => resolve(spec, part, seen + 1));
    return {
      ...current,
      type: 'object',
      properties: Object.assign({}, ...parts.map((part) => part.properties ?? {})),
      required: parts.flatMap((part) => (part.required as string[] | undefined) ?? []),
    };
  }
  return current;
}

/** The schema with its first oneOf/anyOf branch folded in (what `sample` picks). */
function chosen(spec: Spec, schema: Schema | undefined): Schema {
  const resolved = resolve(spec, schema);
  const branch = (resolved.oneOf ?? resolved.anyOf) as Schema[] | undefined;
  return branch?.length ? chosen(spec, { ...resolved, oneOf: undefined, anyOf: undefined, ...resolve(spec, branch[0]) }) : resolved;
}

/**
 * A value for the schema: its required properties only (`all`: every property, to find where text
 * can go), the first branch of a oneOf/anyOf, one item of an array. `leaves` gets the paths of its
 * string leaves.
 */
function sample(spec: Spec, schema: Schema | undefined, options: { all: boolean }, path: string[] = [], leaves: string[][] = [], depth = 0): Json {
  const resolved = chosen(spec, schema);
  if (resolved.const !== undefined) return resolved.const as Json;
  if (Array.isArray(resolved.enum)) return resolved.enum[0] as Json;
  const type = Array.isArray(resolved.type) ? (resolved.type as string[]).find((t) => t !== 'null') : (resolved.type as string | undefined);
  if (type === 'object' || resolved.properties) {
    if (depth > 5) return {};
    const required = new Set((resolved.required as string[] | undefined) ?? []);
    const out: Record<string, Json> = {};
    for (const [name, property] of Object.entries((resolved.properties ?? {}) as Record<string, Schema>)) {
      if (options.all || required.has(name)) out[name] = sample(spec, property, options, [...path, name], leaves, depth + 1);
    }
    return out;
  }
  if (type === 'array') return depth > 5 ? [] : [sample(spec, resolved.items as Schema, options, [...path, '0'], leaves, depth + 1)];
  if (type === 'integer' || type === 'number') return (resolved.minimum as number | undefined) ?? 1;
  if (type === 'boolean') return false;
  if (type === 'string') {
    if (resolved.format === 'date-time') return '2026-01-01T00:00:00.000Z';
    if (resolved.format === 'email') return 'someone@example.com';
    if (resolved.format === 'uri') return 'https://example.com/';
    leaves.push(path);
    return 'text';
  }
  return null;
}

/** The minimal body with `payload` at `path`, and what leads to it filled with its own required properties. */
function withPayload(spec: Spec, schema: Schema, body: Json, path: string[], payload: string): Json {
  const copy = structuredClone(body) as Record<string, Json>;
  let node: Record<string, Json> = copy;
  let at = chosen(spec, schema);
  for (const [index, key] of path.entries()) {
    const next = key === '0' ? (at.items as Schema) : ((at.properties as Record<string, Schema> | undefined)?.[key] ?? {});
    if (index === path.length - 1) {
      node[key] = payload;
      break;
    }
    if (node[key] === undefined || node[key] === null) node[key] = sample(spec, next, { all: false });
    node = node[key] as Record<string, Json>;
    at = chosen(spec, next);
  }
  return copy;
}

/** `depth` arrays in arrays, as JSON text. */
const deepJson = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

export async function slowInputPhase(
  spec: Spec,
  base: string,
  token: string,
  parameters: Record<string, string>,
  options: { short: boolean; log: (line: string) => void },
): Promise<{ sent: number; slow: SlowAnswer[] }> {
  const wanted = options.short ? shortShapes : Object.keys(shapes);
  const slow: SlowAnswer[] = [];
  let sent = 0;
  const timed = async (operation: string, where: string, shape: string, method: string, path: string, body: string) => {
    const started = performance.now();
    let status: number | string;
    try {
      const response = await fetch(base + path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(60_000) });
      const text = await response.text();
      status = response.status;
      if (process.env.QUIRE_FUZZ_SLOW_TRACE && status === 400) console.error(`400 ${operation} ${where}: ${text.slice(0, 200)}`);
    } catch (error) {
      status = (error as Error).name;
    }
    const ms = performance.now() - started;
    sent += 1;
    if (ms > answerLimitMs || status === 500) slow.push({ operation, where, shape, ms: Math.round(ms), status });
    if (process.env.QUIRE_FUZZ_SLOW_TRACE) console.error(`${status} ${Math.round(ms)}ms ${operation} ${where} ${shape}`);
  };
  for (const [template, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['post', 'put', 'patch'].includes(method)) continue;
      const op = operation as { operationId: string; requestBody?: { content?: Record<string, { schema?: Schema }> } };
      const schema = op.requestBody?.content?.['application/json']?.schema;
      if (!schema) continue;
      const path = template.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(parameters[name] ?? 'missing'));
      const leaves: string[][] = [];
      sample(spec, schema, { all: true }, [], leaves);
      const minimal = sample(spec, schema, { all: false });
      for (const leaf of options.short ? leaves.slice(0, 4) : leaves) {
        for (const shape of wanted) await timed(op.operationId, leaf.join('.'), shape, method.toUpperCase(), path, JSON.stringify(withPayload(spec, schema, minimal, leaf, shapes[shape]!())));
      }
      await timed(op.operationId, 'the body', 'deep JSON', method.toUpperCase(), path, deepJson(100_000));
    }
  }
  options.log(`slow inputs: ${sent} requests, ${slow.length} over ${answerLimitMs} ms or failing`);
  return { sent, slow };
}
