import YAML from 'yaml';
import { BudgetedCache, stringBytes } from '../runtime/cacheBudget.js';
import { holdingCheckMemory } from './checkMemory.js';
import { WorkTooCostlyError } from '../errors/index.js';
import { listTree, type TreeItem } from '../internal/listTree.js';
import { summaryTargets } from '../layout/summary.js';
import { maxMarkdownDepth, nestingBound } from '../markdown/depth.js';
import { markdownDepthProblems } from '../markdown/offThread.js';
import { readBlob } from '../objects/readBlob.js';
import { readCommit } from '../objects/readCommit.js';
import { readObjectSize } from '../objects/readObject.js';
import type { Repository } from '../repository.js';

export interface PushLimits {
  /** The largest file a push may bring, as through the API. */
  maxFileBytes: number;
}

const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---(\r?\n|$)/;

/**
 * What is wrong with the tree a push would land, as `path:line: problem` lines (none: it may land).
 * Checked on the commit the ref would point at, against the one it points at now (`base`), so
 * only files the push changes are read: `.gitbook.yaml` parses; SUMMARY.md links only to files
 * of the commit; frontmatter is a YAML mapping; no page nests past the markdown limit; no file
 * is over the size limit; no two pages claim one `pageId`; no symbolic links. `repo` reads the
 * push's quarantine. A file's size is read from its object's header first: a file over the limit
 * is never read, and the text read at once by every check under way stays within
 * checkMemoryBytes (a 400 MB page, 1.4 MB on the wire, once held 2.8 GB).
 */
export async function checkPushedTree(repo: Repository, commit: string, base: string | null, limits: PushLimits): Promise<string[]> {
  const listing = await listTree(repo, (await readCommit(repo, commit)).tree);
  const before = base ? await listTree(repo, (await readCommit(repo, base)).tree) : new Map<string, TreeItem>();
  const changed = [...listing].filter(([path, item]) => item.type === 'blob' && before.get(path)?.oid !== item.oid);
  const problems: string[] = [];
  // GitBook's Git Sync layout has no links: one pointing at /etc/passwd is refused, not served.
  for (const [path, item] of changed) if (item.symlink) problems.push(`${path}: is a symbolic link; a space holds files and folders only`);

  const sizes = new Map<string, number>();
  const sizeOf = async (oid: string) => sizes.get(oid) ?? sizes.set(oid, await readObjectSize(repo, oid)).get(oid)!;
  await Promise.all(changed.map(([, item]) => sizeOf(item.oid)));
  const tooLarge = new Set<string>();
  for (const [path, item] of changed) {
    if (sizes.get(item.oid)! <= limits.maxFileBytes) continue;
    tooLarge.add(item.oid);
    problems.push(`${path}: the file is ${sizes.get(item.oid)} bytes; the limit is ${limits.maxFileBytes}`);
  }
  /** A file's text, read only when it is within the limit (the caller holds its bytes of the check memory). */
  const text = async (oid: string) => (await readBlob(repo, oid)).toString('utf8');
  const readable = async (item: TreeItem) => !item.symlink && !tooLarge.has(item.oid) && (await sizeOf(item.oid)) <= limits.maxFileBytes;

  const config = listing.get('.gitbook.yaml');
  if (config && before.get('.gitbook.yaml')?.oid !== config.oid && (await readable(config))) {
    const document = await holdingCheckMemory(sizes.get(config.oid)!, async () => YAML.parseDocument(await text(config.oid), { prettyErrors: false }));
    for (const error of document.errors) problems.push(`.gitbook.yaml:${error.linePos?.[0]?.line ?? 1}: ${firstLine(error.message)}`);
  }
  const summary = listing.get('SUMMARY.md');
  if (summary && (await readable(summary))) {
    const targets = await holdingCheckMemory(sizes.get(summary.oid)!, async () => summaryTargets(await text(summary.oid)));
    for (const { line, target } of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      if (listing.get(target)?.type !== 'blob') problems.push(`SUMMARY.md:${line}: links to ${target}, which is not in the commit`);
    }
  }

  const owners = new Map<string, string>();
  const changedPaths = new Set(changed.map(([path]) => path));
  const pages = [...listing].filter(([path, item]) => path.endsWith('.md') && item.type === 'blob' && !item.symlink && path !== 'SUMMARY.md' && !path.startsWith('.gitbook/'));
  // An unchanged page's pageId is known from an earlier push (blobs never change): it isn't read again.
  const known = new Map<string, string | null>();
  const toRead: Array<[string, TreeItem]> = [];
  for (const [path, item] of pages) {
    const pageId = changedPaths.has(path) ? undefined : pageIds.get(item.oid);
    if (pageId !== undefined) known.set(path, pageId === '' ? null : pageId);
    else if (!tooLarge.has(item.oid)) toRead.push([path, item]);
  }
  // Never read a page over the limit, even one already there (a repository imported before the limit).
  await Promise.all(toRead.map(([, item]) => sizeOf(item.oid)));
  toRead.splice(0, toRead.length, ...toRead.filter(([, item]) => sizes.get(item.oid)! <= limits.maxFileBytes));
  // Read many at once (a push of a thousand new pages waits on the disk once, not a thousand
  // times), in batches of at most 128 pages and 16 MB, each within the check memory.
  for (const batch of await batchesOf(toRead, (item) => sizeOf(item.oid))) {
    const read = await holdingCheckMemory(batch.bytes, async () => {
      const texts = await Promise.all(
        batch.items.map(async ([path, item]) => {
          const markdown = await text(item.oid);
          const meta = readFrontmatter(markdown);
          pageIds.set(item.oid, typeof meta.value?.pageId === 'string' ? meta.value.pageId : '');
          return { path, markdown, meta, changed: changedPaths.has(path) };
        }),
      );
      const changedPages = texts.filter((page) => page.changed && !plainlyShallow(page.markdown));
      const depths = await depthProblems(
        changedPages.map((page) => page.markdown),
        changedPages.map((page) => page.path),
      );
      return { depths, pages: texts.map(({ path, meta, changed }) => ({ path, meta, changed })) };
    });
    problems.push(...read.depths);
    for (const { path, meta, changed } of read.pages) {
      if (changed && meta.problem) problems.push(`${path}:${meta.problem.line}: the frontmatter ${meta.problem.message}`);
      known.set(path, typeof meta.value?.pageId === 'string' ? meta.value.pageId : null);
    }
  }
  for (const [path] of pages) {
    const pageId = known.get(path);
    if (!pageId) continue;
    const owner = owners.get(pageId);
    if (owner && (changedPaths.has(path) || changedPaths.has(owner))) problems.push(`${path}: pageId ${pageId} is already the id of ${owner}`);
    else owners.set(pageId, path);
  }
  return problems;
}

