import { derivedContentId } from '../internal/ids.js';
import type { SummaryEntry, SummaryGroup } from '../layout/summary.js';
import type { TreeItem } from '../internal/listTree.js';
import type { RevisionPage } from '../readRevision.js';
import type { PageFile } from '../layout/pageFile.js';
import { slugify } from '../slugify.js';

const validId = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Builds a revision's pages from its summary entries, giving each page a unique id, from the
 * markdown files parsed beforehand (`loadPageFiles`, every `.md` blob of the listing): a
 * thousand pages are built in one go, not one awaited read after another.
 */
export class PageBuilder {
  private readonly seen = new Set<string>();
  constructor(
    private readonly listing: Map<string, TreeItem>,
    private readonly pageFiles: Map<string, PageFile>,
    /** The document pages of the parent commit's revision, by file, when it is at hand: unchanged ones are reused as they are. */
    private readonly previous?: Map<string, RevisionPage>,
  ) {}

  /** Ids are unique in a revision: a copied file's id goes to the first page that has it. */
  private uniqueId(wanted: unknown, fallbackKey: string, kind: 'page' | 'group'): string {
    let id = typeof wanted === 'string' && validId.test(wanted) && !this.seen.has(wanted) ? wanted : derivedContentId(kind, fallbackKey);
    // The same file listed twice, or two groups of one title: later ones get the next derived id.
    for (let copy = 2; this.seen.has(id); copy += 1) id = derivedContentId(kind, `${fallbackKey}#${copy}`);
    this.seen.add(id);
    return id;
  }

  group(group: SummaryGroup, pages: RevisionPage[]): RevisionPage {
    const title = group.title ?? '';
    const slug = slugify(title);
    return { id: this.uniqueId(group.id, `group:${title}`, 'group'), kind: 'group', title, path: slug, slug, meta: {}, pages };
  }

  entries(entries: SummaryEntry[]): RevisionPage[] {
    const pages: RevisionPage[] = [];
    for (const entry of entries) {
      const page = this.entry(entry);
      if (page) pages.push(page);
      else pages.push(...this.entries(entry.children));
    }
    return pages;
  }

  private entry(entry: SummaryEntry): RevisionPage | undefined {
    const file = fileOfEntry(entry);
    if (file === null) {
      const slug = slugify(entry.title);
      return { id: this.uniqueId(entry.id, `link:${entry.target}:${entry.title}`, 'page'), kind: 'link', title: entry.title, path: slug, slug, href: entry.target, meta: {}, pages: [] };
    }
    const item = this.listing.get(file);
    if (!item || item.type !== 'blob') return undefined; // an entry whose file is missing shows no page (its children move up)
    const parsed = this.pageFiles.get(item.oid);
    if (!parsed) throw new Error(`${file}: its page file was not loaded`);
    const id = this.uniqueId(parsed.meta.pageId, file, 'page');
    const pages = this.entries(entry.children);
    // The same file, bytes, id, title and subpages as in the parent commit: the very same page.
    const before = this.previous?.get(file);
    if (before && before.oid === item.oid && before.id === id && entry.title && before.title === entry.title && samePages(before.pages, pages)) return before;
    const { pageId: _pageId, ...meta } = parsed.meta;
    const path = file === 'README.md' ? '' : file.replace(/\/README\.md$/, '').replace(/\.md$/, '');
    const slug = path.split('/').pop() ?? '';
    const title = entry.title || headingTitle(parsed.body) || slug || 'Untitled';
    return { id, kind: 'document', title, path, slug, file, oid: item.oid, meta, markdown: parsed.body, pages };
  }
}

/**
 * The repository path an entry names, or null for a link elsewhere; kept per entry, as a summary
 * read once (cached by its blob id) is built into every revision that has it.
 */
const entryFiles = new WeakMap<SummaryEntry, string | null>();
function fileOfEntry(entry: SummaryEntry): string | null {
  let file = entryFiles.get(entry);
  if (file === undefined) {
    file = /^[a-z][a-z0-9+.-]*:/i.test(entry.target) ? null : entry.target.replace(/^(\.\/|\/)+/, ''); // the summary reader has dropped any #fragment
    entryFiles.set(entry, file);
  }
  return file;
}

const samePages = (a: RevisionPage[], b: RevisionPage[]) => a.length === b.length && a.every((page, index) => page === b[index]);

/** The text of the first `# ` heading, trailing `#`s and spaces removed by hand (no backtracking regex). */
function headingTitle(markdown: string): string | undefined {
  const line = /^#[ \t]+([^\n]*)$/m.exec(markdown)?.[1];
  if (line === undefined) return undefined;
  let end = line.length;
  while (end > 0 && (line[end - 1] === '#' || line[end - 1] === ' ' || line[end - 1] === '\t')) end -= 1;
  return line.slice(0, end) || undefined;
}
