import { derivedContentId } from '../ids.js';
import type { SummaryEntry, SummaryGroup } from '../layout/summary.js';
import type { TreeItem } from '../listTree.js';
import type { RevisionPage } from '../readRevision.js';
import type { Repository } from '../repository.js';
import { slugify } from '../slugify.js';
import { readPageFile } from './pageFiles.js';

const validId = /^[A-Za-z0-9_-]{1,64}$/;

/** Builds a revision's pages from its summary entries, giving each page a unique id. */
export class PageBuilder {
  private readonly seen = new Set<string>();
  constructor(
    private readonly repo: Repository,
    private readonly listing: Map<string, TreeItem>,
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

  async entries(entries: SummaryEntry[]): Promise<RevisionPage[]> {
    const pages: RevisionPage[] = [];
    for (const entry of entries) {
      const page = await this.entry(entry);
      if (page) pages.push(page);
      else pages.push(...(await this.entries(entry.children)));
    }
    return pages;
  }

  private async entry(entry: SummaryEntry): Promise<RevisionPage | undefined> {
    if (/^[a-z][a-z0-9+.-]*:/i.test(entry.target)) {
      const slug = slugify(entry.title);
      return { id: this.uniqueId(entry.id, `link:${entry.target}:${entry.title}`, 'page'), kind: 'link', title: entry.title, path: slug, slug, href: entry.target, meta: {}, pages: [] };
    }
    const file = entry.target.replace(/^(\.\/|\/)+/, ''); // the summary reader has dropped any #fragment
    const item = this.listing.get(file);
    if (!item || item.type !== 'blob') return undefined; // an entry whose file is missing shows no page (its children move up)
    const parsed = await readPageFile(this.repo, item.oid);
    const { pageId, ...meta } = parsed.meta;
    const path = file === 'README.md' ? '' : file.replace(/\/README\.md$/, '').replace(/\.md$/, '');
    const slug = path.split('/').pop() ?? '';
    const title = entry.title || headingTitle(parsed.body) || slug || 'Untitled';
    return {
      id: this.uniqueId(pageId, file, 'page'),
      kind: 'document',
      title,
      path,
      slug,
      file,
      oid: item.oid,
      meta,
      markdown: parsed.body,
      pages: await this.entries(entry.children),
    };
  }
}

/** The text of the first `# ` heading, trailing `#`s and spaces removed by hand (no backtracking regex). */
function headingTitle(markdown: string): string | undefined {
  const line = /^#[ \t]+([^\n]*)$/m.exec(markdown)?.[1];
  if (line === undefined) return undefined;
  let end = line.length;
  while (end > 0 && (line[end - 1] === '#' || line[end - 1] === ' ' || line[end - 1] === '\t')) end -= 1;
  return line.slice(0, end) || undefined;
}
