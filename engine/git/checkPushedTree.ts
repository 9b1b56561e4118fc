import YAML from 'yaml';
import { WorkTooCostlyError } from '../errors/index.js';
import { listTree, type TreeItem } from '../listTree.js';
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
 * is over the size limit; no two pages claim one `pageId`. `repo` reads the push's quarantine.
 */
export async function checkPushedTree(repo: Repository, commit: string, base: string | null, limits: PushLimits): Promise<string[]> {
  const listing = await listTree(repo, (await readCommit(repo, commit)).tree);
  const before = base ? await listTree(repo, (await readCommit(repo, base)).tree) : new Map<string, TreeItem>();
  const changed = [...listing].filter(([path, item]) => item.type === 'blob' && before.get(path)?.oid !== item.oid);
  const problems: string[] = [];
  const text = async (oid: string) => (await readBlob(repo, oid)).toString('utf8');

  const sizes = await Promise.all(changed.map(([, item]) => readObjectSize(repo, item.oid)));
  changed.forEach(([path], index) => {
    if (sizes[index]! > limits.maxFileBytes) problems.push(`${path}: the file is ${sizes[index]} bytes; the limit is ${limits.maxFileBytes}`);
  });
  const config = listing.get('.gitbook.yaml');
  if (config && before.get('.gitbook.yaml')?.oid !== config.oid) {
    const document = YAML.parseDocument(await text(config.oid), { prettyErrors: false });
    for (const error of document.errors) problems.push(`.gitbook.yaml:${error.linePos?.[0]?.line ?? 1}: ${firstLine(error.message)}`);
  }
  const summary = listing.get('SUMMARY.md');
  if (summary) {
    for (const { line, target } of summaryTargets(await text(summary.oid))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      if (listing.get(target)?.type !== 'blob') problems.push(`SUMMARY.md:${line}: links to ${target}, which is not in the commit`);
    }
  }
  const owners = new Map<string, string>();
  const changedPaths = new Set(changed.map(([path]) => path));
  const pages = [...listing].filter(([path, item]) => path.endsWith('.md') && item.type === 'blob' && path !== 'SUMMARY.md' && !path.startsWith('.gitbook/'));
  // Read many at once: a push of a thousand new pages waits on the disk once, not a thousand times.
  for (let start = 0; start < pages.length; start += 128) {
    const batch = await Promise.all(
      pages.slice(start, start + 128).map(async ([path, item]) => {
        const markdown = await text(item.oid);
        return { path, markdown, meta: readFrontmatter(markdown), changed: changedPaths.has(path) };
      }),
    );
    const changedPages = batch.filter((page) => page.changed && !plainlyShallow(page.markdown));
    const depths = await depthProblems(changedPages.map((page) => page.markdown), changedPages.map((page) => page.path));
    problems.push(...depths);
    for (const { path, meta, changed } of batch) {
      if (changed && meta.problem) problems.push(`${path}:${meta.problem.line}: the frontmatter ${meta.problem.message}`);
      const pageId = meta.value?.pageId;
      if (typeof pageId !== 'string') continue;
      const owner = owners.get(pageId);
      if (owner && (changedPaths.has(path) || changedPaths.has(owner))) problems.push(`${path}: pageId ${pageId} is already the id of ${owner}`);
      else owners.set(pageId, path);
    }
  }
  return problems;
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
