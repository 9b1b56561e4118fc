import { BudgetedCache, stringBytes } from '../cacheBudget.js';
import { parsePageFile, type PageFile } from '../layout/pageFile.js';
import { readBlob } from '../objects/readBlob.js';
import type { Repository } from '../repository.js';

// Blobs never change: a parsed page file is cached by its blob id.
const pageFiles = new BudgetedCache<string, PageFile>((file) => stringBytes(file.body) + JSON.stringify(file.meta).length * 2 + 200);

/** A markdown file parsed into its frontmatter and body, cached by blob id. */
export async function readPageFile(repo: Repository, oid: string): Promise<PageFile> {
  return pageFiles.through(oid, async () => parsePageFile((await readBlob(repo, oid)).toString('utf8')));
}

/** Reads the markdown files not in the cache yet, many at once: a cold read waits on the disk once, not once per page. */
export async function preloadPageFiles(repo: Repository, oids: string[]): Promise<void> {
  const missing = oids.filter((oid) => pageFiles.get(oid) === undefined);
  for (let start = 0; start < missing.length; start += 64) await Promise.all(missing.slice(start, start + 64).map((oid) => readPageFile(repo, oid)));
}
