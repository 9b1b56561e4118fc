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
// `(.*)` then trimEnd: a lazy `(.*?)\s*$` is quadratic on a long run of spaces.
const headingLine = /^(#{1,6})\s+(.*)$/;
const itemLine = /^(\s*)[*+-]\s+\[((?:\\.|[^\]\\])*)\]\(\s*(?:<([^>]*)>|([^)\s]*))(?:\s+"[^"]*")?\s*\)(.*)$/;
const fenceLine = /^\s*(`{3,}|~{3,})/;

const unescape = (text: string) => text.replace(/\\([\\[\]*_`#])/g, '$1');
const isUrl = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/**
 * A link target as SUMMARY.md holds it → what the entry points at: a URL as written; a file's
 * path without its `#fragment`, percent-decoded whole (so `c%23.md` is the file `c#.md`).
 */
const readTarget = (target: string) => {
  if (isUrl(target)) return target;
  const file = target.split('#', 1)[0]!;
  try {
    return decodeURIComponent(file);
  } catch {
    return file;
  }
};

/**
 * Reads SUMMARY.md as GitBook writes it: an optional `#` title, lists of links (nesting by
 * indentation), `##` groups. The format is line by line, so it is read line by line: a full
 * markdown parse costs a hundred times more on a large table of contents.
 */
/**
 * A copy of a piece of `text` that doesn't keep `text` alive. V8 makes a regex capture or a split
 * line a slice of the whole string: every title would hold its revision's whole SUMMARY.md, and a
 * cache of revisions sized by its titles would hold a copy of it per revision (71 MB of them after
 * a soak of two minutes).
 */
const detached = (piece: string) => (' ' + piece).slice(1);

export function parseSummary(markdown: string): SummaryGroup[] {
  const groups: SummaryGroup[] = [{ title: null, entries: [] }];
  let stack: Array<{ indent: number; entry: SummaryEntry }> = [];
  for (const line of summaryLines(markdown)) {
    if (line.kind === 'group') {
      const id = idComment.exec(line.text)?.[1];
      const title = detached(
        unescape(
          line.text
            .replace(idComment, '')
            .replace(/<[^<>]*>/g, '')
            .trim(),
        ),
      );
      groups.push({ title, ...(id ? { id: detached(id) } : {}), entries: [] });
      stack = [];
      continue;
    }
    const { item, indent } = line;
    const id = idComment.exec(item[5] ?? '')?.[1];
    const entry: SummaryEntry = { title: detached(unescape(item[2]!).trim()), target: detached(readTarget(item[3] ?? item[4] ?? '')), ...(id ? { id: detached(id) } : {}), children: [] };
    while (stack.length && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    (parent ? parent.entry.children : groups[groups.length - 1]!.entries).push(entry);
    stack.push({ indent, entry });
  }
  return groups.filter((group, index) => index > 0 || group.entries.length > 0);
}

/** The targets SUMMARY.md links to (files as repository paths, URLs as written), with their line numbers from 1. */
export function summaryTargets(markdown: string): Array<{ line: number; target: string }> {
  const targets: Array<{ line: number; target: string }> = [];
  for (const line of summaryLines(markdown)) if (line.kind === 'item') targets.push({ line: line.number, target: readTarget(line.item[3] ?? line.item[4] ?? '') });
  return targets;
}

type SummaryLine = { kind: 'group'; number: number; text: string } | { kind: 'item'; number: number; indent: number; item: RegExpExecArray };

/** The lines of SUMMARY.md that mean something: `##` group headings and list items, fenced code skipped. */
function* summaryLines(markdown: string): Generator<SummaryLine> {
  let fence: string | null = null;
  let number = 0;
  for (const raw of markdown.split('\n')) {
    number += 1;
    const line = raw.replace(/\t/g, '    ');
    const fenced = fenceLine.exec(line);
    if (fenced) fence = fence === null ? fenced[1]![0]! : fenced[1]![0] === fence ? null : fence;
    if (fence !== null || fenced) continue;
    const heading = headingLine.exec(line);
    if (heading) {
      if (heading[1]!.length >= 2) yield { kind: 'group', number, text: heading[2]! };
      continue;
    }
    const item = itemLine.exec(line);
    if (item) yield { kind: 'item', number, indent: item[1]!.length, item };
  }
}

const escapeTitle = (title: string) => title.replace(/([[\]\\])/g, '\\$1');
/** A file's path as a link target: `#` and `?` encoded too, or they would read as a fragment and a query. */
const encodeTarget = (target: string) => (isUrl(target) ? target : encodeURI(target).replace(/#/g, '%23').replace(/\?/g, '%3F'));

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
