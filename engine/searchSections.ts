import { createHash } from 'node:crypto';
import type { Heading, Root, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { splitBlocks, type Segment } from './markdown/blocks.js';
import { Lru } from './lru.js';
import { slugify, type RevisionPage } from './readRevision.js';

export interface PageSection {
  /** The heading's anchor, or '' for the text before the first heading. */
  id: string;
  title: string;
  body: string;
}

export interface SearchablePage {
  page: RevisionPage;
  ancestors: string[];
  sections: PageSection[];
  /** Changes whenever anything indexed for the page changes. */
  contentHash: string;
}

const parser = unified().use(remarkParse).use(remarkGfm);

const plainMarkdown = (segments: Segment[]): string =>
  segments.map((segment) => (segment.kind === 'markdown' ? segment.text : plainMarkdown(segment.children))).join('\n\n');

// Sections depend only on a page's title and markdown: a new revision re-reads only changed pages.
const sectionCache = new Lru<string, PageSection[]>(20_000);

/** A page's text cut at its headings: what search finds and shows. */
export function pageSections(page: RevisionPage): PageSection[] {
  const key = `${page.title}\n${page.markdown ?? ''}`;
  const cached = sectionCache.get(key);
  if (cached) return cached;
  const sections = readSections(page);
  sectionCache.set(key, sections);
  return sections;
}

function readSections(page: RevisionPage): PageSection[] {
  const tree = parser.parse(plainMarkdown(splitBlocks(page.markdown ?? ''))) as Root;
  const sections: PageSection[] = [{ id: '', title: page.title, body: '' }];
  const bodies: string[][] = [[]];
  for (const node of tree.children as RootContent[]) {
    if (node.type === 'heading' && (node as Heading).depth > 1) {
      const title = toString(node).trim();
      sections.push({ id: slugify(title), title, body: '' });
      bodies.push([]);
    } else if (!(node.type === 'heading' && (node as Heading).depth === 1)) {
      bodies[bodies.length - 1]!.push(toString(node));
    }
  }
  return sections.map((section, index) => ({ ...section, body: bodies[index]!.join('\n').trim() })).filter((section, index) => index === 0 || section.body || section.title);
}

/** Every document page of a revision with its sections and its ancestors' titles. */
export function searchablePages(pages: RevisionPage[], ancestors: string[] = []): SearchablePage[] {
  return pages.flatMap((page) => {
    const below = searchablePages(page.pages, [...ancestors, page.title]);
    if (page.kind !== 'document') return below;
    const sections = pageSections(page);
    const contentHash = createHash('sha256').update(JSON.stringify([page.title, page.path, ancestors, sections])).digest('base64url');
    return [{ page, ancestors, sections, contentHash }, ...below];
  });
}
