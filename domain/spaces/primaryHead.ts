import { primaryBranch, readBranch, withSettledBranch } from '../../engine/index.js';
import { recordedSpaceHeads, recordSpaceHead, spaceHeadStates } from '../../storage/spaceHeads.js';
import type { ContentDeps } from '../common/deps.js';
import { errorFields, log } from '../common/log.js';
import { refreshSearchIndex, scheduleSearchRefresh } from './searchIndex.js';
import { spaceRevision } from './spaces.js';

/** Recordings asked for and not begun yet: one begun later reads a newer head, so they are shared. */
const queued = new Map<string, Promise<void>>();

/**
 * Records the space's primary head in the database, read under the repository lock so that no
 * older head is recorded after a newer one (whichever process moved the branch).
 */
export function recordPrimaryHead(deps: Pick<ContentDeps, 'db' | 'repositories'>, spaceId: string): Promise<void> {
  const waiting = queued.get(spaceId);
  if (waiting) return waiting;
  const recording = withSettledBranch(deps.repositories.open(spaceId), primaryBranch, async (head) => {
    if (queued.get(spaceId) === recording) queued.delete(spaceId); // a move from now on needs a recording of its own
    if (head) await recordSpaceHead(deps.db, spaceId, head);
  });
  queued.set(spaceId, recording);
  void recording
    .catch(() => undefined)
    .then(() => {
      if (queued.get(spaceId) === recording) queued.delete(spaceId);
    });
  return recording;
}

/**
 * What follows every move of a space's primary branch: its head recorded (before the write
 * answers, so a list read next shows it), then its search index and the renderer's caches
 * refreshed. The repository is the truth: a head that can't be recorded (the database down) is
 * logged, not failed, and recorded with the next move.
 */
export async function primaryBranchMoved(deps: Pick<ContentDeps, 'db' | 'repositories' | 'jobs'>, spaceId: string): Promise<void> {
  await recordPrimaryHead(deps, spaceId).catch((error: unknown) => log.warn(`the head of space ${spaceId} was not recorded`, errorFields(error)));
  scheduleSearchRefresh(deps, spaceId);
}

/**
 * The primary revisions of many spaces, for lists: as recorded, without opening a repository. A
 * space with none recorded yet (made before heads were recorded) is read from its repository, and
 * its head recorded for the next time.
 */
export async function primaryRevisions(deps: Pick<ContentDeps, 'db' | 'repositories'>, spaceIds: readonly string[]): Promise<Map<string, string>> {
  const revisions = await recordedSpaceHeads(deps.db, spaceIds);
  const missing = spaceIds.filter((id) => !revisions.has(id));
  await Promise.all(
    missing.map(async (id) => {
      revisions.set(id, await spaceRevision(deps, id));
      void recordPrimaryHead(deps, id).catch((error: unknown) => log.warn(`the head of space ${id} was not recorded`, errorFields(error)));
    }),
  );
  return revisions;
}

/**
 * Brings what the database says of a storage's repositories up to them: run by the node that has
 * just taken the storage, off every request's path. A node killed after a branch moved and before
 * it recorded the head, or refreshed the search index, left them behind; so did spaces made
 * before heads were recorded. Reads each primary ref (a stat and 41 bytes), and records or
 * re-indexes only what differs.
 */
export async function reconcileStorage(deps: Pick<ContentDeps, 'db' | 'repositories'>, storageId: string): Promise<{ recorded: number; reindexed: number }> {
  const done = { recorded: 0, reindexed: 0 };
  for (let after = ''; ;) {
    const batch = await spaceHeadStates(deps.db, storageId, after, 500);
    if (batch.length === 0) return done;
    for (const { spaceId, recorded, indexed } of batch) {
      const head = await readBranch(deps.repositories.open(spaceId), primaryBranch).catch((error: unknown) => {
        log.warn(`storage ${storageId}: the head of space ${spaceId} could not be read`, errorFields(error));
        return null;
      });
      if (!head) continue;
      if (head !== recorded) {
        await recordPrimaryHead(deps, spaceId).then(
          () => (done.recorded += 1),
          (error: unknown) => log.warn(`the head of space ${spaceId} was not recorded`, errorFields(error)),
        );
      }
      if (head !== indexed) {
        await refreshSearchIndex(deps, spaceId);
        done.reindexed += 1;
      }
    }
    after = batch.at(-1)!.spaceId;
  }
}
