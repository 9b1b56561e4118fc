import { readObjectSize } from './objects/readObject.js';
import type { Revision } from './readRevision.js';
import type { Repository } from './repository.js';

const sizesOfRevision = new WeakMap<Revision, Promise<Map<string, number>>>();

/**
 * The sizes of a revision's files, by blob id: read once per revision from the objects' headers
 * (no file is read whole), then the same map for every request that presents the revision.
 */
export function fileSizes(repo: Repository, revision: Revision): Promise<Map<string, number>> {
  let sizes = sizesOfRevision.get(revision);
  if (!sizes) {
    sizes = Promise.all(revision.files.map(async (file) => [file.oid, await readObjectSize(repo, file.oid)] as const)).then((pairs) => new Map(pairs));
    sizesOfRevision.set(revision, sizes);
    sizes.catch(() => sizesOfRevision.delete(revision));
  }
  return sizes;
}
