import type { Heading, Html, List, ListItem, Link, Paragraph, PhrasingContent, Root, RootContent } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/** One line of SUMMARY.md: a page (a repository path) or a link (a URL), with its children. */
export interface SummaryEntry {
  title: string;
  target: string;
  /** The id kept in an HTML comment after the link (`<!-- id: … -->`), for links. */
  id?: string;
  children: SummaryEntry[];
}

/** The pages under a `##` heading of SUMMARY.md; the pages before any heading have no title. */
export interface SummaryGroup {
  title: string | null;
  id?: string;
  entries: SummaryEntry[];
}

const idComment = /<!--\s*id:\s*([A-Za-z0-9_-]+)\s*-->/;

const textOf = (nodes: PhrasingContent[]): string =>
  nodes.map((node) => ('value' in node && node.type !== 'html' ? node.value : 'children' in node ? textOf(node.children as PhrasingContent[]) : '')).join('');

const commentId = (nodes: Array<PhrasingContent | RootContent>): string | undefined =>
  nodes.map((node) => (node.type === 'html' ? idComment.exec((node as Html).value)?.[1] : undefined)).find(Boolean);

function entriesOf(list: List): SummaryEntry[] {
  return list.children.flatMap((item: ListItem) => {
    const paragraph = item.children.find((child): child is Paragraph => child.type === 'paragraph');
    const link = paragraph?.children.find((child): child is Link => child.type === 'link');
    if (!paragraph || !link) return [];
    const nested = item.children.find((child): child is List => child.type === 'list');
    const id = commentId(paragraph.children);
    return [{ title: textOf(link.children).trim(), target: decodeURI(link.url), ...(id ? { id } : {}), children: nested ? entriesOf(nested) : [] }];
  });
}

/** Reads SUMMARY.md as GitBook writes it: an optional `#` title, lists of links, `##` groups. */
export function parseSummary(markdown: string): SummaryGroup[] {
  const tree = unified().use(remarkParse).parse(markdown) as Root;
  const groups: SummaryGroup[] = [{ title: null, entries: [] }];
  for (const node of tree.children) {
    if (node.type === 'heading' && (node as Heading).depth >= 2) {
      const heading = node as Heading;
      const id = commentId(heading.children);
      groups.push({ title: textOf(heading.children).trim(), ...(id ? { id } : {}), entries: [] });
    } else if (node.type === 'list') {
      groups[groups.length - 1]!.entries.push(...entriesOf(node as List));
    }
  }
  return groups.filter((group, index) => index > 0 || group.entries.length > 0);
}

const escapeTitle = (title: string) => title.replace(/([[\]\\])/g, '\\$1');
const encodeTarget = (target: string) => (/^[a-z]+:/i.test(target) ? target : encodeURI(target));

function renderEntries(entries: SummaryEntry[], depth: number): string[] {
  return entries.flatMap((entry) => [
    `${'  '.repeat(depth)}* [${escapeTitle(entry.title)}](${encodeTarget(entry.target)})${entry.id ? ` <!-- id: ${entry.id} -->` : ''}`,
    ...renderEntries(entry.children, depth + 1),
  ]);
}

export function renderSummary(groups: SummaryGroup[]): string {
  const lines = ['# Table of contents', ''];
  for (const group of groups) {
    if (group.title !== null) lines.push(`## ${group.title}${group.id ? ` <!-- id: ${group.id} -->` : ''}`, '');
    lines.push(...renderEntries(group.entries, 0), '');
  }
  return lines.join('\n');
}
