import type { DocumentNode } from '../../engine/index.js';

/**
 * The specification an OpenAPI block draws from, as PublishedDocument's `specs` key it: `slug:<slug>`
 * for a registered one (`openapi-operation`, `openapi-schemas`), `url:<source URL>` for one a
 * `swagger` block names by its URL; undefined for any other node.
 */
export function openapiSpecKey(node: DocumentNode): string | undefined {
  const ref = (node.data as { ref?: { kind?: string; spec?: string; url?: string } } | undefined)?.ref;
  if ((node.type === 'openapi-operation' || node.type === 'openapi-schemas') && ref?.kind === 'openapi' && ref.spec) return `slug:${ref.spec.toLowerCase()}`;
  if (node.type === 'swagger' && ref?.kind === 'url' && ref.url) return `url:${ref.url}`;
  return undefined;
}
