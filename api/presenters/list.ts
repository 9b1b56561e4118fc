import type { Page } from '../../storage/pagination.js';

/** The upstream list envelope: `next` is present only when there is a following page. */
export function presentList<R, T>(page: Page<R>, present: (item: R) => T) {
  return {
    items: page.items.map(present),
    count: page.count,
    ...(page.next !== undefined ? { next: { page: page.next } } : {}),
  };
}
