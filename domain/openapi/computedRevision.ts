import { createHash } from 'node:crypto';
import type { Document } from '../../engine/index.js';
import type { Database } from '../../storage/db.js';
import { slugify } from '../../engine/index.js';
import { invalidInput } from '../common/errors.js';
import { computeDocument, processedSpecOf, type ComputedDocumentSource } from './computedDocument.js';

/** What `getComputedRevision` computes from: a `builtin:openapi` revision source. */
export interface ComputedRevisionSource {
  type: string;
  dependencies?: ComputedDocumentSource['dependencies'];
  props?: { models?: boolean; downloadLink?: boolean; grouping?: string };
}

/** A page of a computed revision: its place, and the computed document it shows. */
export interface ComputedPage {
  id: string;
  title: string;
  slug: string;
  /** The source of its document (getComputedDocument computes the same from it), and its seed. */
  computed: ComputedDocumentSource;
  seed: string;
  document: Document;
}

/**
 * The pages GitBook generates from an OpenAPI specification, computed from the organization's
 * processed version: one page per tag (its operations, in the order the spec lists its tags, then
 * the order operations name the others), and a "Models" page when `props.models` asks for it. Ids
 * and keys come from `seed`, so the same request computes the same revision. Operations without a
 * tag have no page; `grouping: by-operation` is refused (Quire groups by tag).
 */
export async function computeRevision(deps: { db: Database }, organizationId: string, source: ComputedRevisionSource, seed: string, options: { publicOnly: boolean }): Promise<ComputedPage[]> {
  if (source.type !== 'builtin:openapi') throw invalidInput(`Computed revisions from "${source.type}" sources are not supported: Quire computes "builtin:openapi" ones`);
  if (source.props?.grouping === 'by-operation') throw invalidInput('"source.props.grouping": Quire groups computed OpenAPI pages by tag ("by-tag")');
  const { spec } = await processedSpecOf(deps, organizationId, source, options);
  const tags = tagsOf(spec);
  const pages: ComputedPage[] = [];
  const page = async (title: string, props: ComputedDocumentSource['props']) => {
    const computed: ComputedDocumentSource = { type: source.type, ...(source.dependencies ? { dependencies: source.dependencies } : {}), props };
    const pageSeed = `${seed}:${title}`;
    pages.push({ id: idOf(pageSeed), title, slug: slugify(title) || 'page', computed, seed: pageSeed, document: await computeDocument(deps, organizationId, computed, pageSeed, options) });
  };
  for (const tag of tags) await page(tag, { doc: 'operations', page: tag });
  if (source.props?.models) await page('Models', { doc: 'models' });
  return pages;
}

const idOf = (seed: string) => createHash('sha1').update(`page:${seed}`).digest('base64url').slice(0, 20);
const objectOf = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/** The spec's tags that operations use: in the order `tags` lists them, then in the order operations name the rest. */
function tagsOf(spec: Record<string, unknown>): string[] {
  const used = new Set<string>();
  for (const item of Object.values(objectOf(spec.paths))) {
    for (const operation of Object.values(objectOf(item))) {
      for (const tag of Array.isArray(objectOf(operation).tags) ? (objectOf(operation).tags as unknown[]) : []) if (typeof tag === 'string' && tag) used.add(tag);
    }
  }
  const declared = (Array.isArray(spec.tags) ? spec.tags : []).map((entry) => objectOf(entry).name).filter((name): name is string => typeof name === 'string' && used.has(name));
  return [...new Set([...declared, ...used])];
}
