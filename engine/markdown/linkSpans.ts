import type { Nodes } from 'mdast';
import { splitBlocks, type Segment } from './blocks.js';
import { parseMarkdown } from './parse.js';

/** Where a link target is written in a page's markdown: its source range and the target as written. */
export interface LinkSpan {
  start: number;
  end: number;
  target: string;
}

// The target at the end of a link or image's source: `](target)`, `](<target> "title")`.
const inlineTarget = /\]\(\s*(<[^>\n]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)$/;
// A definition's target: `[label]: target "title"`.
const definitionTarget = /^\s*\[[^\]]*\]:\s*(<[^>\n]*>|\S+)/;
// A GitBook tag's target: url="…", src="…" or the quoted argument of an include.
const tagTarget = /(?:\s(?:url|src)=|^\s*\{%\s*include\s+)(["'])(.*?)\1/;

/**
 * Every link target written in a page, with where it is in the source: markdown links, images and
 * definitions (not inside code), and GitBook tags' `url`/`src` and includes. What rewrites targets
 * (`format.markdown.refs=stable`) changes those ranges and nothing else.
 */
export function linkSpans(markdown: string): LinkSpan[] {
  const spans: LinkSpan[] = [];
  const fromMatch = (offset: number, match: RegExpExecArray | null, group: number) => {
    if (!match) return;
    const written = match[group]!;
    const at = offset + match.index + match[0].lastIndexOf(written);
    const bare = written.startsWith('<') && written.endsWith('>') ? { start: at + 1, target: written.slice(1, -1) } : { start: at, target: written };
    spans.push({ start: bare.start, end: bare.start + bare.target.length, target: bare.target });
  };
  const visitTree = (node: Nodes, base: number, text: string) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if ((node.type === 'link' || node.type === 'image') && start !== undefined && end !== undefined) fromMatch(base + start, inlineTarget.exec(text.slice(start, end)), 1);
    if (node.type === 'definition' && start !== undefined && end !== undefined) fromMatch(base + start, definitionTarget.exec(text.slice(start, end)), 1);
    if ('children' in node) for (const child of node.children) visitTree(child as Nodes, base, text);
  };
  const visitSegments = (segments: Segment[]) => {
    for (const segment of segments) {
      if (segment.kind === 'markdown') visitTree(parseMarkdown(segment.text), segment.start, segment.text);
      else {
        const lineEnd = markdown.indexOf('\n', segment.start);
        fromMatch(segment.start, tagTarget.exec(markdown.slice(segment.start, lineEnd === -1 ? markdown.length : lineEnd)), 2);
        visitSegments(segment.children);
      }
    }
  };
  visitSegments(splitBlocks(markdown));
  return spans.sort((a, b) => a.start - b.start);
}
