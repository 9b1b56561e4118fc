import { primaryBranch } from '../../engine/repository.js';
import { withSettledBranch } from '../../engine/settledBranch.js';
import { recordedSpaceHeads, recordSpaceHead, spacesWithoutHead } from '../../storage/spaceHeads.js';
import type { ContentDeps } from '../common/deps.js';
import { errorFields, log } from '../common/log.js';
import { scheduleSearchRefresh } from './searchIndex.js';
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
  void recording.catch(() => undefined).then(() => {
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
 * Records the heads of a storage's spaces that have none (made before heads were recorded), a
 * batch at a time: run by the node that has just taken the storage, off every request's path.
 */
export async function recordMissingHeads(deps: Pick<ContentDeps, 'db' | 'repositories'>, storageId: string): Promise<number> {
  let recorded = 0;
  for (let after = ''; ; ) {
    const batch = await spacesWithoutHead(deps.db, storageId, after, 100);
    if (batch.length === 0) return recorded;
    for (const spaceId of batch) {
      await recordPrimaryHead(deps, spaceId).then(
        () => (recorded += 1),
        (error: unknown) => log.warn(`the head of space ${spaceId} was not recorded`, errorFields(error)),
      );
    }
    after = batch.at(-1)!;
  }
}
