import { findPageByPath, type Revision, type RevisionPage } from '../../engine/index.js';

/** Where a meta link points: another page of the revision, or a URL (upstream's RevisionPageMetaLinkTarget). */
export type MetaLinkTarget = { kind: 'page'; page: string } | { kind: 'url'; url: string };

export interface PageMetaLinks {
  canonical?: MetaLinkTarget;
  alternates: MetaLinkTarget[];
}

const maxAlternates = 50;

/**
 * A page's meta links, from its frontmatter: `metaLinks: {canonical, alternates: […]}`, each an
 * http(s) URL or the path of another page of the revision. What names neither is left out (the
 * page was accepted when written; a link that leads nowhere is no link).
 */
export function pageMetaLinks(revision: Revision, page: RevisionPage): PageMetaLinks {
  const declared = page.meta.metaLinks;
  if (typeof declared !== 'object' || declared === null || Array.isArray(declared)) return { alternates: [] };
  const { canonical, alternates } = declared as { canonical?: unknown; alternates?: unknown };
  const canonicalTarget = targetOf(revision, canonical);
  const alternateTargets = (Array.isArray(alternates) ? alternates.slice(0, maxAlternates) : []).map((entry) => targetOf(revision, entry)).filter((target) => target !== undefined);
  return { ...(canonicalTarget ? { canonical: canonicalTarget } : {}), alternates: alternateTargets };
}

function targetOf(revision: Revision, entry: unknown): MetaLinkTarget | undefined {
  if (typeof entry !== 'string' || entry.length > 2048) return undefined;
  if (/^https?:\/\/\S+$/i.test(entry)) return { kind: 'url', url: entry };
  const page = findPageByPath(revision, entry.replace(/^\/+|\/+$/g, '').replace(/\.md$/, ''));
  return page ? { kind: 'page', page: page.id } : undefined;
}
