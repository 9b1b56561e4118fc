import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import type { PageSection } from '../internal/searchSections.js';
import { listenedPool, siblingModule } from './workerPool.js';

/** A page as the search index keeps it: what it is found by, and the hash that tells it changed. */
export interface SearchIndexRow {
  pageId: string;
  title: string;
  path: string;
  ancestors: string[];
  contentHash: string;
  sections: PageSection[];
}

export interface SearchIndexChanges {
  /** The pages to (re)write: new ones, and ones whose text, title or place changed. */
  rows: SearchIndexRow[];
  /** The pages the revision no longer has. */
  removed: string[];
}

export interface IndexerRequest {
  gitdir: string;
  head: string;
  /** The revision the index is at, or null for a space never indexed. */
  indexedAt: string | null;
  /** The index's page hashes, when the thread asked for them: it didn't know them at `indexedAt`. */
  indexedHashes?: Array<[string, string]>;
  /** Where the thread sends rows as it makes them, a few hundred at a time, then null. */
  rowsPort: MessagePort;
  /** Set to 1 when the thread is to stop: it ends its task at its next object read or page. */
  stop: Int32Array;
}

/** What a request ends with: the removed pages (the rows went to `rowsPort`), or a request for the index's hashes. */
export type IndexerOutcome = { removed: string[] } | { needsIndexedHashes: true };

/** A refresh that was under way when the indexer stopped (a shutdown): nothing went wrong with the space. */
export class SearchIndexerStoppedError extends Error {
  /** `cause`: how the thread's task ended, when it ended on the stop. */
  constructor(cause?: unknown) {
    super('The search indexer stopped before the refresh finished', { cause });
    this.name = 'SearchIndexerStoppedError';
  }
}

// A pool of one thread that stays: the thread's caches (the revisions it built, each space's
// indexed hashes) are what makes the next refresh of a space cheap. Piscina loads the task module
// the way TypeScript runs under tsx, which a plain Worker's entry doesn't. The thread runs at a
// lower priority (nice +10): an index a moment late matters less than the requests it would slow.
let pool: Piscina | undefined;
/** Shared with the pool's thread: 1 asks it to stop. */
let stopFlag = new Int32Array(new SharedArrayBuffer(4));
const inFlight = new Set<Promise<unknown>>();
const task = siblingModule(import.meta.url, 'searchIndexerThread');
/** How long a stop waits for the thread to end its task before stopping it from outside. */
const stopWaitMs = 5000;

async function ask(request: Omit<IndexerRequest, 'rowsPort' | 'stop'>): Promise<{ changes: SearchIndexChanges } | { needsIndexedHashes: true }> {
  pool ??= listenedPool({ minThreads: 1, maxThreads: 1, idleTimeout: Infinity, niceIncrement: 10 }, "the search indexer's thread", () => pool);
  const running = pool;
  const stop = stopFlag;
  const { port1, port2 } = new MessageChannel();
  const rows: SearchIndexRow[] = [];
  // The rows come in chunks on a port of their own, then null: messages of two ports keep no order
  // between them, so the task's answer alone doesn't say all its rows have arrived.
  const allRows = new Promise<void>((resolve) =>
    port1.on('message', (chunk: SearchIndexRow[] | null) => {
      if (chunk === null) resolve();
      else rows.push(...chunk);
    }),
  );
  try {
    const asked = running.run({ ...request, rowsPort: port2, stop } satisfies IndexerRequest, { filename: task.href, name: 'indexChanges', transferList: [port2] });
    inFlight.add(asked);
    const outcome = (await asked
      .catch((error: unknown) => {
        throw pool === running ? error : new SearchIndexerStoppedError(error);
      })
      .finally(() => inFlight.delete(asked))) as IndexerOutcome;
    if (pool !== running) throw new SearchIndexerStoppedError(); // stopped meanwhile: a refresh goes no further
    if ('needsIndexedHashes' in outcome) return outcome;
    await allRows;
    return { changes: { rows, removed: outcome.removed } };
  } finally {
    port1.close();
  }
}

/**
 * What a space's search index needs to come from `indexedAt` to the revision `head`, worked out in
 * the search indexer's thread (searchIndexerThread.ts): only the changed pages are read and cut.
 * `indexedHashes` reads the index's page hashes, asked for when the thread doesn't know them (its
 * first refresh of the space, or an index another process brought forward).
 */
export async function searchIndexChanges(gitdir: string, head: string, indexedAt: string | null, indexedHashes: () => Promise<Map<string, string>>): Promise<SearchIndexChanges> {
  const first = await ask({ gitdir, head, indexedAt });
  if ('changes' in first) return first.changes;
  const second = await ask({ gitdir, head, indexedAt, indexedHashes: [...(await indexedHashes())] });
  if ('changes' in second) return second.changes;
  throw new Error("The search indexer asked for the index's hashes twice");
}

/**
 * Stops the indexer's thread: the refreshes under way fail with SearchIndexerStoppedError. The
 * thread is asked to end its task first (it does at its next object read or page, within
 * milliseconds) and is stopped once idle: stopped in the middle of an inflate, it could abort the
 * process (see checkBeforeEachRead). A later refresh starts a new one. Says whether the thread
 * was idle when it was stopped, or still busy after the wait.
 */
export async function stopSearchIndexer(): Promise<'idle' | 'busy' | 'not running'> {
  const stopping = pool;
  pool = undefined;
  if (!stopping) return 'not running';
  Atomics.store(stopFlag, 0, 1);
  stopFlag = new Int32Array(new SharedArrayBuffer(4));
  let waited: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled(inFlight), new Promise((resolve) => (waited = setTimeout(resolve, stopWaitMs)))]);
  clearTimeout(waited);
  const state = inFlight.size === 0 ? 'idle' : 'busy';
  await stopping.destroy();
  return state;
}
