import { createHash } from 'node:crypto';
import type { Document, DocumentNode } from '../../engine/index.js';
import { findOpenAPISpec } from '../../storage/openapi.js';
import type { Database } from '../../storage/db.js';
import { invalidInput, missing } from '../common/errors.js';
import { normalizeSlug } from './openapi.js';
import { readProcessedSpec } from './processedSpecs.js';

/** What `getComputedDocument` computes from: upstream's `builtin:openapi` source (the others are refused). */
export interface ComputedDocumentSource {
  type: string;
  dependencies?: { spec?: { ref?: { kind?: string; spec?: string } } };
  props?: { doc?: string; page?: string };
}

/**
 * A Document computed from the organization's processed OpenAPI specification, as GitBook
 * generates OpenAPI pages: `info` (the spec's description), `operations` of one tag (an
 * `openapi-operation` block per operation tagged so, the tag's description first) and `models`
 * (one `openapi-schemas` block naming every schema). Block keys come from `seed`, so the same
 * request computes the same keys. `publicOnly`: a site token's call sees public specs only.
 */
export async function computeDocument(deps: { db: Database }, organizationId: string, source: ComputedDocumentSource, seed: string, options: { publicOnly: boolean }): Promise<Document> {
  if (source.type !== 'builtin:openapi') throw invalidInput(`Computed documents from "${source.type}" sources are not supported: Quire computes "builtin:openapi" ones`);
  const { spec, slug } = await processedSpecOf(deps, organizationId, source, options);
  const ref = { kind: 'openapi', spec: slug };
  const keys = keyMaker(seed);
  const paragraphs = (text: unknown): DocumentNode[] =>
    (typeof text === 'string' ? text : '')
      .split(/\n\s*\n/)
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => ({ object: 'block', type: 'paragraph', key: keys(), data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: part, marks: [] }] }] }));
  switch (source.props?.doc) {
    case 'info':
      return { object: 'document', data: {}, nodes: paragraphs(objectOf(spec.info).description) };
    case 'models': {
      const schemas = Object.keys(objectOf(objectOf(spec.components).schemas ?? spec.definitions));
      return { object: 'document', data: {}, nodes: schemas.length ? [{ object: 'block', type: 'openapi-schemas', key: keys(), isVoid: true, data: { ref, schemas, grouped: true } }] : [] };
    }
    case 'operations': {
      const tag = source.props.page ?? '';
      const operations = Object.entries(objectOf(spec.paths)).flatMap(([path, item]) =>
        Object.entries(objectOf(item))
          .filter(([method, operation]) => httpMethods.has(method) && Array.isArray(objectOf(operation).tags) && (objectOf(operation).tags as unknown[]).includes(tag))
          .map(([method]): DocumentNode => ({ object: 'block', type: 'openapi-operation', key: keys(), isVoid: true, data: { ref, path, method } })),
      );
      if (operations.length === 0) throw missing(`OpenAPI specification "${slug}" has no operation tagged "${tag}"`);
      const described = (Array.isArray(spec.tags) ? spec.tags : []).map(objectOf).find((entry) => entry.name === tag);
      return { object: 'document', data: {}, nodes: [...paragraphs(described?.description), ...operations] };
    }
    default:
      throw invalidInput('"source.props.doc" must be "info", "models" or "operations" (with "page": a tag)');
  }
}

/** The processed version of the OpenAPI specification a source's `dependencies.spec.ref` names (a site token's call: public ones only). */
export async function processedSpecOf(
  deps: { db: Database },
  organizationId: string,
  source: { dependencies?: ComputedDocumentSource['dependencies'] },
  options: { publicOnly: boolean },
): Promise<{ spec: Record<string, unknown>; slug: string }> {
  const slug = source.dependencies?.spec?.ref?.kind === 'openapi' ? (source.dependencies.spec.ref.spec ?? '') : '';
  if (!slug) throw invalidInput('"source.dependencies.spec.ref" must name an OpenAPI specification ({"kind": "openapi", "spec": "<slug>"})');
  const record = await findOpenAPISpec(deps.db, organizationId, normalizeSlug(slug));
  if (!record || (options.publicOnly && record.visibility !== 'public')) throw missing(`OpenAPI specification "${slug}" not found`);
  if (!record.lastVersionId) throw missing(`OpenAPI specification "${slug}" has no processed version yet`);
  return { spec: objectOf(await readProcessedSpec(deps, record.lastVersionId)), slug: record.slug };
}

const httpMethods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const objectOf = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/** Keys derived from the seed and the block's place: the same request, the same keys. */
function keyMaker(seed: string): () => string {
  let index = 0;
  return () =>
    createHash('sha1')
      .update(`${seed}:${(index += 1)}`)
      .digest('base64url')
      .slice(0, 12);
}
