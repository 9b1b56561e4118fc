import type { ElementContent } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { diffComm } from 'node-diff3';
import { el, type Child } from '../../domain/documents/index.js';

/** Unchanged blocks shown around each change; the rest fold into a count. */
const context = 2;

/**
 * A page before and after as the reader sees it: its blocks drawn by the shared renderer, those
 * removed and added marked (and named for screen readers), unchanged ones kept around each change
 * as context. Blocks are compared whole, by the HTML they draw.
 */
export function renderedDiff(before: ElementContent[], after: ElementContent[]): Child {
  const [a, b] = [blocks(before), blocks(after)];
  const keys = (list: ElementContent[]) => list.map((node) => toHtml(node));
  const [aKeys, bKeys] = [keys(a), keys(b)];
  const out: Child[] = [];
  let [ai, bi] = [0, 0];
  const regions = diffComm(aKeys, bKeys);
  regions.forEach((region, index) => {
    if (region.common) {
      const common = b.slice(bi, bi + region.common.length);
      const head = index === 0 ? [] : common.slice(0, context);
      const tail = index === regions.length - 1 ? [] : common.slice(Math.max(head.length, common.length - context));
      const folded = common.length - head.length - tail.length;
      out.push(...head);
      if (folded > 0) out.push(el('p', { className: ['diff-fold'] }, `… ${folded} unchanged block${folded === 1 ? '' : 's'}`));
      out.push(...tail);
      ai += region.common.length;
      bi += region.common.length;
    } else {
      const removed = a.slice(ai, ai + (region.buffer1?.length ?? 0));
      const added = b.slice(bi, bi + (region.buffer2?.length ?? 0));
      out.push(...removed.map((node) => el('div', { className: ['block-del'] }, el('span', { className: ['visually-hidden'] }, 'Removed: '), node)));
      out.push(...added.map((node) => el('div', { className: ['block-ins'] }, el('span', { className: ['visually-hidden'] }, 'Added: '), node)));
      ai += removed.length;
      bi += added.length;
    }
  });
  return el('div', { className: ['rendered-diff', 'document'] }, out);
}

/** The top-level blocks of a rendered page (whitespace between them dropped). */
const blocks = (content: ElementContent[]) => content.filter((node) => node.type !== 'text' || node.value.trim() !== '');
