import { BudgetedCache, stringBytes } from '../runtime/cacheBudget.js';
import { parsePageFile, type PageFile } from '../layout/pageFile.js';
import { readBlob } from '../objects/readBlob.js';
import type { Repository } from '../repository.js';
import { turnPauser } from '../internal/turns.js';
import { snapshotPageFiles, snapshottedPageFiles } from './pageFilesSnapshot.js';

// Blobs never change: a parsed page file is cached by its blob id.
const pageFiles = new BudgetedCache<string, PageFile>('page files', (file) => stringBytes(file.body) + JSON.stringify(file.meta).length * 2 + 200);

/** A markdown file parsed into its frontmatter and body, cached by blob id. */
export async function readPageFile(repo: Repository, oid: string): Promise<PageFile> {
  return pageFiles.through(oid, async () => parsePageFile((await readBlob(repo, oid)).toString('utf8')));
}

/** Fewer page files than this missing are read from their objects without looking at the snapshot, nor renewing it. */
const snapshotWorthIt = 16;

/**
 * The markdown files, parsed, by blob id: those not in the cache yet taken from the repository's
 * snapshot (`pageFilesSnapshot.ts`) or read many at once (a cold read waits on the disk once, not
 * once per page). The pages are then built without waiting.
 */
export async function loadPageFiles(repo: Repository, oids: string[]): Promise<Map<string, PageFile>> {
  const loaded = new Map<string, PageFile>();
  let missing: string[] = [];
  const pause = turnPauser(1);
  for (const [index, oid] of oids.entries()) {
    const cached = pageFiles.get(oid);
    if (cached === undefined) missing.push(oid);
    else loaded.set(oid, cached);
    if (index % 256 === 255) await pause();
  }
  if (missing.length >= snapshotWorthIt) {
    const snapshot = await snapshottedPageFiles(repo);
    missing = missing.filter((oid) => {
      const file = snapshot.get(oid);
      if (file === undefined) return true;
      pageFiles.set(oid, file);
      loaded.set(oid, file);
      return false;
    });
  }
  for (let start = 0; start < missing.length; start += 64) {
    const batch = missing.slice(start, start + 64);
    (await Promise.all(batch.map((oid) => readPageFile(repo, oid)))).forEach((file, index) => loaded.set(batch[index]!, file));
  }
  // Many read from their objects: the snapshot lacked them (or there is none), so it is renewed.
  // A build that found its page files in memory or in the snapshot leaves the snapshot as it is.
  if (missing.length >= snapshotWorthIt) snapshotPageFiles(repo, loaded);
  return loaded;
}
