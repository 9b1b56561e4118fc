import type { GitObject } from './gitObject.js';
import type { NewObject } from './loose.js';

/**
 * Objects of commits made but not yet written, by repository: a group commit (commitOnHead) builds
 * each batch on the one before it, then writes every object of the group with one round of syncs.
 * Until then the engine's readers find them here (readObject), not in the object folders. Unlike
 * the cache of objects just written, nothing here is evicted: the group removes its own once they
 * are written, or once it gave up.
 */
const staged = new Map<string, Map<string, GitObject>>();

export const stagedObject = (gitdir: string, oid: string): GitObject | undefined => staged.get(gitdir)?.get(oid);

/** Objects about to be written, readable at once; their bytes are shared, not copied. */
export function stageObjects(gitdir: string, objects: NewObject[]): void {
  let folder = staged.get(gitdir);
  if (!folder) staged.set(gitdir, (folder = new Map()));
  for (const { oid, type, content } of objects) folder.set(oid, { type, data: Buffer.from(content.buffer, content.byteOffset, content.byteLength) });
}

export function unstageObjects(gitdir: string, oids: Iterable<string>): void {
  const folder = staged.get(gitdir);
  if (!folder) return;
  for (const oid of oids) folder.delete(oid);
  if (folder.size === 0) staged.delete(gitdir);
}
