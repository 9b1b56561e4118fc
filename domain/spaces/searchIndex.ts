import { primaryBranch, readBranch, RepositoryElsewhereError, searchIndexChanges, SearchIndexerStoppedError, stopSearchIndexer } from '../../engine/index.js';
import { errorFields, log } from '../common/log.js';
import { indexedHashes, indexedRevision, updateSpaceIndex } from '../../storage/search.js';
import { type ContentDeps } from '../common/deps.js';
import { announceToRenderer } from '../common/rendererRevalidation.js';

const running = new Map<string, Promise<void>>();
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
  const next = previous
    .then(() => refresh(deps, spaceId))
    .catch((error) => {
      if (error instanceof SearchIndexerStoppedError) return; // a shutdown: the next start's first search refreshes it
      log.error(`search index of space ${spaceId} not refreshed`, errorFields(error, true));
    });
  running.set(spaceId, next);
  void next.then(() => {
    if (running.get(spaceId) === next) running.delete(spaceId);
  });
  return next;
}

/** Set while a shutdown settles the refreshes: those queued behind the one stopped start none. */
let stopping = false;

/** Refreshes that find the index moved by another process meanwhile work their changes out again, this many times in all. */
const refreshTries = 3;

async function refresh(deps: Pick<ContentDeps, 'db' | 'repositories'>, spaceId: string): Promise<void> {
  for (let tries = 0; tries < refreshTries && !stopping; tries += 1) {
    const repo = deps.repositories.open(spaceId);
    const head = await readBranch(repo, primaryBranch);
    if (!head || indexedHeads.get(spaceId) === head) return;
    const indexedAt = (await indexedRevision(deps.db, spaceId)) ?? null;
    if (indexedAt === head) {
      indexedHeads.set(spaceId, head);
      return;
    }
    // Worked out in the search indexer's thread: building a 10,000-page space's revision and reading
    // its changed pages holds no request here; only the rows are written from this thread.
    const { rows, removed } = await searchIndexChanges(repo.gitdir, head, indexedAt, () => indexedHashes(deps.db, spaceId));
    // Written only over the revision they were worked out from: two processes refreshing one space
    // (storage nodes, a worker) could otherwise put an older revision's index over a newer one.
    if (await deps.db.transaction((tx) => updateSpaceIndex(tx, spaceId, head, rows, removed, { from: indexedAt }))) {
      indexedHeads.set(spaceId, head);
      return;
    }
  }
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
  announceToRenderer(deps, { spaceId });
  if (scheduled.has(spaceId)) return;
  const timer = setTimeout(() => {
    scheduled.delete(spaceId);
    void refreshSearchIndex(deps, spaceId);
  }, refreshDelayMs);
  timer.unref();
  scheduled.set(spaceId, timer);
}

/**
 * Ends the refreshes: those not started yet are dropped (a search makes its own), those under way
 * are stopped unwritten (a first index of a large space would hold a shutdown for seconds), and
 * this resolves once none is left. What a clean shutdown calls.
 */
export async function settleSearchRefreshes(): Promise<void> {
  for (const timer of scheduled.values()) clearTimeout(timer);
  scheduled.clear();
  stopping = true;
  try {
    await stopSearchIndexer();
    await Promise.all(running.values());
  } finally {
    stopping = false; // a server started again in this process (the tests) refreshes as before
  }
}
