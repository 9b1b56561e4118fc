import { createHash } from 'node:crypto';
import type { RevisionPage } from '../readRevision.js';
import { slugify } from '../slugify.js';
import { turnPauser } from './turns.js';

export interface PageSection {
  /** The heading's anchor, or '' for the text before the first heading. */
  id: string;
  title: string;
  body: string;
}

export interface SearchablePage {
  page: RevisionPage;
  ancestors: string[];
  /**
   * Changes whenever anything indexed for the page changes: made from what its sections are read
   * from (title, place, ancestors, and the markdown's blob id), so telling the changed pages of a
   * revision apart reads no page's text.
   */
  contentHash: string;
}

/** Raised whenever what `pageSections` makes of a page changes: every index is then rebuilt once. */
const sectionsVersion = 2;

/**
 * A page's text cut at its headings, what search finds and shows: cut line by line (code fences
 * respected), each part reduced to the words a reader sees: link and image text without targets,
 * no emphasis marks, HTML tags or `{% %}` block tags. A full markdown parse would cost ten times
 * as much for the same words. Not cached: an index refresh asks only for the pages whose content
 * hash changed, which no cache would hold.
 */
export function pageSections(page: RevisionPage): PageSection[] {
  const sections: PageSection[] = [{ id: '', title: page.title, body: '' }];
  const bodies: string[][] = [[]];
  let fence: string | null = null;
  let titleSeen = false;
  for (const line of (page.markdown ?? '').split('\n')) {
    const fenceMatch = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      fence = fence === null ? fenceMatch[1]![0]! : fenceMatch[1]![0] === fence ? null : fence;
      continue;
    }
    if (fence === null) {
      const heading = /^(#{1,6})[ \t]+([^\n]*)$/.exec(line);
      if (heading) {
        if (heading[1]!.length === 1 && !titleSeen) {
          titleSeen = true; // the page title
          continue;
        }
        const title = plainText(trimEnd(heading[2]!, ' \t#'));
        sections.push({ id: slugify(title), title, body: '' });
        bodies.push([]);
        continue;
      }
      if (/^\s*\{%.*%\}\s*$/.test(line)) continue;
    }
    bodies[bodies.length - 1]!.push(fence === null ? plainText(line) : line);
  }
  return sections
    .map((section, index) => ({
      ...section,
      body: bodies[index]!.join('\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim(),
    }))
    .filter((section, index) => index === 0 || section.body || section.title);
}

/** `text` without the trailing characters in `characters`: a loop, where a `[…]+$` pattern is quadratic on long runs. */
function trimEnd(text: string, characters: string): string {
  let end = text.length;
  while (end > 0 && characters.includes(text[end - 1]!)) end -= 1;
  return text.slice(0, end);
}

// Every pattern here stops at the next opening character as well as the closing one, so a long
// line of `[`, `<` or `](` costs linear time, never quadratic.
function plainText(line: string): string {
  const text = line
    .replace(/!\[([^[\]]*)\]\([^()]*\)/g, '$1')
    .replace(/\[([^[\]]*)\]\([^()]*\)/g, '$1')
    .replace(/<[^<>]+>/g, ' ')
    .replace(/^\s{0,3}(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/, '')
    .replace(/^\s{0,3}>\s?/, '')
    .replace(/(\*\*|__|\*|_|~~|`)/g, '');
  return (
    text.includes('|')
      ? text
          .split('|')
          .map((cell) => cell.trim())
          .join(' ')
      : text
  ).trim();
}

/**
 * Each page's entry, by page object, with the ancestors' titles it was made under: a revision
 * shares the page objects its parent's had for unchanged pages, so a commit touching a few pages of
 * a large space hashes those few again, not every page. (Pages are never mutated.)
 */
const entries = new WeakMap<RevisionPage, { under: string; entry: SearchablePage }>();

/**
 * Every document page of a revision with its ancestors' titles (its sections: `pageSections`), in
 * page order; a level at a time, pausing between levels when the turn runs long (a 10,000-page
 * space is milliseconds of it).
 */
export async function searchablePages(pages: RevisionPage[]): Promise<SearchablePage[]> {
  const found: SearchablePage[] = [];
  const pause = turnPauser(1);
  const visit = async (level: RevisionPage[], above: string[]): Promise<void> => {
    const under = above.join('\0');
    for (const page of level) {
      if (page.kind === 'document') found.push(entryOf(page, above, under));
      if (page.pages.length > 0) await visit(page.pages, [...above, page.title]);
    }
    await pause();
  };
  await visit(pages, []);
  return found;
}

function entryOf(page: RevisionPage, ancestors: string[], under: string): SearchablePage {
  const known = entries.get(page);
  if (known && known.under === under) return known.entry;
  const content = page.oid ?? page.markdown ?? '';
  const contentHash = createHash('sha256')
    .update(JSON.stringify([sectionsVersion, page.title, page.path, ancestors, content]))
    .digest('base64url');
  const entry = { page, ancestors, contentHash };
  entries.set(page, { under, entry });
  return entry;
}
