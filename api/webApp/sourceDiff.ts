import { diffComm } from 'node-diff3';
import { el, type Child } from '../../domain/documents/index.js';
import { findPageById, type PageChange, type Revision } from '../../engine/index.js';

/** Pages longer than this (in lines, either side) aren't diffed here: git shows them (`git diff`). */
const diffLineLimit = 5_000;
/** Unchanged lines shown around each change. */
const context = 3;

/**
 * A page's markdown before and after, as a source diff: removed lines, added lines, and three
 * unchanged lines around each change (the rest folded into a count). Built as a tree like every
 * page of the app; a page past the limit says so instead of holding the event loop.
 */
export function sourceDiff(before: string, after: string): Child {
  const [a, b] = [before.split('\n'), after.split('\n')];
  if (a.length > diffLineLimit || b.length > diffLineLimit) return el('p', { className: ['muted'] }, `Too long to compare here (over ${diffLineLimit} lines): git diff shows it.`);
  const lines: Child[] = [];
  const regions = diffComm(a, b);
  regions.forEach((region, index) => {
    if (region.common) {
      const common = region.common;
      const head = index === 0 ? [] : common.slice(0, context);
      const tail = index === regions.length - 1 ? [] : common.slice(Math.max(head.length, common.length - context));
      const folded = common.length - head.length - tail.length;
      lines.push(...head.map((line) => row(' ', line)));
      if (folded > 0) lines.push(el('span', { className: ['diff-fold'] }, `… ${folded} unchanged line${folded === 1 ? '' : 's'}\n`));
      lines.push(...tail.map((line) => row(' ', line)));
    } else {
      lines.push(...(region.buffer1 ?? []).map((line) => row('-', line)), ...(region.buffer2 ?? []).map((line) => row('+', line)));
    }
  });
  return el('pre', { className: ['diff'], tabIndex: 0 }, lines);
}

function row(mark: ' ' | '-' | '+', line: string): Child {
  const kind = mark === '-' ? 'del' : mark === '+' ? 'ins' : 'span';
  return el(kind, mark === ' ' ? { className: ['diff-same'] } : {}, `${mark} ${line}\n`);
}

/** The markdown before and after of each changed document page (a move that kept its text has none). */
export function changedSources(before: Revision, after: Revision, changes: PageChange[]): Map<string, { before: string; after: string }> {
  const sources = new Map<string, { before: string; after: string }>();
  for (const change of changes) {
    if (change.page.kind !== 'document') continue;
    const old = findPageById(before, change.page.id);
    const now = findPageById(after, change.page.id);
    if (change.type === 'page_moved' && old?.markdown === now?.markdown) continue;
    sources.set(change.page.id, { before: old?.markdown ?? '', after: now?.markdown ?? '' });
  }
  return sources;
}
