import { allPages } from '../allPages.js';
import { buildTree } from './buildTree.js';
import type { Change } from '../change.js';
import { listTree } from './listTree.js';
import { mergeText } from './mergeText.js';
import { readBlob } from '../objects/readBlob.js';
import { readCommit } from '../objects/readCommit.js';
import { locate, treeOf, type TreePage } from '../pageTree.js';
import { treeChanges } from '../pageTreeFiles.js';
import { readRevision, type Revision, type RevisionPage } from '../readRevision.js';
import type { Repository } from '../repository.js';

export type PageConflictReason = 'content' | 'edited-and-deleted' | 'moved-apart' | 'renamed-apart';

export interface PageConflict {
  pageId: string;
  title: string;
  reason: PageConflictReason;
}

export interface PageMergeInput {
  repo: Repository;
  base: string;
  ours: string;
  theirs: string;
  /** The tree `mergeTrees` made of the three: what it merged outside the pages is kept. */
  filesTree: string;
  /** A side chosen for a page whose changes conflict. */
  resolve?: (pageId: string) => 'ours' | 'theirs' | undefined;
}

interface Placed {
  page: RevisionPage;
  parent: string | null;
  /** The sibling just before it, if any. */
  previous: string | null;
}

function placesOf(revision: Revision): Map<string, Placed> {
  const places = new Map<string, Placed>();
  const visit = (pages: RevisionPage[], parent: string | null) =>
    pages.forEach((page, index) => {
      places.set(page.id, { page, parent, previous: index > 0 ? pages[index - 1]!.id : null });
      visit(page.pages, page.id);
    });
  visit(revision.pages, null);
  return places;
}

const contentOf = (page: RevisionPage) => JSON.stringify([page.title, page.slug, page.meta, page.markdown ?? null, page.href ?? null]);
const fromRevision = (page: RevisionPage): TreePage => ({
  id: page.id,
  kind: page.kind,
  title: page.title,
  slug: page.slug,
  meta: { ...page.meta },
  ...(page.markdown !== undefined ? { body: page.markdown } : {}),
  ...(page.href !== undefined ? { href: page.href } : {}),
  relocated: true,
  dirty: true,
  pages: [],
});

/** Three-way merge of one value: a side that left it as in the base takes the other's; both changed differently is a conflict (undefined). */
function pick<T>(base: T, ours: T, theirs: T): { value: T } | undefined {
  const key = (value: T) => JSON.stringify(value ?? null);
  if (key(ours) === key(theirs) || key(base) === key(theirs)) return { value: ours };
  if (key(base) === key(ours)) return { value: theirs };
  return undefined;
}

/**
 * The page-structure merge, for when both sides changed the table of contents or pages were added,
 * moved or deleted: pages are matched by id, so additions, moves and retitles of different pages
 * all land; each page's attributes merge three-way, its metadata key by key and its body line by
 * line. SUMMARY.md is written from the merged tree, never merged as text. Pages edited on one side
 * and deleted on the other, moved to different parents, or with clashing edits are conflicts,
 * unless `resolve` chose a side for them. Returns the merged tree, or the conflicts.
 */
