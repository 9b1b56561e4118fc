import type { ContentRef, LinkUse, RevisionPage } from '../../engine/index.js';
import { presentFile, presentPage, type RevisionView } from './revision.js';

/** What every content location of one space shares: the space and its organization, presented once. */
export interface LocationContext {
  view: RevisionView;
  space: Record<string, unknown>;
  organization: Record<string, unknown>;
  /** Links to this prefix point into the app itself: `in-app`. */
  appPrefix: string;
}

export type LinkStatus = 'ok' | 'broken' | 'in-app';

export function linkStatus(use: LinkUse, context: LocationContext): LinkStatus {
  if (use.broken) return 'broken';
  if (use.ref.kind === 'url' && use.ref.url.startsWith(context.appPrefix)) return 'in-app';
  return 'ok';
}

export function pageLocation(context: LocationContext, page: RevisionPage, anchor?: string) {
  return {
    kind: 'page' as const,
    organization: context.organization,
    page: presentPage(context.view, { ...page, pages: [] }, 'markdown'),
    space: context.space,
    ...(anchor ? { internalLocation: { type: 'anchor' as const, anchor } } : {}),
  };
}

/** Where a link points, as a ContentLocation (undefined for a page or file the revision doesn't have). */
export function targetLocation(context: LocationContext, ref: ContentRef, from: RevisionPage) {
  const pages = context.view.byFile;
  switch (ref.kind) {
    case 'url':
      return { kind: 'url' as const, url: ref.url };
    case 'file': {
      const file = context.view.revision.files.find((candidate) => candidate.id === ref.file);
      return file && { kind: 'file' as const, organization: context.organization, space: context.space, file: presentFile(context.view, file) };
    }
    case 'page':
    case 'anchor': {
      const pageId = ref.kind === 'page' ? ref.page : (ref.page ?? from.id);
      const page = [...pages.values()].find((candidate) => candidate.id === pageId) ?? (pageId === from.id ? from : undefined);
      return page && pageLocation(context, page, ref.kind === 'anchor' ? ref.anchor : undefined);
    }
  }
}

export const refKey = (ref: ContentRef) => JSON.stringify(ref);

/** Link uses grouped by where they point: one usage per target, with every page that links there. */
export function presentUsages(context: LocationContext, uses: LinkUse[]) {
  const byTarget = new Map<string, { status: LinkStatus; uses: LinkUse[] }>();
  for (const use of uses) {
    const key = refKey(use.ref);
    const entry = byTarget.get(key) ?? { status: linkStatus(use, context), uses: [] };
    entry.uses.push(use);
    byTarget.set(key, entry);
  }
  return [...byTarget.entries()].map(([key, { status, uses: group }], rank) => {
    const target = targetLocation(context, group[0]!.ref, group[0]!.from);
    const locations = [...new Map(group.map((use) => [use.from.id, use.from])).values()].map((page) => pageLocation(context, page));
    return { key, rank, status, usage: { status, relation: 'reference' as const, ...(target ? { targetReference: target } : {}), locationReferences: locations } };
  });
}