/** Pages' `pageId` by blob ('' for none), so that a push reads only the pages it brings. */
const pageIds = new BudgetedCache<string, string>('pushed page ids', (pageId, oid) => stringBytes(oid) + stringBytes(pageId) + 64);

const batchPages = 128;
const batchBytes = 16 * 1024 * 1024;

async function batchesOf(items: Array<[string, TreeItem]>, size: (item: TreeItem) => Promise<number>): Promise<Array<{ items: Array<[string, TreeItem]>; bytes: number }>> {
  const batches: Array<{ items: Array<[string, TreeItem]>; bytes: number }> = [];
  let current: { items: Array<[string, TreeItem]>; bytes: number } = { items: [], bytes: 0 };
  for (const entry of items) {
    const bytes = await size(entry[1]);
    if (current.items.length && (current.items.length >= batchPages || current.bytes + bytes > batchBytes)) {
      batches.push(current);
      current = { items: [], bytes: 0 };
    }
    current.items.push(entry);
    current.bytes += bytes;
  }
  if (current.items.length) batches.push(current);
  return batches;
}

const firstLine = (message: string) => message.split('\n')[0]!.trim();

function readFrontmatter(markdown: string): { value?: Record<string, unknown>; problem?: { line: number; message: string } } {
  const match = frontmatter.exec(markdown);
  if (!match) return {};
  const document = YAML.parseDocument(match[1] ?? '', { prettyErrors: false });
  const [error] = document.errors;
  // The YAML starts on the file's second line, after `---`.
  if (error) return { problem: { line: (error.linePos?.[0]?.line ?? 1) + 1, message: `is not valid YAML: ${firstLine(error.message)}` } };
  const value: unknown = document.toJS();
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) return { problem: { line: 2, message: 'must be a YAML mapping (key: value lines)' } };
  return { value: value as Record<string, unknown> };
}

/**
 * Whether a page can't reach the markdown limits, seen in one pass on this thread: no `{% %}`
 * blocks and too few characters that open a level (depth.ts: nestingBound) for any run of it to
 * reach the limit. Most prose is; the rest goes to the worker pool. Large pages always do.
 */
const plainlyShallow = (markdown: string) => markdown.length <= 256 * 1024 && !markdown.includes('{%') && nestingBound(markdown) <= maxMarkdownDepth;

/** The pages past the markdown limits, checked in one task of the worker pool per batch. */
async function depthProblems(markdowns: string[], paths: string[]): Promise<string[]> {
  if (markdowns.length === 0) return [];
  try {
    const found = await markdownDepthProblems(markdowns, `Checking ${markdowns.length} pushed pages`);
    return found.flatMap((message, index) => (message === null ? [] : [`${paths[index]}: ${message}`]));
  } catch (error) {
    if (error instanceof WorkTooCostlyError) return [`${paths.join(', ')}: ${error.message}`];
    throw error;
  }
}
