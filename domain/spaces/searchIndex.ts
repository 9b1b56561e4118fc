import { RepositoryElsewhereError } from '../../engine/errors/index.js';
import { readRevision } from '../../engine/readRevision.js';
import { readBranch } from '../../engine/readBranch.js';
import { primaryBranch } from '../../engine/repository.js';
import { pageSections, searchablePages } from '../../engine/searchSections.js';
import { BudgetedCache } from '../../engine/cacheBudget.js';
import { turnPauser } from '../../engine/turns.js';
import { errorFields, log } from '../common/log.js';
import { indexedHashes, indexedRevision, updateSpaceIndex, type IndexedPage } from '../../storage/search.js';
import { type ContentDeps } from '../common/deps.js';

const running = new Map<string, Promise<void>>();
/**
 * Each space's indexed pages (page id → content hash) as this process last wrote them, and the
 * revision they are at: a refresh compares the new revision with these instead of reading every
 * page's row again, when the index is still at that revision.
 */
const indexedPages = new BudgetedCache<string, { revision: string; hashes: Map<string, string> }>('indexed pages', (indexed) => 200 + indexed.hashes.size * 200);
/** The revision each space's index was last brought to by this process: spares a query per search. */
const indexedHeads = new Map<string, string>();

/**
 * Brings a space's search index to its current primary revision, re-indexing only the pages
 * whose text, title or place changed. Refreshes of one space run one at a time, so an older
 * revision never overwrites a newer one.
 */
export function refreshSearchIndex(deps: Pick<ContentDeps, 'db' | 'repositories'>, spaceId: string): Promise<void> {
  if (!keptHere(deps, spaceId)) return Promise.resolve(); // its storage node refreshes it after each write
  if (!running.has(spaceId) && indexedHeads.has(spaceId)) {
    // The common case, settled without queueing: is the index still at the branch head?
    return readBranch(deps.repositories.open(spaceId), primaryBranch).then(
      (head) => (head && indexedHeads.get(spaceId) === head ? undefined : queueRefresh(deps, spaceId)),
      () => queueRefresh(deps, spaceId), // the queued refresh reports what went wrong
    );
  }
  return queueRefresh(deps, spaceId);
}

/** Whether this node keeps the space's repository: on storage nodes, another node may. */
function keptHere(deps: Pick<ContentDeps, 'repositories'>, spaceId: string): boolean {
  try {
    deps.repositories.open(spaceId);
    return true;
  } catch (error) {
    if (error instanceof RepositoryElsewhereError) return false;
    throw error;
  }
}

function queueRefresh(deps: Pick<ContentDeps, 'db' | 'repositories'>, spaceId: string): Promise<void> {
  const previous = running.get(spaceId) ?? Promise.resolve();
  const next = previous.then(() => refresh(deps, spaceId)).catch((error) => {
    log.error(`search index of space ${spaceId} not refreshed`, errorFields(error, true));
  });
  running.set(spaceId, next);
  void next.then(() => {
    if (running.get(spaceId) === next) running.delete(spaceId);
  });
  return next;
}

async function refresh(deps: Pick<ContentDeps, 'db' | 'repositories'>, spaceId: string): Promise<void> {
  const repo = deps.repositories.open(spaceId);
  const head = await readBranch(repo, primaryBranch);
  if (!head || indexedHeads.get(spaceId) === head) return;
  const indexedAt = await indexedRevision(deps.db, spaceId);
  if (indexedAt === head) {
    indexedHeads.set(spaceId, head);
    return;
  }
  const pages = await searchablePages((await readRevision(repo, head)).pages);
  const known = indexedPages.get(spaceId);
  const indexed = known && known.revision === indexedAt ? known.hashes : await indexedHashes(deps.db, spaceId);
  // Only the changed pages' text is read and cut into sections. Comparing 10,000 pages, like
  // cutting a first index's every page, is done a few milliseconds' worth a turn, not in one block.
  const pause = turnPauser(1);
  const hashes = new Map<string, string>();
  const rows: IndexedPage[] = [];
  for (const [index, { page, ancestors, contentHash }] of pages.entries()) {
    hashes.set(page.id, contentHash);
    if (indexed.get(page.id) !== contentHash) {
      rows.push({ pageId: page.id, title: page.title, path: page.path, ancestors, contentHash, sections: pageSections(page) });
      await pause();
    } else if (index % 256 === 255) await pause();
  }
  const removed = [...indexed.keys()].filter((pageId) => !hashes.has(pageId));
  await deps.db.transaction((tx) => updateSpaceIndex(tx, spaceId, head, rows, removed));
  indexedHeads.set(spaceId, head);
  indexedPages.set(spaceId, { revision: head, hashes });
}

const scheduled = new Map<string, NodeJS.Timeout>();
/** How long after a write its space's index is refreshed: after the write's own answer has gone. */
const refreshDelayMs = 50;

/**
 * Refreshes a space's search index shortly after a write, off the write's own path: a refresh of a
 * large space is tens of milliseconds of work that would otherwise delay the write's answer. Writes
 * within the delay share one refresh. A search refreshes the index itself first, so it never waits
 * for this, nor reads an index behind the branch.
 */
export function scheduleSearchRefresh(deps: Pick<ContentDeps, 'db' | 'repositories' | 'jobs'>, spaceId: string): void {
  // Every move of a space's primary branch comes through here: a renderer's caches of the sites
  // showing it are told too (a job with retries: a renderer that is down never fails the write).
  deps.jobs?.startRendererRevalidation({ spaceId }).catch((error: Error) => log.warn('could not start the renderer revalidation', { spaceId, error: error.message }));
  if (scheduled.has(spaceId)) return;
  const timer = setTimeout(() => {
    scheduled.delete(spaceId);
    void refreshSearchIndex(deps, spaceId);
  }, refreshDelayMs);
  timer.unref();
  scheduled.set(spaceId, timer);
}

/** Resolves once the refreshes under way have finished; those not started yet are dropped (a search makes its own): a clean shutdown waits for this. */
export async function settleSearchRefreshes(): Promise<void> {
  for (const timer of scheduled.values()) clearTimeout(timer);
  scheduled.clear();
  await Promise.all(running.values());
}
