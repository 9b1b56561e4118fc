import { InvalidChangeError } from './errors/index.js';
import { newContentId } from './internal/ids.js';
import { parsePageFile } from './layout/pageFile.js';
import { revertBlocks } from './markdown/revertBlocks.js';
import { splitTitleHeading } from './markdown/titleHeading.js';
import { locate, subtree, treeOf, type TreePage } from './pageTree.js';
import type { Revision } from './readRevision.js';
import { slugify } from './slugify.js';

/** Page metadata an insert or update may set (upstream `RevisionPageUpdate`), kept in the frontmatter. */
export interface PageFields {
  title?: string;
  slug?: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  condition?: string;
}

/** A page's new content as markdown (frontmatter allowed), or none to leave it (or start it empty). */
export interface PageContent {
  markdown?: string;
}

const metaFields = ['emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'condition'] as const;

/** Thrown for a change that can't apply, naming it by its place in the batch. */
const refuse = (message: string) => new InvalidChangeError('', message);

/** The `# ` heading that opens a page's body, if any. */
function leadingHeading(body: string): string | undefined {
  const first = body.replace(/^\s+/, '').split('\n', 1)[0] ?? '';
  // `(.+)` then a trim loop: a lazy `(.+?)[ \t#]*$` is quadratic on a long run of spaces.
  const match = /^#[ \t]+(.+)$/.exec(first);
  if (!match) return undefined;
  let end = match[1]!.length;
  while (end > 0 && ' \t#'.includes(match[1]![end - 1]!)) end -= 1;
  return match[1]!.slice(0, end) || undefined;
}

/** Sets fields and content on a page: frontmatter and the leading heading win over `fields.title`, as Git Sync reads them. */
function applyFields(page: TreePage, fields: PageFields, content: PageContent | undefined): void {
  for (const key of metaFields) {
    const value = fields[key];
    if (value === undefined) continue;
    if (value === '') delete page.meta[key];
    else page.meta[key] = value;
    page.dirty = true;
  }
  if (fields.title !== undefined) page.title = fields.title;
  if (content?.markdown !== undefined) {
    const parsed = parsePageFile(content.markdown);
    const { pageId: _ignored, title, ...meta } = parsed.meta;
    page.meta = { ...page.meta, ...meta };
    page.body = parsed.body;
    page.dirty = true;
    const titled = typeof title === 'string' && title.trim() ? title.trim() : leadingHeading(parsed.body);
    if (titled) page.title = titled;
  }
  if (page.kind === 'document' && (fields.title !== undefined || content?.markdown !== undefined)) {
    const body = withHeading(page.body ?? '', page.title);
    if (body !== page.body) Object.assign(page, { body, dirty: true });
  }
}

/** The body opening with `# <title>`, as Git Sync writes a page (readers take the title from the summary, the heading is for git). */
function withHeading(body: string, title: string): string {
  const trimmed = body.replace(/^\s+/, '');
  if (leadingHeading(trimmed) !== undefined) return trimmed.replace(/^[^\n]*/, `# ${title}`);
  return `# ${title}\n${trimmed ? `\n${trimmed}` : ''}`;
}

function assertFreeSlug(siblings: TreePage[], slug: string, except: TreePage | null, where: string): void {
  if (siblings.some((sibling) => sibling !== except && sibling.kind === 'document' && sibling.slug === slug)) {
    throw refuse(`${where}: another page in the same parent already has the slug "${slug}"`);
  }
}

/**
 * The page edits of a change-request batch, applied one after another to a page tree read from
 * a revision. Each method throws InvalidChangeError (`where` names the change) when its change
 * can't apply; the caller commits nothing then.
 */
export class PageEdits {
  readonly pages: TreePage[];
  constructor(revision: Pick<Revision, 'pages'>) {
    this.pages = treeOf(revision);
  }

  find(id: string, where: string) {
    const place = locate(this.pages, id);
    if (!place) throw refuse(`${where}: page ${id} is not in the change request`);
    return place;
  }

  private childrenOf(parentId: string | null | undefined, where: string): TreePage[] {
    if (!parentId) return this.pages;
    const { page } = this.find(parentId, where);
    if (page.kind === 'link') throw refuse(`${where}: page ${parentId} is a link and can't hold pages`);
    return page.pages;
  }

  insert(input: PageFields & { into?: string; at?: number; content?: PageContent }, where: string): TreePage {
    const siblings = this.childrenOf(input.into, where);
    const page: TreePage = { id: newContentId(), kind: 'document', title: 'Untitled', slug: '', meta: {}, body: '', relocated: true, dirty: true, pages: [] };
    applyFields(page, input, input.content);
    if (input.slug !== undefined) assertFreeSlug(siblings, input.slug, null, where);
    page.slug = input.slug ?? this.freeSlug(siblings, slugify(page.title) || 'untitled');
    siblings.splice(Math.min(input.at ?? siblings.length, siblings.length), 0, page);
    return page;
  }

  update(id: string, input: PageFields & { into?: string | null; at?: number; content?: PageContent }, where: string): TreePage {
    const place = this.find(id, where);
    const { page } = place;
    if (input.content?.markdown !== undefined && page.kind !== 'document') throw refuse(`${where}: page ${id} is a ${page.kind}, which has no document`);
    applyFields(page, input, input.content);
    if (input.slug !== undefined && input.slug !== page.slug) {
      assertFreeSlug(place.siblings, input.slug, page, where);
      page.slug = input.slug;
      page.relocated = true;
    }
    if (input.into !== undefined || input.at !== undefined) this.move(place, input.into === undefined ? (place.parent?.id ?? null) : input.into, input.at, where);
    return page;
  }

  private move(place: NonNullable<ReturnType<typeof locate>>, into: string | null, at: number | undefined, where: string): void {
    const { page } = place;
    if (into !== null && subtree(page).some((inner) => inner.id === into)) throw refuse(`${where}: page ${page.id} can't move under itself or one of its subpages`);
    const siblings = this.childrenOf(into, where);
    const sameParent = siblings === place.siblings;
    place.siblings.splice(place.index, 1);
    const index = at ?? (sameParent ? place.index : siblings.length);
    siblings.splice(Math.min(index, siblings.length), 0, page);
    if (!sameParent) {
      if (page.kind === 'document') assertFreeSlug(siblings, page.slug, page, where);
      page.relocated = true;
    }
  }

  remove(id: string, where: string): void {
    const place = this.find(id, where);
    place.siblings.splice(place.index, 1);
  }

  /**
   * The page as it is in `base`: its title, metadata and document (a page added since is removed;
   * one deleted since comes back where it was, or at the root if its parent went too).
   */
  revert(id: string, base: Pick<Revision, 'pages'>, where: string): 'updated' | 'deleted' | 'created' {
    const baseTree = treeOf(base);
    const before = locate(baseTree, id);
    const now = locate(this.pages, id);
    if (!before) {
      if (!now) throw refuse(`${where}: page ${id} is neither in the change request nor in the revision reverted to`);
      now.siblings.splice(now.index, 1);
      return 'deleted';
    }
    if (now) {
      Object.assign(now.page, { title: before.page.title, meta: before.page.meta, body: before.page.body, href: before.page.href, dirty: true });
      return 'updated';
    }
    const present = new Set(
      subtree(before.page)
        .filter((inner) => locate(this.pages, inner.id))
        .map((inner) => inner.id),
    );
    const restore = (page: TreePage): TreePage => ({ ...page, file: undefined, relocated: true, dirty: true, pages: page.pages.filter((child) => !present.has(child.id)).map(restore) });
    const parent = before.parent && locate(this.pages, before.parent.id);
    const siblings = parent ? parent.page.pages : this.pages;
    siblings.splice(Math.min(before.index, siblings.length), 0, restore(before.page));
    return 'created';
  }

  /**
   * Reverts the listed blocks of the page's document to `base` (see `revertBlocks`), leaving its
   * other blocks, its title and its metadata as they are. A page not in `base` has every block
   * added since.
   */
  revertBlocks(id: string, base: Pick<Revision, 'pages'>, keys: readonly string[], where: string): 'updated' {
    const now = locate(this.pages, id);
    if (!now) throw refuse(`${where}: page ${id} is not in the change request: revert the whole page to restore it`);
    if (now.page.kind !== 'document') throw refuse(`${where}: page ${id} is a ${now.page.kind}, which has no document blocks`);
    const before = locate(treeOf(base), id)?.page;
    const { heading, text } = splitTitleHeading(now.page.body ?? '');
    const reverted = revertBlocks(text, before?.kind === 'document' ? splitTitleHeading(before.body ?? '').text : '', keys);
    if (reverted.unknown.length > 0) {
      throw refuse(`${where}: page ${id} has no block ${reverted.unknown.map((key) => `"${key}"`).join(', ')}, in the change request or in the revision reverted to`);
    }
    if (reverted.markdown !== text) Object.assign(now.page, { body: heading + reverted.markdown, dirty: true });
    return 'updated';
  }

  private freeSlug(siblings: TreePage[], wanted: string): string {
    let slug = wanted;
    for (let copy = 2; siblings.some((sibling) => sibling.slug === slug); copy += 1) slug = `${wanted}-${copy}`;
    return slug;
  }
}
