/**
 * GitBook's block syntax: `{% name attr="value" %}` … `{% endname %}` lines around markdown, and
 * void tags such as `{% embed url="…" %}` and `{% include "…" %}`. This splits a page's markdown into markdown runs and
 * those blocks (nested), leaving code fences alone so a tag shown inside code stays text.
 */
export type Segment =
  | { kind: 'markdown'; text: string; /** Where the text starts in the page's markdown. */ start: number }
  | {
      kind: 'block';
      name: string;
      /** `name="value"` pairs, and `argument`: the quoted argument after the name (`{% include "…" %}`). */
      attributes: Record<string, string>;
      children: Segment[];
      /** Where the block's opening tag starts and its closing tag's line ends (the page's end, if never closed). */
      start: number;
      end: number;
    };

// A tag's name, an optional quoted argument (`{% include "…" %}`), then its attributes.
const tagLine = /^\s*\{%\s*([a-z][a-z-]*)(?:\s+"([^"]*)"|\s+'([^']*)')?((?:\s+[a-zA-Z][\w-]*=(?:"[^"]*"|'[^']*'|[^\s%]+))*)\s*%\}\s*$/;
const attribute = /([a-zA-Z][\w-]*)=(?:"([^"]*)"|'([^']*)'|([^\s%]+))/g;
const fence = /^\s*(`{3,}|~{3,})/;

/** Tags that always wrap content and need their `end` tag. */
export const containerTags = new Set([
  'hint',
  'tabs',
  'tab',
  'code',
  'content-ref',
  'file',
  'stepper',
  'step',
  'columns',
  'column',
  'expandable',
  'if',
  'swagger',
  'openapi',
  'openapi-operation',
  'details',
]);

/**
 * An expandable, as Git Sync writes it: `<details>` and `</details>` on lines of their own around
 * a `<summary>` line and markdown. Read as `{% details %}` and `{% enddetails %}`.
 */
const detailsOpen = /^\s*<details(?:\s+open)?\s*>\s*$/i;
const detailsClose = /^\s*<\/details\s*>\s*$/i;

export function parseAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of text.matchAll(attribute)) attributes[match[1]!] = match[2] ?? match[3] ?? match[4] ?? '';
  return attributes;
}

/** The tag a line is (`<details>` lines as their `{% %}` forms), with its attributes; undefined for any other line. */
function tagOf(line: string): { name: string; attributes: Record<string, string> } | undefined {
  if (detailsOpen.test(line)) return { name: 'details', attributes: {} };
  if (detailsClose.test(line)) return { name: 'enddetails', attributes: {} };
  const tag = tagLine.exec(line);
  if (!tag) return undefined;
  const argument = tag[2] ?? tag[3];
  return { name: tag[1]!, attributes: { ...parseAttributes(tag[4] ?? ''), ...(argument !== undefined ? { argument } : {}) } };
}

export function splitBlocks(markdown: string): Segment[] {
  const root: Segment[] = [];
  const stack: Array<{ name: string; segment: Extract<Segment, { kind: 'block' }>; openedAt: number }> = [];
  let buffer: string[] = [];
  let bufferStart = 0;
  let inFence: string | null = null;
  const target = () => (stack.length ? stack[stack.length - 1]!.segment.children : root);
  const flush = () => {
    if (buffer.length) target().push({ kind: 'markdown', text: buffer.join('\n'), start: bufferStart });
    buffer = [];
  };
  const lines = markdown.split('\n');
  let offset = 0;
  for (const line of lines) {
    const lineStart = offset;
    offset += line.length + 1;
    if (buffer.length === 0) bufferStart = lineStart;
    const fenceMatch = fence.exec(line);
    if (fenceMatch) {
      if (inFence === null) inFence = fenceMatch[1]![0]!;
      else if (fenceMatch[1]![0] === inFence) inFence = null;
      buffer.push(line);
      continue;
    }
    const tag = inFence === null ? tagOf(line) : undefined;
    // A `</details>` closing no `<details>` of ours is the page's own HTML.
    if (!tag || (tag.name === 'enddetails' && stack[stack.length - 1]?.name !== 'details')) {
      buffer.push(line);
      continue;
    }
    const { name, attributes } = tag;
    if (name.startsWith('end') && stack.length && stack[stack.length - 1]!.name === name.slice(3)) {
      flush();
      stack.pop()!.segment.end = lineStart + line.length;
      continue;
    }
    flush();
    const end = lineStart + line.length; // a void tag is its line; a container's end moves to its end tag's
    const segment: Extract<Segment, { kind: 'block' }> = { kind: 'block', name, attributes, children: [], start: lineStart, end };
    target().push(segment);
    if (containerTags.has(name)) stack.push({ name, segment, openedAt: root.length });
  }
  flush();
  for (const open of stack) open.segment.end = markdown.length;
  return root;
}
