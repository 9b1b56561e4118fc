import git from 'isomorphic-git';
import { gitFs as fs } from './gitFs.js';
import { derivedContentId } from './ids.js';
import { parsePageFile, type PageFile } from './layout/pageFile.js';
import { parseSummary, type SummaryEntry, type SummaryGroup } from './layout/summary.js';
import { Lru } from './lru.js';
import { readBlobBytes } from './objects.js';
import type { Repository } from './repository.js';

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

export interface Revision {
  commit: string;
  parents: string[];
  message: string;
  createdAt: string;
  pages: RevisionPage[];
  files: RevisionFile[];
}

interface TreeItem {
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

export const assetsFolder = '.gitbook/assets/';
const validId = /^[A-Za-z0-9_-]{1,64}$/;

// Commits and blobs never change: what is read from them is cached by object id, with a bound.
const revisions = new Lru<string, Revision>(200);
const trees = new Lru<string, Map<string, TreeItem>>(2000);
const pageFiles = new Lru<string, PageFile>(20_000);
const summaries = new Lru<string, SummaryGroup[]>(1000);

/** The content of a commit: its page tree (Git Sync layout) and its files. */
export function readRevision(repo: Repository, commit: string): Promise<Revision> {
  return revisions.through(`${repo.gitdir}:${commit}`, () => loadRevision(repo, commit));
}

async function loadRevision(repo: Repository, commit: string): Promise<Revision> {
  const { commit: object } = await git.readCommit({ fs, gitdir: repo.gitdir, oid: commit, cache: repo.cache });
  const listing = await listTree(repo, object.tree);
  const summary = listing.get('SUMMARY.md');
  const groups = summary
    ? await summaries.through(summary.oid, async () => parseSummary(Buffer.from(await readBlobBytes(repo, summary.oid)).toString('utf8')))
    : summaryFromFiles(listing);
  await preloadPageFiles(repo, listing);
  const builder = new PageBuilder(repo, listing);
  const pages: RevisionPage[] = [];
  for (const group of groups) {
    const entries = await builder.entries(group.entries);
    if (group.title === null) pages.push(...entries);
    else pages.push(builder.group(group, entries));
  }
  // A file's id comes from its bytes, so it survives renames and moves; a second copy of the
  // same bytes is told apart by its path.
  const fileIds = new Set<string>();
  const files = [...listing.entries()]
    .filter(([path, item]) => path.startsWith(assetsFolder) && item.type === 'blob')
    .map(([path, item]) => {
      let id = derivedContentId('file', item.oid);
      if (fileIds.has(id)) id = derivedContentId('file', `${item.oid}:${path}`);
      fileIds.add(id);
      return { id, name: path.slice(assetsFolder.length), path, oid: item.oid };
    });
  return {
    commit,
    parents: object.parent,
    message: object.message.trim(),
    createdAt: new Date(object.committer.timestamp * 1000).toISOString(),
    pages,
    files,
  };
}

/** Every path of a tree, flattened; unchanged subtrees are reused from the cache. */
async function listTree(repo: Repository, treeOid: string): Promise<Map<string, TreeItem>> {
  return trees.through(treeOid, async () => {
    const { tree } = await git.readTree({ fs, gitdir: repo.gitdir, oid: treeOid, cache: repo.cache });
    const subtrees = await Promise.all(tree.map((entry) => (entry.type === 'tree' ? listTree(repo, entry.oid) : undefined)));
    const listing = new Map<string, TreeItem>();
    tree.forEach((entry, index) => {
      const subtree = subtrees[index];
      if (subtree) for (const [path, item] of subtree) listing.set(`${entry.path}/${path}`, item);
      else listing.set(entry.path, { oid: entry.oid, type: entry.type });
    });
    return listing;
  });
}

/** Reads the markdown files not in the cache yet, many at once: a cold read waits on the disk once, not once per page. */
async function preloadPageFiles(repo: Repository, listing: Map<string, TreeItem>): Promise<void> {
  const missing = [...listing.entries()].filter(([path, item]) => path.endsWith('.md') && item.type === 'blob' && pageFiles.get(item.oid) === undefined);
  for (let start = 0; start < missing.length; start += 64) {
    await Promise.all(
      missing.slice(start, start + 64).map(async ([, item]) => pageFiles.set(item.oid, parsePageFile(Buffer.from(await readBlobBytes(repo, item.oid)).toString('utf8')))),
    );
  }
}

/** Without SUMMARY.md: README.md first, then the other markdown files, folders nested under their README. */
function summaryFromFiles(listing: Map<string, TreeItem>): SummaryGroup[] {
  const markdown = [...listing.keys()].filter((path) => path.endsWith('.md') && !path.startsWith('.gitbook/') && path !== 'SUMMARY.md').sort();
  const entriesIn = (folder: string): SummaryEntry[] => {
    const here = markdown.filter((path) => path.startsWith(folder) && !path.slice(folder.length).includes('/'));
    const readme = here.filter((path) => path.slice(folder.length) === 'README.md');
    const others = here.filter((path) => path.slice(folder.length) !== 'README.md');
    const subfolders = [...new Set(markdown.filter((path) => path.startsWith(folder)).map((path) => path.slice(folder.length).split('/')).filter((parts) => parts.length > 1).map((parts) => parts[0]!))];
    return [
      ...(folder === '' ? readme : []).map((path) => ({ title: '', target: path, children: [] })),
      ...others.map((path) => ({ title: '', target: path, children: [] })),
      ...subfolders.flatMap((name) => {
        const children = entriesIn(`${folder}${name}/`);
        const own = listing.has(`${folder}${name}/README.md`);
        return own ? [{ title: '', target: `${folder}${name}/README.md`, children: children.filter((c) => c.target !== `${folder}${name}/README.md`) }] : children;
      }),
    ];
  };
  return [{ title: null, entries: entriesIn('') }];
}

class PageBuilder {
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
    const file = entry.target.replace(/^(\.\/|\/)+/, '').split('#')[0]!;
    const item = this.listing.get(file);
    if (!item || item.type !== 'blob') return undefined; // an entry whose file is missing shows no page (its children move up)
    const parsed = await pageFiles.through(item.oid, async () =>
      parsePageFile(Buffer.from(await readBlobBytes(this.repo, item.oid)).toString('utf8')),
    );
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

export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const blobSizes = new Lru<string, number>(50_000);

/** A file's bytes. */
export async function readFileBytes(repo: Repository, oid: string): Promise<Uint8Array> {
  const blob = await readBlobBytes(repo, oid);
  blobSizes.set(oid, blob.byteLength);
  return blob;
}

/** The sizes of the revision's files, by blob id (each blob read once, then remembered). */
export async function fileSizes(repo: Repository, files: RevisionFile[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (const file of files) sizes.set(file.oid, await blobSizes.through(file.oid, async () => (await readFileBytes(repo, file.oid)).byteLength));
  return sizes;
}

/** Every page of the revision, depth first. */
export function allPages(pages: RevisionPage[]): RevisionPage[] {
  return pages.flatMap((page) => [page, ...allPages(page.pages)]);
}

const pageIndexes = new WeakMap<Revision, { byId: Map<string, RevisionPage>; byPath: Map<string, RevisionPage> }>();

function indexOf(revision: Revision) {
  let index = pageIndexes.get(revision);
  if (!index) {
    const pages = allPages(revision.pages);
    const byPath = new Map<string, RevisionPage>();
    for (const page of pages) if (page.kind !== 'link' && !byPath.has(page.path)) byPath.set(page.path, page);
    index = { byId: new Map(pages.map((page) => [page.id, page])), byPath };
    pageIndexes.set(revision, index);
  }
  return index;
}

/** A page of the revision by id, from an index built once per revision. */
export function findPageById(revision: Revision, pageId: string): RevisionPage | undefined {
  return indexOf(revision).byId.get(pageId);
}

/** The first document or group page at a path (links have none), from the same index. */
export function findPageByPath(revision: Revision, pagePath: string): RevisionPage | undefined {
  return indexOf(revision).byPath.get(pagePath);
}

/** Every file path of a commit's tree. */
export async function listPaths(repo: Repository, commit: string): Promise<string[]> {
  const { commit: object } = await git.readCommit({ fs, gitdir: repo.gitdir, oid: commit, cache: repo.cache });
  return [...(await listTree(repo, object.tree)).keys()];
}

/** Whether `oid` names a commit of this repository. */
export async function isCommit(repo: Repository, oid: string): Promise<boolean> {
  try {
    await git.readCommit({ fs, gitdir: repo.gitdir, oid, cache: repo.cache });
    return true;
  } catch {
    return false;
  }
}