export async function mergePages(input: PageMergeInput): Promise<{ tree: string } | { conflicts: PageConflict[] }> {
  const { repo } = input;
  const [base, ours, theirs] = await Promise.all([readRevision(repo, input.base), readRevision(repo, input.ours), readRevision(repo, input.theirs)]);
  const [b, o, t] = [placesOf(base), placesOf(ours), placesOf(theirs)];
  const merged = treeOf(ours);
  const conflicts: PageConflict[] = [];
  const conflict = (page: RevisionPage, reason: PageConflictReason) => conflicts.push({ pageId: page.id, title: page.title, reason });
  const childrenOf = (parent: string | null) => (parent ? locate(merged, parent)?.page.pages : undefined) ?? merged;
  const placeAfter = (page: TreePage, parent: string | null, previous: string | null) => {
    const siblings = childrenOf(parent);
    const after = previous === null ? -1 : siblings.findIndex((sibling) => sibling.id === previous);
    siblings.splice(previous === null ? 0 : after === -1 ? siblings.length : after + 1, 0, page);
  };
  const remove = (id: string) => {
    const place = locate(merged, id);
    if (!place) return;
    // Subpages our side added under a page their side deleted stay, where the page was.
    const kept = place.page.pages.filter((child) => !b.has(child.id) || (o.has(child.id) && t.has(child.id)));
    place.siblings.splice(place.index, 1, ...kept.map((child) => ({ ...child, relocated: true })));
  };

  // Their new pages, parents first (tree order), each after the sibling it follows on their side.
  for (const page of allPages(theirs.pages)) {
    if (b.has(page.id) || o.has(page.id)) continue;
    const place = t.get(page.id)!;
    placeAfter(fromRevision(page), place.parent, place.previous);
  }

  for (const [id, was] of b) {
    const mine = o.get(id);
    const their = t.get(id);
    const side = input.resolve?.(id);
    if (!mine && !their) continue;
    if (mine && !their) {
      if (contentOf(mine.page) === contentOf(was.page) || side === 'theirs') remove(id);
      else if (side !== 'ours') conflict(mine.page, 'edited-and-deleted');
      continue;
    }
    if (!mine && their) {
      if (contentOf(their.page) === contentOf(was.page) || side === 'ours') continue;
      if (side === 'theirs') placeAfter({ ...fromRevision(their.page), pages: [] }, their.parent, their.previous);
      else conflict(their.page, 'edited-and-deleted');
      continue;
    }
    const place = locate(merged, id)!;
    const page = place.page;
    const mineNow = mine!;
    const theirNow = their!;
    if (side === 'ours') continue;
    const parent = side === 'theirs' ? { value: theirNow.parent } : pick(was.parent, mineNow.parent, theirNow.parent);
    if (!parent) {
      conflict(mineNow.page, 'moved-apart');
      continue;
    }
    if (parent.value !== mineNow.parent) {
      place.siblings.splice(place.index, 1);
      page.relocated = true;
      placeAfter(page, parent.value, theirNow.previous);
    }
    const title = side === 'theirs' ? { value: theirNow.page.title } : pick(was.page.title, mineNow.page.title, theirNow.page.title);
    const slug = side === 'theirs' ? { value: theirNow.page.slug } : pick(was.page.slug, mineNow.page.slug, theirNow.page.slug);
    if (!title || !slug) {
      conflict(mineNow.page, 'renamed-apart');
      continue;
    }
    page.title = title.value;
    if (slug.value !== page.slug) Object.assign(page, { slug: slug.value, relocated: true });
    const meta: Record<string, unknown> = {};
    let clash = false;
    for (const key of new Set([...Object.keys(was.page.meta), ...Object.keys(mineNow.page.meta), ...Object.keys(theirNow.page.meta)])) {
      const value = side === 'theirs' ? { value: theirNow.page.meta[key] } : pick(was.page.meta[key], mineNow.page.meta[key], theirNow.page.meta[key]);
      if (!value) clash = true;
      else if (value.value !== undefined) meta[key] = value.value;
    }
    const body = side === 'theirs' ? theirNow.page.markdown : mineNow.page.markdown === undefined ? undefined : mergeText(was.page.markdown ?? '', mineNow.page.markdown, theirNow.page.markdown ?? '');
    const href = side === 'theirs' ? { value: theirNow.page.href } : pick(was.page.href, mineNow.page.href, theirNow.page.href);
    if (clash || body === null || !href) {
      conflict(mineNow.page, 'content');
      continue;
    }
    if (JSON.stringify(meta) !== JSON.stringify(page.meta) || body !== page.body) Object.assign(page, { meta, body, dirty: true });
    if (href.value !== undefined) page.href = href.value;
  }
  if (conflicts.length) return { conflicts };

  const { changes } = treeChanges(ours, merged);
  const [oursTree, filesTree] = await Promise.all([readCommit(repo, input.ours).then((commit) => listTree(repo, commit.tree)), listTree(repo, input.filesTree)]);
  const pageFiles = new Set([base, ours, theirs].flatMap((revision) => allPages(revision.pages).flatMap((page) => (page.file ? [page.file] : []))));
  const written = new Set(changes.map((change) => change.path));
  const others: Change[] = [];
  for (const [path, item] of filesTree) {
    if (pageFiles.has(path) || path === 'SUMMARY.md' || written.has(path) || item.type !== 'blob' || oursTree.get(path)?.oid === item.oid) continue;
    others.push({ path, content: await readBlob(repo, item.oid) });
  }
  for (const path of oursTree.keys()) if (!filesTree.has(path) && !pageFiles.has(path) && path !== 'SUMMARY.md' && !written.has(path)) others.push({ path, remove: true });
  const oursCommit = await readCommit(repo, input.ours);
  return { tree: await buildTree(repo, oursCommit.tree, [...changes, ...others]) };
}
