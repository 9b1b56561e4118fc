import type { Definition, Image, Link } from 'mdast';
import { BudgetedCache, stringBytes } from './runtime/cacheBudget.js';
import { splitBlocks, type Segment } from './markdown/blocks.js';
import { parseMarkdown } from './markdown/parse.js';
import { allPages } from './allPages.js';
import type { Revision, RevisionPage } from './readRevision.js';
import { pagesByFile, resolveLink, type ContentRef } from './resolveLink.js';
import { linkTargetsOffThread } from './markdown/offThread.js';

export interface LinkUse {
  /** The page the link is written in. */
  from: RevisionPage;
  target: string;
  ref: ContentRef;
  broken: boolean;
}

const targetsByMarkdown = new BudgetedCache<string, string[]>('page links', (targets, markdown) => stringBytes(markdown) + targets.reduce((bytes, target) => bytes + stringBytes(target), 100));
const linksByRevision = new WeakMap<Revision, LinkUse[]>();

/** Every link target written in a page: markdown links and images, and GitBook blocks that point somewhere. */
export function linkTargets(markdown: string): string[] {
  const cached = targetsByMarkdown.get(markdown);
  if (cached) return cached;
  const targets: string[] = [];
  const visitSegments = (segments: Segment[]) => {
    for (const segment of segments) {
      if (segment.kind === 'markdown') {
        visitTree(parseMarkdown(segment.text));
      } else {
        const { url, src } = segment.attributes;
        if (segment.name === 'content-ref' && url) targets.push(url);
        else if (segment.name === 'file' && src) targets.push(src);
        else if (segment.name === 'embed' && url) targets.push(url);
        // the link a content-ref repeats inside itself is the same reference
        if (segment.name !== 'content-ref') visitSegments(segment.children);
      }
    }
  };
  const visitTree = (node: { type: string; children?: unknown[] }) => {
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition') {
      const url = (node as Link | Image | Definition).url;
      if (url) targets.push(url);
    }
    for (const child of (node.children ?? []) as Array<{ type: string; children?: unknown[] }>) visitTree(child);
  };
  visitSegments(splitBlocks(markdown));
  targetsByMarkdown.set(markdown, targets);
  return targets;
}

const linkedPages = (revision: Revision) => allPages(revision.pages).filter((page) => page.kind === 'document' && page.file);

/** Every link of every page of a revision, resolved against it; read once per commit. */
export function revisionLinks(revision: Revision, targetsOf: (markdown: string) => string[] = linkTargets): LinkUse[] {
  const cached = linksByRevision.get(revision);
  if (cached) return cached;
  const byFile = pagesByFile(revision);
  const uses = linkedPages(revision).flatMap((page) =>
    targetsOf(page.markdown ?? '').map((target) => {
      const { ref, broken } = resolveLink(revision, byFile, page.file!, target);
      return { from: page, target, ref, broken };
    }),
  );
  linksByRevision.set(revision, uses);
  return uses;
}

/** Pages whose links are read in one task of the worker pool. */
const pagesPerTask = 200;

/**
 * revisionLinks with the pages' markdown parsed in the worker pool (those not read before): a
 * space's links are read without holding the event loop, whatever its pages hold.
 */
export async function readRevisionLinks(revision: Revision): Promise<LinkUse[]> {
  const cached = linksByRevision.get(revision);
  if (cached) return cached;
  const known = new Map<string, string[]>();
  const missing = new Set<string>();
  for (const page of linkedPages(revision)) {
    const markdown = page.markdown ?? '';
    const targets = targetsByMarkdown.get(markdown);
    if (targets) known.set(markdown, targets);
    else missing.add(markdown);
  }
  const pending = [...missing];
  await Promise.all(
    Array.from({ length: Math.ceil(pending.length / pagesPerTask) }, async (_, index) => {
      const chunk = pending.slice(index * pagesPerTask, (index + 1) * pagesPerTask);
      const found = await linkTargetsOffThread(chunk);
      chunk.forEach((markdown, at) => {
        known.set(markdown, found[at]!);
        targetsByMarkdown.set(markdown, found[at]!);
      });
    }),
  );
  return revisionLinks(revision, (markdown) => known.get(markdown) ?? []);
}
