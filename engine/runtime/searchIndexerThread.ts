/**
 * The search indexer's task, run in a thread of its own (client: searchIndexer.ts). It reads a
 * space's revision with caches of its own and cuts the changed pages into sections, so that
 * re-indexing a 10,000-page space (building its revision, comparing every page's hash, reading the
 * changed pages) never holds the API's event loop. The index rows are written by the caller.
 */
import { BudgetedCache } from './cacheBudget.js';
import { checkBeforeEachRead } from '../objects/readObject.js';
import { readRevision } from '../readRevision.js';
import { closeRepository, openRepository } from '../repository.js';
import { pageSections, searchablePages } from '../internal/searchSections.js';
import type { IndexerOutcome, IndexerRequest, SearchIndexRow } from './searchIndexer.js';

/**
 * Each repository's indexed pages (page id → content hash) at the revision they were computed for:
 * a refresh compares the new revision with these when the index is still at that revision (the
 * hashes of a revision are the same whoever computed them).
 */
const indexedPages = new BudgetedCache<string, { revision: string; hashes: Map<string, string> }>('indexed pages', (indexed) => 200 + indexed.hashes.size * 200);
/** Rows go to the caller this many pages a message: one message of a first index's every page would be one long block to receive. */
const rowsPerMessage = 200;
/** A repository this thread hasn't read for this long has its pack files closed (a deleted or moved one lets go of them). */
const idleCloseMs = 30_000;
const idle = new Map<string, NodeJS.Timeout>();

/** The task the pool runs (searchIndexer.ts: searchIndexChanges). */
export async function indexChanges(request: IndexerRequest): Promise<IndexerOutcome> {
  const { gitdir, head, indexedAt, rowsPort, stop } = request;
  const stopWhenAsked = () => {
    if (Atomics.load(stop, 0) !== 0) throw new Error('The search indexer was asked to stop');
  };
  checkBeforeEachRead(stopWhenAsked);
  stopWhenAsked();
  try {
    const known = indexedPages.get(gitdir);
    const indexed = known && known.revision === indexedAt ? known.hashes : request.indexedHashes && new Map(request.indexedHashes);
    if (!indexed) return { needsIndexedHashes: true };
    const pages = await searchablePages((await readRevision(openRepository(gitdir), head)).pages);
    const hashes = new Map<string, string>();
    let rows: SearchIndexRow[] = [];
    for (const { page, ancestors, contentHash } of pages) {
      stopWhenAsked();
      hashes.set(page.id, contentHash);
      if (indexed.get(page.id) === contentHash) continue;
      rows.push({ pageId: page.id, title: page.title, path: page.path, ancestors, contentHash, sections: pageSections(page) });
      if (rows.length === rowsPerMessage) {
        rowsPort.postMessage(rows);
        rows = [];
      }
    }
    if (rows.length > 0) rowsPort.postMessage(rows);
    rowsPort.postMessage(null);
    indexedPages.set(gitdir, { revision: head, hashes });
    return { removed: [...indexed.keys()].filter((pageId) => !hashes.has(pageId)) };
  } finally {
    closeWhenIdle(gitdir); // the port is closed by the caller, once it has read the rows
  }
}

function closeWhenIdle(gitdir: string): void {
  clearTimeout(idle.get(gitdir));
  const timer = setTimeout(() => {
    idle.delete(gitdir);
    closeRepository(gitdir);
  }, idleCloseMs);
  timer.unref();
  idle.set(gitdir, timer);
}
