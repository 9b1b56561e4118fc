import { allPages } from './allPages.js';
import { BudgetedCache, stringBytes } from './runtime/cacheBudget.js';
import { derivedContentId } from './internal/ids.js';
import { parseGitbookRedirects } from './layout/gitbookYaml.js';
import { parseSummary, type SummaryGroup } from './layout/summary.js';
import { listTree, type TreeItem } from './internal/listTree.js';
import { readBlob } from './objects/readBlob.js';
import { readCommit } from './objects/readCommit.js';
import type { Repository } from './repository.js';
import { PageBuilder } from './revision/pageBuilder.js';
import { loadPageFiles } from './revision/pageFiles.js';
import { summaryFromFiles } from './revision/summaryFromFiles.js';
import { turnPauser } from './internal/turns.js';

export type PageKind = 'document' | 'group' | 'link';

export interface RevisionPage {
  id: string;
  kind: PageKind;
  title: string;
  /** The page's URL path from the space root ('' for the first README). */
  path: string;
  slug: string;
  /** The markdown file (repository path) of a document page, and its blob. */
  file?: string;
  oid?: string;
  /** Frontmatter of a document page, Quire's `pageId` left out. */
  meta: Record<string, unknown>;
  /** Markdown after the frontmatter, of a document page. */
  markdown?: string;
  /** Target of a link page. */
  href?: string;
  pages: RevisionPage[];
}

export interface RevisionFile {
  id: string;
  name: string;
  /** Repository path, under `.gitbook/assets/`. */
  path: string;
  oid: string;
}

/** A markdown file of `.gitbook/includes/`, which pages insert with `{% include "…" %}` (GitBook's reusable content). */
export interface RevisionReusableContent {
  /** Derived from the file's path: it stays while the file keeps its name. */
  id: string;
  /** The frontmatter's `title`, else the file's name without `.md`. */
  title: string;
  path: string;
  oid: string;
  /** The markdown after the frontmatter. */
  markdown: string;
}

export interface Revision {
  commit: string;
  parents: string[];
  message: string;
  createdAt: string;
  pages: RevisionPage[];
  files: RevisionFile[];
  reusableContents: RevisionReusableContent[];
  /** `.gitbook.yaml`'s `redirects:`: an old path → the markdown file that answers it now. */
  redirects: Map<string, string>;
}

export const assetsFolder = '.gitbook/assets/';
export const includesFolder = '.gitbook/includes/';

// Commits and blobs never change: what is read from them is cached by object id, within the budget.
// A page's markdown is the very string of its parsed page file (`readPageFile`), weighed there
// once: weighed here too, a 10,000-page space's text counted twice and thrashed the budget.
const revisions = new BudgetedCache<string, Revision>('revisions', (revision, key) => stringBytes(key) + (weights.get(revision) ?? weightOf(revision)));
/** What loadRevision weighed as it built a revision, a few pages a turn: weighing 10,000 pages at once held the event loop. */
const weights = new WeakMap<Revision, number>();

const pageWeight = (page: RevisionPage) => 400 + stringBytes(page.file) + stringBytes(page.path);

function weightOf(revision: Revision, pagesWeight = allPages(revision.pages).reduce((bytes, page) => bytes + pageWeight(page), 0)): number {
  return (
    500 +
    pagesWeight +
    revision.files.reduce((bytes, file) => bytes + 300 + stringBytes(file.path), 0) +
    revision.reusableContents.reduce((bytes, content) => bytes + 300 + stringBytes(content.path), 0) +
    [...revision.redirects].reduce((bytes, [from, to]) => bytes + 100 + stringBytes(from) + stringBytes(to), 0)
  );
}
const gitbookRedirects = new BudgetedCache<string, Map<string, string>>(
  'redirects',
  (redirects) => 200 + [...redirects].reduce((bytes, [from, to]) => bytes + 100 + stringBytes(from) + stringBytes(to), 0),
);
const summaries = new BudgetedCache<string, SummaryGroup[]>('summaries', (groups) => 200 + JSON.stringify(groups).length * 2);

/** The content of a commit: its page tree (Git Sync layout) and its files. */
export function readRevision(repo: Repository, commit: string): Promise<Revision> {
  return revisions.through(`${repo.gitdir}:${commit}`, () => loadRevision(repo, commit));
}

