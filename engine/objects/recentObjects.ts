import { BudgetedCache } from '../runtime/cacheBudget.js';
import type { GitObject } from './gitObject.js';

/**
 * Objects this process has just written, by repository and id, within the process-wide cache
 * budget: a commit's next reader (the next batch on a change request, the revision presented after
 * a write) finds its new trees, blobs and commit here instead of reading back and inflating the
 * files it wrote a moment ago. An object never changes, so nothing here goes stale.
 */
const recent = new BudgetedCache<string, GitObject>('objects just written', (object, key) => object.data.length + key.length * 2 + 100, 8 * 1024 * 1024);

export const recentObject = (gitdir: string, oid: string): GitObject | undefined => recent.get(`${gitdir}:${oid}`);

export function rememberObject(gitdir: string, oid: string, object: GitObject): void {
  recent.set(`${gitdir}:${oid}`, object);
}
