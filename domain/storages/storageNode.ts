import type { Database } from '../../storage/db.js';
import { claimStorage, releaseStorage } from '../../storage/storages.js';
import type { ContentDeps } from '../common/deps.js';
import { instanceKey } from '../common/instanceKeys.js';
import { errorFields, log } from '../common/log.js';
import { reconcileStorage } from '../spaces/index.js';

/**
 * One node of an instance spread over storage nodes: the storage whose repositories it keeps (or
 * none: it only routes), whether it owns that storage right now, and where it answers.
 */
export interface StorageNode {
  readonly storage: string | null;
  /** Where this node answers (known once it listens). */
  readonly url: string;
  /** Holds its storage's ownership lock now: only then does it serve (and write) the storage's spaces. */
  owns(): boolean;
}

/**
 * Brings what the database says of a storage's repositories up to them (reconcileStorage), off
 * every request's path: run by a node that has just taken its storage, and at the start of an
 * instance of one node, since a process killed after a branch moved and before its bookkeeping
 * left the recorded head and the search index behind.
 */
export function reconcileInBackground(deps: Pick<ContentDeps, 'db' | 'repositories'>, storageId: string): Promise<void> {
  return reconcileStorage(deps, storageId).then(
    (done) => void ((done.recorded > 0 || done.reindexed > 0) && log.info(`storage ${storageId}: heads and search brought up to the repositories`, done)),
    (error: unknown) => log.warn(`storage ${storageId}: not reconciled with its repositories`, errorFields(error)),
  );
}

/** How often a node that doesn't own its storage tries to take it (a standby waiting for the owner to die). */
const claimRetryMs = 250;

/**
 * Takes the ownership of `storage` and keeps it: a PostgreSQL session advisory lock held for as
 * long as the node lives, so one node at a time owns a storage, and a node whose session is gone
 * (it died, or its connection was cut) stops serving it at once. Taken, the storage's row names
 * this node's URL for the others to route to. While another node owns it, this one waits as a
 * standby and takes it when that node's session ends.
 */
export function storageNode(deps: Pick<ContentDeps, 'db' | 'repositories'>, storage: string | null): StorageNode & { start(url: string): void; stop(): Promise<void> } {
  let url = '';
  let owned = false;
  let stopped = false;
  let wake: () => void = () => undefined;
  const stopping = new Promise<void>((resolve) => (wake = resolve));
  const pause = (ms: number) => Promise.race([stopping, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);

  async function keepOwnership(db: Database, id: string) {
    let waitingSince: number | undefined;
    while (!stopped) {
      const lock = await db.holdSessionLock!(`quire-storage:${id}`).catch((error: unknown) => {
        log.warn(`storage ${id}: the ownership lock could not be asked for`, errorFields(error));
        return null;
      });
      if (!lock) {
        if (waitingSince === undefined) log.info(`storage ${id} is owned by another node: waiting to take it over`, { node: url });
        waitingSince ??= Date.now();
        await pause(claimRetryMs);
        continue;
      }
      try {
        await claimStorage(db, id, url);
      } catch (error) {
        log.warn(`storage ${id} could not be claimed`, errorFields(error));
        await lock.release();
        await pause(claimRetryMs);
        continue;
      }
      owned = true;
      log.info(`storage ${id} is served by this node`, { node: url, ...(waitingSince === undefined ? {} : { waitedMs: Date.now() - waitingSince }) });
      waitingSince = undefined;
      void reconcileInBackground(deps, id);
      await Promise.race([lock.lost, stopping]);
      owned = false;
      if (stopped) {
        await releaseStorage(db, id, url).catch(() => undefined);
        await lock.release();
        return;
      }
      log.error(`storage ${id}: the ownership lock was lost (the database session ended): not serving it until it is taken again`, { node: url });
    }
  }

  if (storage !== null && !deps.db.holdSessionLock) throw new Error('Storage nodes need PostgreSQL (QUIRE_DATABASE_URL): their ownership is a session lock');
  let running = Promise.resolve();
  return {
    storage,
    get url() {
      return url;
    },
    owns: () => owned,
    start(at: string) {
      url = at;
      if (storage !== null) running = keepOwnership(deps.db, storage);
    },
    async stop() {
      stopped = true;
      wake();
      await running;
    },
  };
}

/** The header a node sends with a request it routes to another, and with its calls between nodes. */
export const routedHeader = 'x-quire-routed';

/** The secret every node derives alike from the instance's `node-routing` key: what marks a request as from another node. */
export async function nodeRoutingSecret(deps: Pick<ContentDeps, 'db' | 'dataDir'>): Promise<string> {
  return (await instanceKey(deps, 'node-routing')).toString('base64url');
}
