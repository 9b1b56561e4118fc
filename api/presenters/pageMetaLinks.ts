import type { PageMetaLinks } from '../../domain/spaces/index.js';

/** Upstream's RevisionPageMetaLinks (0.202.0): targets are content refs, as upstream has them. */
export function presentPageMetaLinks(links: PageMetaLinks) {
  return { ...(links.canonical ? { canonical: links.canonical } : {}), alternates: links.alternates };
}
