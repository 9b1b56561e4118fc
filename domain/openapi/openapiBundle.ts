import { createHash } from 'node:crypto';
import type SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';
import type { OpenAPIErrorCode, OpenAPIProblem, OpenAPISource } from '../../storage/openapi.js';
import { addDescriptionHtml } from './descriptionHtml.js';
import { outboundFetch, OutboundFetchError, type OutboundFetchOptions } from '../common/outboundFetch.js';

/** Why processing failed: the upstream error code, each problem, and whether trying again can help. */
export class OpenAPIProcessingError extends Error {
  constructor(
    readonly code: OpenAPIErrorCode,
    readonly problems: OpenAPIProblem[],
    readonly transient: boolean,
  ) {
    super(
      problems
        .slice(0, 50)
        .map((problem) => problem.message)
        .join('; '),
    );
  }
}

export interface BundledSpec {
  /** The bundled specification, one file holding every `$ref`'d document's parts, descriptions also as HTML (addDescriptionHtml). */
  filesystem: { 'openapi.json': unknown };
  digest: string;
  /** The entry file's text as fetched or uploaded, and whether it parsed as JSON or YAML. */
  raw: { text: string; format: 'json' | 'yaml' };
}

/**
 * Fetches (through the outbound guard), parses (JSON or YAML), bundles (external `$ref`s fetched
 * through the guard too, relative to the source URL; local files never read) and validates an
 * OpenAPI 3.0, 3.1 or Swagger 2.0 specification.
 */
export async function bundleOpenAPI(source: OpenAPISource, fetchOptions: OutboundFetchOptions = {}): Promise<BundledSpec> {
  const base = 'url' in source ? source.url : 'https://openapi.invalid/openapi.json';
  const text = 'url' in source ? await fetchText(source.url, fetchOptions) : source.text;
  const { document: root, format } = parseDocument(text, base);
  // swagger-parser wraps what a resolver throws in its own error: the first one is kept here, so
  // the spec records why a referenced file could not be had (and whether a retry may help).
  let refFailure: OpenAPIProcessingError | undefined;
  const options: SwaggerParser.Options = {
    resolve: {
      file: false,
      http: {
        order: 1,
        canRead: /^https?:\/\//i,
        read: async (file: { url: string }) => {
          try {
            if ('text' in source)
              throw new OpenAPIProcessingError('PARSE_ERROR', [{ message: `An uploaded specification can't refer to other files ($ref to ${file.url})`, code: 'external_ref' }], false);
            return await fetchText(file.url, fetchOptions);
          } catch (error) {
            if (error instanceof OpenAPIProcessingError) refFailure ??= error;
            throw error;
          }
        },
      },
    },
  } as SwaggerParser.Options;
  // Loaded by the first OpenAPI job, not at every start.
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  let bundled: unknown;
  try {
    bundled = await SwaggerParser.bundle(base, root as never, options);
  } catch (error) {
    throw refFailure ?? asProcessingError(error);
  }
  try {
    await SwaggerParser.validate(structuredClone(bundled) as never, { ...options, resolve: { external: false } } as SwaggerParser.Options);
  } catch (error) {
    throw asProcessingError(error);
  }
  addDescriptionHtml(bundled);
  const json = JSON.stringify(bundled);
  return { filesystem: { 'openapi.json': bundled }, digest: createHash('sha256').update(json).digest('hex'), raw: { text, format } };
}

async function fetchText(url: string, options: OutboundFetchOptions): Promise<string> {
  try {
    return (await outboundFetch(url, options)).body.toString('utf8');
  } catch (error) {
    if (!(error instanceof OutboundFetchError)) throw error;
    const permanent =
      error.code === 'scheme' || error.code === 'address' || error.code === 'too_large' || error.code === 'redirects' || (error.code === 'status' && error.status! < 500 && error.status !== 429);
    throw new OpenAPIProcessingError(error.code === 'timeout' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR', [{ message: error.message, code: error.code }], !permanent);
  }
}

function parseDocument(text: string, base: string): { document: unknown; format: 'json' | 'yaml' } {
  let document: unknown;
  let format: 'json' | 'yaml' = 'json';
  try {
    document = JSON.parse(text);
  } catch {
    // not JSON: YAML, below
    format = 'yaml';
  }
  try {
    document ??= parseYaml(text, { prettyErrors: true });
  } catch (error) {
    const linePos = (error as { linePos?: { line: number; col: number }[] }).linePos?.[0];
    const at = linePos ? `line ${linePos.line}, column ${linePos.col}` : base;
    throw new OpenAPIProcessingError('PARSE_ERROR', [{ message: `${at}: ${(error as Error).message.split('\n')[0]}`, code: 'syntax' }], false);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new OpenAPIProcessingError('PARSE_ERROR', [{ message: `${base} is not an OpenAPI document (expected an object at the top)`, code: 'syntax' }], false);
  }
  assertNesting(document, base);
  return { document, format };
}

/** How deep objects and arrays may nest in a specification: real ones stay far below; the parser and validator recurse. */
export const maxSpecificationDepth = 200;
const tooDeep = (where: string) =>
  new OpenAPIProcessingError('PARSE_ERROR', [{ message: `${where} nests objects and arrays deeper than the limit of ${maxSpecificationDepth} levels`, code: 'too_deep' }], false);

/** Measured with a stack, not recursion: the documents it guards are the ones that would overflow a recursive walk. */
function assertNesting(document: unknown, where: string): void {
  const stack: Array<[unknown, number]> = [[document, 0]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > maxSpecificationDepth) throw tooDeep(where);
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
}

/** swagger-parser's errors, one problem per schema violation with where it is. */
function asProcessingError(error: unknown): OpenAPIProcessingError {
  // A referenced file nesting past what the parser's recursion survives.
  if (error instanceof Error && /call stack size/i.test(error.message)) return tooDeep('The specification (with the files it refers to)');
  if (error instanceof OpenAPIProcessingError) return error;
  const inner = (error as { cause?: unknown }).cause;
  if (inner instanceof OpenAPIProcessingError) return inner;
  const details = (error as { details?: { instancePath?: string; message?: string; params?: Record<string, unknown> }[] }).details;
  if (Array.isArray(details) && details.length > 0) {
    return new OpenAPIProcessingError(
      'PARSE_ERROR',
      details.map((detail) => ({ message: `at ${detail.instancePath || '/'}: ${detail.message ?? 'invalid'}${detail.params ? ' ' + JSON.stringify(detail.params) : ''}`, code: 'schema' })),
      false,
    );
  }
  return new OpenAPIProcessingError('PARSE_ERROR', [{ message: (error as Error).message.replace(/^Validation failed\. /, ''), code: 'invalid' }], false);
}
