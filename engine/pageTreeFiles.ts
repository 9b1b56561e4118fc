import type { Change } from './change.js';
import { renderPageFile } from './layout/pageFile.js';
import { renderSummary, type SummaryEntry, type SummaryGroup } from './layout/summary.js';
import { allPages } from './allPages.js';
import { everyPage, type TreePage } from './pageTree.js';
import type { Revision, RevisionPage } from './readRevision.js';
import { slugify } from './slugify.js';

/** The folder a page's subpages' files go in: `guide.md` → `guide`, `guide/README.md` → `guide`, `README.md` → the root. */
function folderOfFile(file: string): string {
  if (file === 'README.md') return '';
  if (file.endsWith('/README.md')) return file.slice(0, -'/README.md'.length);
  return file.replace(/\.md$/, '');
}

/**
 * The files of an edited page tree, as changes to the revision it was read from (Git Sync layout).
 * A page keeps its file unless it or an ancestor was relocated; a page that needs one gets
 * `<parent's folder>/<slug>.md` (with `-2`, `-3`… if taken). Only pages whose file or content
 * changed are written, and SUMMARY.md only when the structure it holds changed, so an untouched
 * page stays the same blob. Returns the changes and each document page's file (`fileOf`, from
 * assignFiles unless given).
 */
export function treeChanges(original: Pick<Revision, 'pages'>, pages: TreePage[], fileOf = assignFiles(pages)): { changes: Change[]; fileOf: Map<string, string> } {
  const changes: Change[] = [];
  const { files: originalFiles, summaryText } = originalLayout(original);
  const kept = new Set(fileOf.values());
  for (const file of originalFiles) if (!kept.has(file)) changes.push({ path: file, remove: true });
  for (const page of everyPage(pages)) {
    const file = fileOf.get(page.id);
    if (!file || (!page.dirty && file === page.file)) continue;
    changes.push({ path: file, content: renderPageFile({ meta: { pageId: page.id, ...page.meta }, body: page.body ?? '' }) });
  }
  if (!sameOutline(original.pages, pages, fileOf)) {
    const after = summaryOf(pages, (page) => fileOf.get(page.id));
    if (summaryText() !== JSON.stringify(after)) changes.push({ path: 'SUMMARY.md', content: renderSummary(after) });
  }
  return { changes, fileOf };
}

/**
 * Whether the edited tree has the revision's outline: what SUMMARY.md is made of (kinds, titles,
 * links, group and link ids, files, order), page by page. The same outline makes the same summary;
 * a different one is compared as summaries (moving a page without a file changes no entry).
 */
function sameOutline(original: RevisionPage[], pages: TreePage[], fileOf: Map<string, string>): boolean {
  if (original.length !== pages.length) return false;
  for (let index = 0; index < pages.length; index += 1) {
    const before = original[index]!;
    const after = pages[index]!;
    if (before.kind !== after.kind || before.title !== after.title || before.id !== after.id || before.href !== after.href) return false;
    if (before.file !== (after.kind === 'document' ? fileOf.get(after.id) : undefined)) return false;
    if (!sameOutline(before.pages, after.pages, fileOf)) return false;
  }
  return true;
}

// What a revision's layout was, kept per revision object (readRevision caches them): each batch on a head reads it once.
const layouts = new WeakMap<object, { files: Set<string>; summaryText: () => string }>();
function originalLayout(original: Pick<Revision, 'pages'>) {
  let layout = layouts.get(original);
  if (!layout) {
    // Read from the revision's own pages: summaryOf only reads, so they need no editable copy.
    const files = new Set<string>();
    for (const page of allPages(original.pages)) if (page.file) files.add(page.file);
    let summary: string | undefined;
    layout = { files, summaryText: () => (summary ??= JSON.stringify(summaryOf(original.pages, (page) => page.file))) };
    layouts.set(original, layout);
  }
  return layout;
}

/** Each document page's file: where it was, or where it now belongs (see treeChanges). */
export function assignFiles(pages: TreePage[]): Map<string, string> {
  const fileOf = new Map<string, string>();
  const used = new Set<string>(['SUMMARY.md']);
  const keeps = (page: TreePage, ancestorMoved: boolean) => page.kind === 'document' && !!page.file && !page.relocated && !ancestorMoved;
  const keep = (list: TreePage[], ancestorMoved: boolean) => {
    for (const page of list) {
      if (keeps(page, ancestorMoved)) {
        fileOf.set(page.id, page.file!);
        used.add(page.file!);
      }
      keep(page.pages, ancestorMoved || !!page.relocated);
    }
  };
  keep(pages, false);
  const place = (list: TreePage[], folder: string) => {
    for (const page of list) {
      if (page.kind === 'document' && !fileOf.has(page.id)) {
        const stem = `${folder ? `${folder}/` : ''}${page.slug || slugify(page.title) || 'untitled'}`;
        let file = `${stem}.md`;
        for (let copy = 2; used.has(file); copy += 1) file = `${stem}-${copy}.md`;
        fileOf.set(page.id, file);
        used.add(file);
      }
      const file = fileOf.get(page.id);
      place(page.pages, file ? folderOfFile(file) : page.kind === 'group' ? slugify(page.title) || folder : folder);
    }
  };
  place(pages, '');
  return fileOf;
}

/** What summaryOf reads of a page: an edited tree's (TreePage) or a revision's (RevisionPage). */
interface SummaryPage {
  id: string;
  kind: TreePage['kind'];
  title: string;
  href?: string;
  file?: string;
  pages: SummaryPage[];
}

/** SUMMARY.md's groups for a page tree: the root pages first, untitled, then each group. */
function summaryOf<Page extends SummaryPage>(pages: Page[], fileOf: (page: Page) => string | undefined): SummaryGroup[] {
  const entries = (list: Page[]): SummaryEntry[] =>
    list.flatMap((page): SummaryEntry[] => {
      if (page.kind === 'link') return [{ title: page.title, target: page.href ?? '', id: page.id, children: [] }];
      const file = fileOf(page);
      return file ? [{ title: page.title, target: file, children: entries(page.pages as Page[]) }] : entries(page.pages as Page[]);
    });
  const groups: SummaryGroup[] = [{ title: null, entries: entries(pages.filter((page) => page.kind !== 'group')) }];
  for (const group of pages.filter((page) => page.kind === 'group')) groups.push({ title: group.title, id: group.id, entries: entries(group.pages as Page[]) });
  return groups.filter((group, index) => index > 0 || group.entries.length > 0);
}
