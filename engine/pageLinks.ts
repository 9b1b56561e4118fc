import type { Definition, Image, Link } from 'mdast';
import { BudgetedCache, stringBytes } from './cacheBudget.js';
import { splitBlocks, type Segment } from './markdown/blocks.js';
import { parseMarkdown } from './markdown/parse.js';
import { allPages } from './allPages.js';
import type { Revision, RevisionPage } from './readRevision.js';
import { pagesByFile, resolveLink, type ContentRef } from './resolveLink.js';

export interface LinkUse {
  /** The page the link is written in. */
  from: RevisionPage;
  target: string;
  ref: ContentRef;
  broken: boolean;
}

const targetsByMarkdown = new BudgetedCache<string, string[]>((targets, markdown) => stringBytes(markdown) + targets.reduce((bytes, target) => bytes + stringBytes(target), 100));
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
      }
      else {
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

/** Every link of every page of a revision, resolved against it; read once per commit. */
export function revisionLinks(revision: Revision): LinkUse[] {
  const cached = linksByRevision.get(revision);
  if (cached) return cached;
  const byFile = pagesByFile(revision);
  const uses = allPages(revision.pages)
    .filter((page) => page.kind === 'document' && page.file)
    .flatMap((page) =>
      linkTargets(page.markdown ?? '').map((target) => {
        const { ref, broken } = resolveLink(revision, byFile, page.file!, target);
        return { from: page, target, ref, broken };
      }),
    );
  linksByRevision.set(revision, uses);
  return uses;
}