/**
 * The document pages of a commit's first parent by file, when its revision is in the cache: a
 * commit that changes a few pages (an edit, a change request's batch) then reuses the others as
 * they are instead of building a thousand equal ones again.
 */
async function documentsOfParent(repo: Repository, parents: string[], pause: () => Promise<void> | undefined): Promise<Map<string, RevisionPage> | undefined> {
  const parent = parents[0] === undefined ? undefined : revisions.get(`${repo.gitdir}:${parents[0]}`);
  if (!parent) return undefined;
  const documents = new Map<string, RevisionPage>();
  for (const [index, page] of allPages(parent.pages).entries()) {
    if (page.kind === 'document' && page.file !== undefined && !documents.has(page.file)) documents.set(page.file, page);
    if (index % 256 === 255) await pause();
  }
  return documents;
}

async function loadRevision(repo: Repository, commit: string): Promise<Revision> {
  const object = await readCommit(repo, commit);
  const listing = await listTree(repo, object.tree);
  const summary = listing.get('SUMMARY.md');
  const groups = summary ? await summaries.through(summary.oid, async () => parseSummary((await readBlob(repo, summary.oid)).toString('utf8'))) : summaryFromFiles(listing);
  // Built a top-level entry at a time, pausing between them when the turn runs past a millisecond.
  const pause = turnPauser(1);
  // The listing sorted once, a few hundred paths a turn: a 10,000-file tree is milliseconds of it.
  const markdownOids: string[] = [];
  const assets: Array<[string, TreeItem]> = [];
  const includes: Array<[string, TreeItem]> = [];
  let seen = 0;
  for (const [path, item] of listing) {
    if (item.type === 'blob') {
      if (path.endsWith('.md')) markdownOids.push(item.oid);
      if (path.startsWith(assetsFolder)) assets.push([path, item]);
      else if (path.startsWith(includesFolder) && path.endsWith('.md')) includes.push([path, item]);
    }
    if (++seen % 256 === 0) await pause();
  }
  const pageFiles = await loadPageFiles(repo, markdownOids);
  const builder = new PageBuilder(listing, pageFiles, await documentsOfParent(repo, object.parents, pause));
  const pages: RevisionPage[] = [];
  for (const group of groups) {
    const entries: RevisionPage[] = [];
    for (const entry of group.entries) {
      entries.push(...builder.entries([entry]));
      await pause();
    }
    if (group.title === null) pages.push(...entries);
    else pages.push(builder.group(group, entries));
  }
  // A file's id comes from its bytes, so it survives renames and moves; a second copy of the
  // same bytes is told apart by its path.
  const fileIds = new Set<string>();
  const files = assets.map(([path, item]) => {
    let id = derivedContentId('file', item.oid);
    if (fileIds.has(id)) id = derivedContentId('file', `${item.oid}:${path}`);
    fileIds.add(id);
    return { id, name: path.slice(assetsFolder.length), path, oid: item.oid };
  });
  const reusableContents = includes.map(([path, item]): RevisionReusableContent => {
    const file = pageFiles.get(item.oid)!;
    const title = typeof file.meta.title === 'string' && file.meta.title.trim() ? file.meta.title.trim() : path.slice(path.lastIndexOf('/') + 1, -'.md'.length);
    return { id: derivedContentId('reusable-content', path), title, path, oid: item.oid, markdown: file.body };
  });
  const config = listing.get('.gitbook.yaml');
  const redirects =
    config?.type === 'blob' ? await gitbookRedirects.through(config.oid, async () => parseGitbookRedirects((await readBlob(repo, config.oid)).toString('utf8'))) : new Map<string, string>();
  const revision: Revision = {
    commit,
    parents: object.parents,
    message: object.message.trim(),
    createdAt: new Date(object.committedAt * 1000).toISOString(),
    pages,
    files,
    reusableContents,
    redirects,
  };
  let pagesWeight = 0;
  for (const [index, page] of allPages(pages).entries()) {
    pagesWeight += pageWeight(page);
    if (index % 256 === 255) await pause();
  }
  weights.set(revision, weightOf(revision, pagesWeight));
  return revision;
}
