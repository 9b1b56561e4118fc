import path from 'node:path';
import type { Revision, RevisionPage } from './readRevision.js';

/** What a link in a page points at, as the API's ContentRef. */
export type ContentRef =
  | { kind: 'page'; page: string; space?: string }
  | { kind: 'file'; file: string; space?: string }
  | { kind: 'anchor'; anchor: string; page?: string; space?: string }
  | { kind: 'reusable-content'; reusableContent: string; space?: string }
  | { kind: 'url'; url: string };

function safeDecode(target: string): string {
  try {
    return decodeURI(target);
  } catch {
    return target; // a stray % is part of the name
  }
}

const indexes = new WeakMap<Revision, Map<string, RevisionPage>>();

/** Every page of a revision by its markdown file, for resolving relative links; built once per revision. */
export function pagesByFile(revision: Revision): Map<string, RevisionPage> {
  const known = indexes.get(revision);
  if (known) return known;
  const byFile = new Map<string, RevisionPage>();
  indexes.set(revision, byFile);
  const visit = (pages: RevisionPage[]) => {
    for (const page of pages) {
      if (page.file) byFile.set(page.file, page);
      visit(page.pages);
    }
  };
  visit(revision.pages);
  return byFile;
}

/**
 * Resolves a link written in `fromFile`: relative paths to the revision's pages, files and reusable contents,
 * `#anchors`, and anything else as a URL. `broken` says a relative target isn't in the revision.
 */
export function resolveLink(revision: Revision, byFile: Map<string, RevisionPage>, fromFile: string, target: string): { ref: ContentRef; broken: boolean } {
  if (target.startsWith('#')) return { ref: { kind: 'anchor', anchor: target.slice(1) }, broken: false };
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return { ref: { kind: 'url', url: target }, broken: false };
  const [file = '', anchor] = safeDecode(target).split('#');
  // `/x.md` is from the space's root; anything else from the linking page's folder.
  const base = file.startsWith('/') ? '' : path.posix.dirname(fromFile);
  // Above the root is the root, as for URLs: GitBook writes `../.gitbook/includes/…` from top-level pages too.
  const resolved = path.posix
    .normalize(path.posix.join(base, file))
    .replace(/^\/+/, '')
    .replace(/^(?:\.\.\/)+/, '');
  const page = byFile.get(resolved) ?? byFile.get(path.posix.join(resolved, 'README.md'));
  if (page) return { ref: anchor ? { kind: 'anchor', anchor, page: page.id } : { kind: 'page', page: page.id }, broken: false };
  const asset = revision.files.find((candidate) => candidate.path === resolved);
  if (asset) return { ref: { kind: 'file', file: asset.id }, broken: false };
  const included = revision.reusableContents.find((candidate) => candidate.path === resolved);
  if (included) return { ref: { kind: 'reusable-content', reusableContent: included.id }, broken: false };
  return { ref: { kind: 'url', url: target }, broken: true };
}

/**
 * A content reference of a page's Document as the page wrote it (a target written as a path is a
 * `url` reference until resolved), resolved against the revision from `fromFile`.
 */
export function resolveWrittenRef(revision: Revision, fromFile: string, ref: Record<string, unknown>): ContentRef {
  return ref.kind === 'url' ? resolveLink(revision, pagesByFile(revision), fromFile, String(ref.url ?? '')).ref : (ref as unknown as ContentRef);
}
